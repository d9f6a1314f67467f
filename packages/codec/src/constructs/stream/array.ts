/** An array's partial: its elements as they are written (the construct is ../array.ts). */

import type { ArrayNode, Node } from "../../ir/nodes.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";

/**
 * Shows the elements of `wire` in `out` from index `offset`: those shown at
 * the last push stay (complete but the last, re-read), new ones are added up
 * to the first that shows nothing yet. `nodeAt` is every element's node, or
 * gives an element's node (a node, not a function, where all share one: a
 * push makes no closure). With
 * `memo`, its `read` counts the elements written to their end and shown:
 * they are final, so they are not read again (the last one is re-read only
 * while it is being written, and once when it completes).
 */
export function partialElements(
  out: unknown[],
  wire: readonly unknown[],
  offset: number,
  nodeAt: Node | ((i: number) => Node | undefined),
  ctx: PartialContext,
  memo?: PartialMemo,
): void {
  const from = memo === undefined ? Math.max(0, out.length - 1 - offset) : memo.read;
  for (let i = from; i < wire.length; i++) {
    const node = typeof nodeAt === "function" ? nodeAt(i) : nodeAt;
    const value = node === undefined ? ABSENT : ctx.child(node, wire[i], wire, i);
    if (value === ABSENT) return;
    ctx.put(out, offset + i, value);
    if (memo !== undefined && memo.read === i && ctx.complete(wire[i], wire, i)) {
      memo.read = i + 1;
      ctx.passed(wire[i]);
    }
  }
}

function partialArray(node: ArrayNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!Array.isArray(wire)) return ABSENT;
  const out = (memo.value as unknown[] | undefined) ?? [];
  partialElements(out, wire, 0, node.items, ctx, memo);
  return out;
}

export const arrayStreamer: ConstructStreamer<ArrayNode> = {
  kind: "array",
  partial: partialArray,
};
