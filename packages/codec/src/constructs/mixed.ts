/**
 * Objects with declared members and dynamic ones: {"fields": {...closed},
 * "entries": [...]}. An entry may not shadow a declared field, so each member
 * has exactly one place to travel.
 */

import type { MixedNode } from "../ir/nodes.js";
import { isPlainObject, type JsonObject } from "../json.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext, type WireContext } from "./context.js";
import { decodeEntries, encodeEntries, entriesWire } from "./map.js";
import { decodeFields, encodeFields, fieldsWire } from "./object.js";

export function mixedWire(node: MixedNode, wctx: WireContext): JsonObject {
  return {
    ...node.schema,
    type: "object",
    properties: { fields: fieldsWire(node.fields, wctx), entries: entriesWire(node.key, node.value, wctx) },
    required: ["fields", "entries"],
    additionalProperties: false,
  };
}

const declaredNames = new WeakMap<MixedNode, ReadonlySet<string>>();

function declared(node: MixedNode): ReadonlySet<string> {
  let names = declaredNames.get(node);
  if (names === undefined) {
    names = new Set(node.fields.map((f) => f.name));
    declaredNames.set(node, names);
  }
  return names;
}

export function encodeMixed(node: MixedNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!isPlainObject(value)) return failAt(ctx, "invalid-value", "expected an object");
  const names = declared(node);
  const fields: Record<string, unknown> = {};
  if (!encodeFields(node.fields, value, fields, ctx)) return FAIL;
  const entries = encodeEntries(
    node.value,
    value,
    Object.keys(value).filter((k) => !names.has(k)),
    ctx,
  );
  if (entries === FAIL) return FAIL;
  return { fields, entries };
}

export function decodeMixed(node: MixedNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  if (
    !isPlainObject(wire) ||
    !isPlainObject(wire.fields) ||
    Object.keys(wire).length !== 2 ||
    !Object.hasOwn(wire, "entries")
  ) {
    return failAt(ctx, "wire-violation", 'expected {"fields": {...}, "entries": [...]}');
  }
  const out: Record<string, unknown> = {};
  if (!decodeFields(node.fields, wire.fields, out, ctx)) return FAIL;
  return decodeEntries(node.value, wire.entries, out, declared(node), ctx) ? out : FAIL;
}
