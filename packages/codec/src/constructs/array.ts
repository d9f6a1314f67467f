/** Arrays keep their shape; each element travels in its item's wire form. */

import type { ArrayNode } from "../ir/nodes.js";
import type { Construct } from "./construct.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";

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
};
