/**
 * Objects with declared members and dynamic ones: {"fields": {...closed},
 * "entries": [...]}. An entry may not shadow a declared field, so each member
 * has exactly one place to travel.
 */

import { _, type Code, join, type Name } from "../code.js";
import { fieldChild, mapField } from "../ir/children.js";
import { type MixedNode, mixedShape } from "../ir/nodes.js";
import { isPlainObject, type JsonObject } from "../json.js";
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
  type WireContext,
} from "./context.js";
import { counted, type DecodeGenerator, generateEntries, openObject } from "./decode-generator.js";
import { decodeEntries, encodeEntries, entriesPartial, entriesWire, entryStep } from "./map.js";
import { decodeFields, encodeFields, fieldsPartial, fieldsWire } from "./object.js";
import { fieldStep } from "./presence.js";

function mixedWire(node: MixedNode, wctx: WireContext): JsonObject {
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

/** The declared members as its `fields` show them, then the entries as they complete. */
function partialMixed(node: MixedNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!isPlainObject(wire)) return ABSENT;
  const out = (memo.value as Record<string, unknown> | undefined) ?? {};
  memo.settled ??= [];
  if (isPlainObject(wire.fields)) fieldsPartial(node.fields, wire.fields, out, ctx, memo.settled);
  entriesPartial(node.value, wire.entries, out, memo, ctx);
  return out;
}

/**
 * The generated decode of {fields, entries}: the fields as a closed object
 * (its own function), then the entries, none naming a declared field or
 * repeating a key.
 */
function generateMixedDecode(node: MixedNode, e: DecodeGenerator): Code {
  const fields = e.fn({ kind: "object", fields: node.fields, schema: {} });
  const [fw, ew, o] = [e.local("fields"), e.local("entries"), e.local("o")];
  const declared = (key: Code | Name): Code =>
    node.fields.length === 0
      ? _`false`
      : join(
          node.fields.map((f) => _`${key} === ${f.name}`),
          _` || `,
        );
  return _`${openObject(_`w`, _`d`)}
const ${fw} = w.fields, ${ew} = w.entries;
if (${fw} === undefined || ${ew} === undefined || !A(${ew}) || d + 1 > s.maxDepth) return F;
${counted(2)}
const ${o} = ${fields}(${fw}, d + 1, s);
if (${o} === F) return F;
${generateEntries(e, node.value, ew, _`d + 1`, o, declared)}
return ${o};`;
}

export const mixed: Construct<MixedNode> = {
  generateDecode: generateMixedDecode,
  levels: () => 2,
  kind: "mixed",
  children: (node) => [...node.fields.map(fieldChild), { node: node.value, at: "{}" }],
  mapChildren(node, f) {
    const fields = node.fields.map((field) => mapField(field, f));
    const value = f({ node: node.value, at: "{}" }).node;
    if (value === node.value && fields.every((field, i) => field === node.fields[i])) return node;
    return { ...node, fields, value };
  },
  wire: mixedWire,
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
  check: mixedShape.check,
  describe: (node) => ({ type: "object + map", travels: "{fields, entries}", extra: { key: node.key } }),
  tsType: (node, ctx) => ({ text: ctx.objectBody(node.fields, node.value), union: false, body: true }),
  partial: partialMixed,
};
