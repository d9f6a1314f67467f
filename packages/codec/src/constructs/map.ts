/**
 * Typed maps: dynamic member names cannot be declared in a closed object, so
 * members travel as an array of {key, value} entries. A key may appear once.
 */

import type { KeySchema, MapNode, Node } from "../ir/nodes.js";
import { isPlainObject, type JsonObject, setOwn } from "../json.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext, type WireContext } from "./context.js";
import { decodeNode, encodeNode, wireOf } from "./dispatch.js";

export function entriesWire(key: KeySchema, value: Node, wctx: WireContext): JsonObject {
  return {
    type: "array",
    items: {
      type: "object",
      properties: { key: { ...key }, value: wireOf(value, wctx) },
      required: ["key", "value"],
      additionalProperties: false,
    },
  };
}

export function mapWire(node: MapNode, wctx: WireContext): JsonObject {
  return { ...entriesWire(node.key, node.value, wctx), ...node.schema };
}

/** Encode the members named by `keys` as entries. */
export function encodeEntries(
  value: Node,
  source: Record<string, unknown>,
  keys: readonly string[],
  ctx: EncodeContext,
): unknown[] | Fail {
  const out = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    ctx.path.push(key);
    const wire = encodeNode(value, source[key], ctx);
    ctx.path.pop();
    if (wire === FAIL) return FAIL;
    out[i] = { key, value: wire };
  }
  return out;
}

/**
 * Decode entries into `out`. A repeated key is `duplicate-entry`; a key that
 * names a declared field (`fields`) is `entry-shadows-field`.
 */
export function decodeEntries(
  value: Node,
  wire: unknown,
  out: Record<string, unknown>,
  fields: ReadonlySet<string> | undefined,
  ctx: WalkContext,
): boolean {
  if (!Array.isArray(wire)) {
    failAt(ctx, "wire-violation", "expected an array of {key, value} entries");
    return false;
  }
  const seen = new Set<string>();
  for (let i = 0; i < wire.length; i++) {
    const entry = wire[i];
    if (
      !isPlainObject(entry) ||
      typeof entry.key !== "string" ||
      !Object.hasOwn(entry, "value") ||
      Object.keys(entry).length !== 2
    ) {
      failAt(ctx, "wire-violation", `entry ${i} must be {"key": string, "value": ...}`);
      return false;
    }
    const key = entry.key;
    if (fields?.has(key)) {
      failAt(
        ctx,
        "entry-shadows-field",
        `the entry key ${JSON.stringify(key)} names a declared field; set it in "fields" instead`,
        key,
      );
      return false;
    }
    if (seen.has(key)) {
      failAt(ctx, "duplicate-entry", `the key ${JSON.stringify(key)} appears in more than one entry`, key);
      return false;
    }
    seen.add(key);
    ctx.path.push(key);
    const decoded = decodeNode(value, entry.value, ctx);
    ctx.path.pop();
    if (decoded === FAIL) return false;
    setOwn(out, key, decoded);
  }
  return true;
}

export function encodeMap(node: MapNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!isPlainObject(value)) return failAt(ctx, "invalid-value", "expected an object");
  return encodeEntries(node.value, value, Object.keys(value), ctx);
}

export function decodeMap(node: MapNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  const out: Record<string, unknown> = {};
  return decodeEntries(node.value, wire, out, undefined, ctx) ? out : FAIL;
}
