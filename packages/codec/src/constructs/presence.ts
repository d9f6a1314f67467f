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
 * The forms' wire schemas and generated decode are compile/presence.ts; what
 * a member shows while a call streams, stream/presence.ts.
 */

import { onlyNullBeside } from "../ir/inline.js";
import type { Field } from "../ir/nodes.js";
import { isPlainObject } from "../json.js";
import type { WireStep } from "./construct.js";
import { ABSENT, type Absent, type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";

export function minimal(field: Field): boolean {
  return field.tags === "minimal";
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
