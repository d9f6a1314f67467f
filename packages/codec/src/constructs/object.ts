/** Closed objects: only declared members travel, each in its own (presence-aware) form. */

import { fieldChild } from "../ir/children.js";
import type { Field, ObjectNode } from "../ir/nodes.js";
import { isPlainObject, setOwn } from "../json.js";
import type { Construct } from "./construct.js";
import { ABSENT, type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";
import { decodeField, encodeField, fieldStep } from "./presence.js";

/** Encode the declared members of `value` into `out`. */
export function encodeFields(
  fields: readonly Field[],
  value: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: EncodeContext,
): boolean {
  for (const f of fields) {
    const has = Object.hasOwn(value, f.name);
    const wire = encodeField(f, has, has ? value[f.name] : undefined, ctx);
    if (wire === FAIL) return false;
    if (wire !== ABSENT) setOwn(out, f.name, wire);
  }
  return true;
}

/** Decode declared members from a wire object into `out`; undeclared wire members are violations. */
export function decodeFields(
  fields: readonly Field[],
  wire: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: WalkContext,
): boolean {
  let seen = 0;
  for (const f of fields) {
    const has = Object.hasOwn(wire, f.name);
    if (has) seen++;
    const value = decodeField(f, has, has ? wire[f.name] : undefined, ctx);
    if (value === FAIL) return false;
    if (value !== ABSENT) setOwn(out, f.name, value);
  }
  if (seen !== Object.keys(wire).length) {
    const declared = new Set(fields.map((f) => f.name));
    const extra = Object.keys(wire).find((k) => !declared.has(k)) ?? "";
    failAt(ctx, "wire-violation", "not declared, and the wire schema forbids extra members", extra);
    return false;
  }
  return true;
}

function encodeObject(node: ObjectNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!isPlainObject(value)) return failAt(ctx, "invalid-value", "expected an object");
  if (Object.keys(value).length > node.fields.length || !allDeclared(node.fields, value)) {
    const declared = new Set(node.fields.map((f) => f.name));
    const extra = Object.keys(value).find((k) => !declared.has(k)) ?? "";
    return failAt(ctx, "undeclared-member", undeclaredMessage(ctx), extra);
  }
  const out: Record<string, unknown> = {};
  return encodeFields(node.fields, value, out, ctx) ? out : FAIL;
}

/** preserve is advice only where it would help: with it set, the schema itself closed this object. */
function undeclaredMessage(ctx: EncodeContext): string {
  return ctx.openObjects === "preserve"
    ? "this member is not declared in the schema, and the schema closes this object (additionalProperties or unevaluatedProperties), so it cannot travel"
    : 'this member is not declared in the schema; with openObjects "close" only declared members travel (compile with openObjects "preserve" to carry it)';
}

function allDeclared(fields: readonly Field[], value: Record<string, unknown>): boolean {
  let present = 0;
  for (const f of fields) if (Object.hasOwn(value, f.name)) present++;
  return present === Object.keys(value).length;
}

function decodeObject(node: ObjectNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  if (!isPlainObject(wire)) return failAt(ctx, "wire-violation", "expected an object");
  const out: Record<string, unknown> = {};
  return decodeFields(node.fields, wire, out, ctx) ? out : FAIL;
}

export const object: Construct<ObjectNode> = {
  kind: "object",
  children: (node) => node.fields.map(fieldChild),
  encode: encodeObject,
  decode: decodeObject,
  wireTypes: () => ["object"],
  identity: (node, defs, walk) => node.fields.every((f) => !f.optional && walk.identity(f.node, defs)),
  wireStep: (node, { tokens, i, value }) => fieldStep(node.fields, tokens, i, value),
  namesMembers: () => true,
  bare: true,
};
