/**
 * Optional members. The wire must say "absent" and "present with this value"
 * as two different things, because "leave unchanged" (absent) and "clear"
 * (null) are different operations:
 * - tagged:  {"state":"absent"} | {"state":"present","value": W}
 * - inline:  {"state":"absent"} | {"state":"present", ...W's members} (a closed object member: no extra level);
 *            a nullable object's null (any value that is no object) travels as itself beside them
 *            (chosen by the depth budget, ir/depth.ts)
 * - compact: W | null, null meaning absent; only where the member itself can never be null
 * - native:  the member may be left out (targets whose strict mode allows optional members)
 * With `tags: "minimal"` the tags are spelled {} for absent and {"value": W}
 * (inline: W itself) for present; the two still differ by their members.
 */

import { _, type Code, type Name } from "../code.js";
import { inlineObject, onlyNullBeside } from "../ir/inline.js";
import type { Field } from "../ir/nodes.js";
import { isPlainObject, type JsonObject } from "../json.js";
import type { WireStep } from "./construct.js";
import {
  ABSENT,
  type Absent,
  type EncodeContext,
  FAIL,
  type Fail,
  failAt,
  type PartialContext,
  type WalkContext,
  type WireContext,
} from "./context.js";
import { assign, counted, type DecodeGenerator, openObject, readMember } from "./decode-generator.js";

export const ABSENT_DEF = "strictwire_absent";
export const EMPTY_DEF = "strictwire_empty";

const ABSENT_SCHEMA: JsonObject = {
  type: "object",
  properties: { state: { type: "string", const: "absent" } },
  required: ["state"],
  additionalProperties: false,
};

const EMPTY_SCHEMA: JsonObject = { type: "object", properties: {}, required: [], additionalProperties: false };

const PRESENT = { type: "string", const: "present" } as const;

/** Whether the member must be listed in the wire object's `required`. */
export function wireRequired(field: Field): boolean {
  return !field.optional || field.presence !== "native";
}

function minimal(field: Field): boolean {
  return field.tags === "minimal";
}

export function fieldWire(field: Field, wctx: WireContext): JsonObject {
  const child = wctx.walk.wire(field.node, wctx);
  const annotations = field.annotations ?? {};
  if (!field.optional || field.presence === "native") return withAnnotations(child, annotations);
  // The member's description goes on the wrapper, where the model reads it, and only there.
  const inner = withoutDescription(child, annotations);
  if (field.presence === "compact") return { ...annotations, anyOf: [inner, { type: "null" }] };
  // Inline on a union (the plan check holds it to one closed object): a nullable object.
  const object = field.presence === "inline" && field.node.kind === "union" ? inlineObject(field.node) : undefined;
  if (object !== undefined && field.node.kind === "union") {
    // Its other values beside the two tags, the union's own keywords on the wrapper.
    const { anyOf: _branches, ...keywords } = inner;
    const objectWire = withoutDescription(wctx.walk.wire(object, wctx), annotations);
    const beside = field.node.branches.filter((b) => b !== object).map((b) => wctx.walk.wire(b, wctx));
    return { ...annotations, ...keywords, anyOf: [absentRef(field, wctx), presentWire(field, objectWire), ...beside] };
  }
  return { ...annotations, anyOf: [absentRef(field, wctx), presentWire(field, inner)] };
}

function absentRef(field: Field, wctx: WireContext): JsonObject {
  if (minimal(field)) {
    wctx.extraDefs[EMPTY_DEF] = EMPTY_SCHEMA;
    return { $ref: `#/$defs/${EMPTY_DEF}` };
  }
  wctx.extraDefs[ABSENT_DEF] = ABSENT_SCHEMA;
  return { $ref: `#/$defs/${ABSENT_DEF}` };
}

