/**
 * Optional members. The wire must say "absent" and "present with this value"
 * as two different things, because "leave unchanged" (absent) and "clear"
 * (null) are different operations:
 * - tagged:  {"state":"absent"} | {"state":"present","value": W}
 * - compact: W | null, null meaning absent; only where the member itself can never be null
 * - native:  the member may be left out (targets whose strict mode allows optional members)
 */

import type { Field } from "../ir/nodes.js";
import { isPlainObject, type JsonObject } from "../json.js";
import type { PathStep } from "./construct.js";
import {
  ABSENT,
  type Absent,
  type EncodeContext,
  FAIL,
  type Fail,
  failAt,
  type WalkContext,
  type WireContext,
} from "./context.js";
import { decodeNode, encodeNode, wireOf } from "./registry.js";

export const ABSENT_DEF = "strictwire_absent";

const ABSENT_SCHEMA: JsonObject = {
  type: "object",
  properties: { state: { type: "string", const: "absent" } },
  required: ["state"],
  additionalProperties: false,
};

/** Whether the member must be listed in the wire object's `required`. */
export function wireRequired(field: Field): boolean {
  return !field.optional || field.presence !== "native";
}

export function fieldWire(field: Field, wctx: WireContext): JsonObject {
  const child = wireOf(field.node, wctx);
  const annotations = field.annotations ?? {};
  if (!field.optional || field.presence === "native") return withAnnotations(child, annotations);
  // The member's description goes on the wrapper, where the model reads it, and only there.
  const inner = withoutDescription(child, annotations);
  if (field.presence === "compact") return { ...annotations, anyOf: [inner, { type: "null" }] };
  wctx.extraDefs[ABSENT_DEF] = ABSENT_SCHEMA;
  return {
    ...annotations,
    anyOf: [
      { $ref: `#/$defs/${ABSENT_DEF}` },
      {
        type: "object",
        properties: { state: { type: "string", const: "present" }, value: inner },
        required: ["state", "value"],
        additionalProperties: false,
      },
    ],
  };
}

function withoutDescription(child: JsonObject, annotations: JsonObject): JsonObject {
  if (annotations.description === undefined || child.description !== annotations.description) return child;
  const { description: _moved, ...rest } = child;
  return rest;
}

function withAnnotations(child: JsonObject, annotations: JsonObject): JsonObject {
  if (annotations.description === undefined || child.description !== undefined) return child;
  return { ...annotations, ...child };
}

/** Encode one member; `has` says whether the original value has it. */
export function encodeField(field: Field, has: boolean, value: unknown, ctx: EncodeContext): unknown | Absent | Fail {
  if (!field.optional) {
    if (!has) return failAt(ctx, "invalid-value", "required and missing", field.name);
    return encodeChild(field, value, ctx);
  }
  if (!has) {
    if (field.presence === "native") return ABSENT;
    return field.presence === "compact" ? null : { state: "absent" };
  }
  const child = encodeChild(field, value, ctx);
  if (child === FAIL || field.presence !== "tagged") return child;
  return { state: "present", value: child };
}

function encodeChild(field: Field, value: unknown, ctx: EncodeContext): unknown | Fail {
  ctx.path.push(field.name);
  const out = encodeNode(field.node, value, ctx);
  ctx.path.pop();
  return out;
}

/** Decode one member from its wire form; `has` says whether the wire object has it. */
export function decodeField(field: Field, has: boolean, wire: unknown, ctx: WalkContext): unknown | Absent | Fail {
  if (!field.optional) {
    if (!has) return failAt(ctx, "wire-violation", "required and missing", field.name);
    return decodeChild(field, wire, ctx);
  }
  switch (field.presence) {
    case "native":
      return has ? decodeChild(field, wire, ctx) : ABSENT;
    case "compact":
      if (!has) return failAt(ctx, "wire-violation", "required and missing (null means absent)", field.name);
      return wire === null ? ABSENT : decodeChild(field, wire, ctx);
    default:
      return decodeTagged(field, has, wire, ctx);
  }
}

function decodeTagged(field: Field, has: boolean, wire: unknown, ctx: WalkContext): unknown | Absent | Fail {
  if (!has || typeof wire !== "object" || wire === null || Array.isArray(wire)) {
    return failAt(ctx, "wire-violation", 'expected {"state":"absent"} or {"state":"present","value":...}', field.name);
  }
  const tag = wire as Record<string, unknown>;
  if (tag.state === "absent" && Object.keys(tag).length === 1) return ABSENT;
  if (tag.state === "present" && Object.hasOwn(tag, "value") && Object.keys(tag).length === 2) {
    return decodeChild(field, tag.value, ctx);
  }
  return failAt(ctx, "wire-violation", 'expected {"state":"absent"} or {"state":"present","value":...}', field.name);
}

function decodeChild(field: Field, wire: unknown, ctx: WalkContext): unknown | Fail {
  ctx.path.push(field.name);
  const out = decodeNode(field.node, wire, ctx);
  ctx.path.pop();
  return out;
}

/** A wire pointer step into member `tokens[i]`: a tagged member's value sits one token deeper. */
export function fieldStep(
  fields: readonly Field[],
  tokens: readonly string[],
  i: number,
  value: unknown,
): PathStep | undefined {
  const name = tokens[i];
  const field = fields.find((f) => f.name === name);
  if (field === undefined || name === undefined) return undefined;
  let member = isPlainObject(value) ? value[name] : undefined;
  let next = i + 1;
  if (field.optional && field.presence === "tagged") {
    if (tokens[next] !== "value") return { token: name, node: field.node, value: undefined, next: tokens.length };
    member = isPlainObject(member) ? member.value : undefined;
    next++;
  }
  return { token: name, node: field.node, value: member, next };
}
