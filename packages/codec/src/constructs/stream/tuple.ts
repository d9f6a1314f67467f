/** A tuple's partial: an array of its positions, then its rest, as written (the construct is ../tuple.ts). */

import type { Node, TupleNode } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import { REST } from "../tuple.js";
import { partialElements } from "./array.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";
import { fieldPartial } from "./presence.js";

/**
 * As an array: the array form element by element; the object form its
 * positions up to the first not (yet) present, then, all there, `rest`'s elements.
 */
function partialTuple(node: TupleNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  const n = node.positions.length;
  const out = (memo.value as unknown[] | undefined) ?? [];
  const nodeAt = (i: number): Node | undefined => (i < n ? node.positions[i]!.node : node.rest);
  if (node.form === "array") {
    if (!Array.isArray(wire)) return ABSENT;
    partialElements(out, wire, 0, nodeAt, ctx, memo);
    return out;
  }
  if (!isPlainObject(wire)) return ABSENT;
  for (let i = 0; i < n; i++) {
    const value = fieldPartial(node.positions[i]!, wire, ctx);
    if (value === ABSENT) return out;
    ctx.put(out, i, value);
  }
  const rest = wire[REST];
  if (node.rest !== undefined && Array.isArray(rest)) partialElements(out, rest, n, node.rest, ctx);
  return out;
}

export const tupleStreamer: ConstructStreamer<TupleNode> = {
  kind: "tuple",
  partial: partialTuple,
};