function presentWire(field: Field, inner: JsonObject): JsonObject {
  if (field.presence === "inline") {
    if (minimal(field)) return inner;
    const properties = inner.properties as JsonObject;
    const required = inner.required as string[];
    return { ...inner, properties: { state: PRESENT, ...properties }, required: ["state", ...required] };
  }
  if (minimal(field)) {
    return { type: "object", properties: { value: inner }, required: ["value"], additionalProperties: false };
  }
  return {
    type: "object",
    properties: { state: PRESENT, value: inner },
    required: ["state", "value"],
    additionalProperties: false,
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
    if (field.presence === "compact") return null;
    return minimal(field) ? {} : { state: "absent" };
  }
  const child = encodeChild(field, value, ctx);
  if (child === FAIL || field.presence === "native" || field.presence === "compact") return child;
  if (field.presence === "inline") {
    // A nullable object's null (any value that is no object) is written as itself.
    if (!isPlainObject(child)) return child;
    return minimal(field) ? child : { state: "present", ...(child as object) };
  }
  return minimal(field) ? { value: child } : { state: "present", value: child };
}

function encodeChild(field: Field, value: unknown, ctx: EncodeContext): unknown | Fail {
  ctx.path.push(field.name);
  const out = ctx.walk.encode(field.node, value, ctx);
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

/** The two forms a malformed tag is told about. */
export function tagForms(field: Field): string {
  if (field.presence === "inline") {
    const orNull =
      field.node.kind !== "union" ? "" : onlyNullBeside(field.node) ? ", or null" : ", or a value that is no object";
    return minimal(field)
      ? `expected {} (absent) or the object with its members (present)${orNull}`
      : `expected {"state":"absent"} or {"state":"present", ...the object's members}${orNull}`;
  }
  return minimal(field)
    ? 'expected {} (absent) or {"value":...} (present)'
    : 'expected {"state":"absent"} or {"state":"present","value":...}';
}

function decodeTagged(field: Field, has: boolean, wire: unknown, ctx: WalkContext): unknown | Absent | Fail {
  // An inline nullable object's null, or another value that is no object: the member's own value.
  if (field.presence === "inline" && field.node.kind === "union" && has && !isPlainObject(wire)) {
    return decodeChild(field, wire, ctx);
  }
  if (!has || !isPlainObject(wire)) return failAt(ctx, "wire-violation", tagForms(field), field.name);
  const count = Object.keys(wire).length;
  if (minimal(field)) {
    if (count === 0) return ABSENT;
    if (field.presence === "inline") return decodeChild(field, wire, ctx);
    if (count === 1 && Object.hasOwn(wire, "value")) return decodeChild(field, wire.value, ctx);
  } else if (wire.state === "absent" && count === 1) {
    return ABSENT;
  } else if (wire.state === "present") {
    if (field.presence === "inline") {
      // Own data members only (the parser makes no others): `__proto__` among them stays data.
      const { state: _tag, ...members } = wire;
      return decodeChild(field, members, ctx);
    }
    if (count === 2 && Object.hasOwn(wire, "value")) return decodeChild(field, wire.value, ctx);
  }
  return failAt(ctx, "wire-violation", tagForms(field), field.name);
}

function decodeChild(field: Field, wire: unknown, ctx: WalkContext): unknown | Fail {
  ctx.path.push(field.name);
  const out = ctx.walk.decode(field.node, wire, ctx);
  ctx.path.pop();
  return out;
}

/**
 * The partial of one member of the wire object `wire`: ABSENT while its tag
 * is not yet known to say present (or says absent), else its value so far.
 */
export function fieldPartial(field: Field, wire: Record<string, unknown>, ctx: PartialContext): unknown | Absent {
  if (!Object.hasOwn(wire, field.name)) return ABSENT;
  const member = wire[field.name];
  const name = field.name;
  if (!field.optional || field.presence === "native") return ctx.child(field.node, member, wire, name);
  if (field.presence === "compact") return member === null ? ABSENT : ctx.child(field.node, member, wire, name);
  const inline = field.presence === "inline";
  // An inline nullable object's null (any value that is no object) is the member's own value.
  if (inline && field.node.kind === "union" && !isPlainObject(member)) return ctx.child(field.node, member, wire, name);
  if (!isPlainObject(member)) return ABSENT;
  if (minimal(field)) {
    if (inline) return Object.keys(member).length === 0 ? ABSENT : ctx.child(field.node, member);
    return Object.hasOwn(member, "value") ? ctx.child(field.node, member.value, member, "value") : ABSENT;
  }
  // "present" only once its string is complete ("presentx" is no tag).
  if (member.state !== "present" || !ctx.complete(member.state, member, "state")) return ABSENT;
  // Inline: the object's own members sit beside the tag; its partial reads only declared ones.
  if (inline) return ctx.child(field.node, member);
  return Object.hasOwn(member, "value") ? ctx.child(field.node, member.value, member, "value") : ABSENT;
}

/**
 * A wire pointer step into member `tokens[i]`: a tagged member's value sits
 * one token deeper (`value`); an inline one's members sit beside its tag.
 */
export function fieldStep(
  fields: readonly Field[],
  tokens: readonly string[],
  i: number,
  value: unknown,
): WireStep | undefined {
  const name = tokens[i];
  const field = fields.find((f) => f.name === name);
  if (field === undefined || name === undefined) return undefined;
  let member = isPlainObject(value) ? value[name] : undefined;
  let next = i + 1;
  if (field.optional && field.presence === "tagged") {
    if (tokens[next] !== "value") return { step: name, node: field.node, value: undefined, next: tokens.length };
    member = isPlainObject(member) ? member.value : undefined;
    next++;
  } else if (field.optional && field.presence === "inline" && !minimal(field) && tokens[next] === "state") {
    return { step: name, node: field.node, value: undefined, next: tokens.length };
  }
  return { step: name, node: field.node, value: member, next };
}

/**
 * The generated decode of one member of the object `w` (depth `d`) into
 * `into`, counting it in `seen`: the same forms `decodeField` accepts, each
 * tag checked as the parser checks a container.
 */
export function generateFieldDecode(field: Field, e: DecodeGenerator, into: Name, seen: Name): Code {
  const child = e.fn(field.node);
  const t = e.local("t");
  const decoded = (value: Code | Name, depth: Code): Code => {
    const v = e.local("v");
    return _`{ const ${v} = ${child}(${value}, ${depth}, s); if (${v} === F) return F; ${assign(into, field.name, v)} }`;
  };
  const member = _`${readMember(_`w`, field.name, t)}\n${seen}++;`;
  const deeper = _`d + 1`;
  if (!field.optional) return _`{ ${member}\n${decoded(t, deeper)} }`;
  switch (field.presence) {
    case "native":
      return _`if (H(w, ${field.name})) { ${seen}++; ${decoded(_`w[${field.name}]`, deeper)} }`;
    case "compact":
      return _`{ ${member}\nif (${t} !== null) ${decoded(t, deeper)} }`;
    case "inline": {
      const object = inlineObject(field.node);
      if (object === undefined) throw new Error("strictwire: inline presence on a member that is no object");
      // A nullable object's null (any value that is no object) is the member's own value.
      const nullable =
        object === field.node
          ? _``
          : _`if (typeof ${t} !== "object" || ${t} === null || A(${t})) ${decoded(t, deeper)} else `;
      if (minimal(field)) {
        // Absent is {}: the one form that needs a look for any member at all.
        const [empty, any] = [e.local("empty"), e.local("member")];
        return _`{ ${member}\n${nullable}{ if (typeof ${t} !== "object" || ${t} === null || A(${t})) return F;
let ${empty} = true;
for (const ${any} in ${t}) { ${empty} = false; break; }
if (${empty}) { if (d + 1 > s.maxDepth) return F; } else ${decoded(t, deeper)} } }`;
      }
      const v = e.local("v");
      return _`{ ${member}\n${nullable}{ if (typeof ${t} !== "object" || ${t} === null || A(${t})) return F;
if (${t}.state === "absent") {
if (d + 1 > s.maxDepth) return F;
${counted(1)}
} else { const ${v} = ${e.inlineFn(object)}(${t}, d + 1, s); if (${v} === F) return F; ${assign(into, field.name, v)} } } }`;
    }
    default: {
      // Members read are counted; any other member fails the text's member count.
      if (minimal(field)) {
        return _`{ ${member}\n${openObject(t, deeper)}
if (${t}.value !== undefined) { ${counted(1)} ${decoded(_`${t}.value`, _`d + 2`)} } }`;
      }
      return _`{ ${member}\n${openObject(t, deeper)}
if (${t}.state === "present" && ${t}.value !== undefined) { ${counted(2)} ${decoded(_`${t}.value`, _`d + 2`)} }
else if (${t}.state === "absent") { ${counted(1)} }
else return F; }`;
    }
  }
}
