/** Arrays keep their shape; each element travels in its item's wire form. */

import type { ArrayNode } from "../ir/nodes.js";
import type { JsonObject } from "../json.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext, type WireContext } from "./context.js";
import { decodeNode, encodeNode, wireOf } from "./dispatch.js";

export function arrayWire(node: ArrayNode, wctx: WireContext): JsonObject {
  return { type: "array", items: wireOf(node.items, wctx), ...node.schema };
}

export function encodeArray(node: ArrayNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!Array.isArray(value)) return failAt(ctx, "invalid-value", "expected an array");
  const out = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    ctx.path.push(i);
    const item = encodeNode(node.items, value[i], ctx);
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
    const item = decodeNode(node.items, wire[i], ctx);
    ctx.path.pop();
    if (item === FAIL) return FAIL;
    out[i] = item;
  }
  return out;
}
