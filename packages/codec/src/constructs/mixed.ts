/**
 * Objects with declared members and dynamic ones: {"fields": {...closed},
 * "entries": [...]}. An entry may not shadow a declared field, so each member
 * has exactly one place to travel.
 */

import { fieldChild } from "../ir/children.js";
import type { MixedNode } from "../ir/nodes.js";
import { isPlainObject } from "../json.js";
import type { Construct } from "./construct.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";
import { decodeEntries, encodeEntries, entryStep } from "./map.js";
import { decodeFields, encodeFields } from "./object.js";
import { fieldStep } from "./presence.js";

const declaredNames = new WeakMap<MixedNode, ReadonlySet<string>>();

function declared(node: MixedNode): ReadonlySet<string> {
  let names = declaredNames.get(node);
  if (names === undefined) {
    names = new Set(node.fields.map((f) => f.name));
    declaredNames.set(node, names);
  }
  return names;
}

function encodeMixed(node: MixedNode, value: unknown, ctx: EncodeContext): unknown | Fail {
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

function decodeMixed(node: MixedNode, wire: unknown, ctx: WalkContext): unknown | Fail {
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

export const mixed: Construct<MixedNode> = {
  kind: "mixed",
  children: (node) => [...node.fields.map(fieldChild), { node: node.value, at: "{}" }],
  encode: encodeMixed,
  decode: decodeMixed,
  wireTypes: () => ["object"],
  identity: () => false,
  wireStep(node, { tokens, i, value }) {
    if (tokens[i] === "fields") {
      const fields = isPlainObject(value) ? value.fields : undefined;
      return fieldStep(node.fields, tokens, i + 1, fields);
    }
    const entry = entryStep(isPlainObject(value) ? value.entries : undefined, tokens, i + 1);
    return entry === undefined ? undefined : { ...entry, node: node.value };
  },
  namesMembers: () => true,
  bare: true,
};
