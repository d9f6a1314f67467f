/** Arrays keep their shape; each element travels in its item's wire form. */

import { type ArrayNode, arrayShape, type Node } from "../ir/nodes.js";
import type { Construct } from "./construct.js";
import {
  ABSENT,
  type EncodeContext,
  FAIL,
  type Fail,
  failAt,
  type PartialContext,
  type PartialMemo,
  type WalkContext,
} from "./context.js";

export function encodeArray(node: ArrayNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!Array.isArray(value)) return failAt(ctx, "invalid-value", "expected an array");
  const out = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    ctx.path.push(i);
    const item = ctx.walk.encode(node.items, value[i], ctx);
    ctx.path.pop();
    if (item === FAIL) return FAIL;
    out[i] = item;
  }
  return out;
}

export function decodeArray(node: ArrayNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  if (!Array.isArray(wire)) return failAt(ctx, "wire-violation", "expected an array");
  const out = new Array<unknown>(wire.length);
  for (let i = 0; i < wire.length; i++) {
    ctx.path.push(i);
    const item = ctx.walk.decode(node.items, wire[i], ctx);
    ctx.path.pop();
    if (item === FAIL) return FAIL;
    out[i] = item;
  }
  return out;
}

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

export const array: Construct<ArrayNode> = {
  kind: "array",
  children: (node) => [{ node: node.items, at: "[]" }],
  encode: encodeArray,
  decode: decodeArray,
  wireTypes: () => ["array"],
  identity: (node, defs, walk) => walk.identity(node.items, defs),
  wireStep: (node, { tokens, i, value }) => ({
    step: Number(tokens[i]),
    node: node.items,
    value: Array.isArray(value) ? value[Number(tokens[i])] : undefined,
    next: i + 1,
  }),
  check: arrayShape.check,
  partial: partialArray,
};
