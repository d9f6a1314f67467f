/**
 * An optional member's partial, in each presence form: nothing while its tag
 * does not yet say present (the forms are ../presence.ts).
 */

import type { Field } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT, type Absent } from "../context.js";
import { minimal } from "../presence.js";
import type { PartialContext } from "./context.js";

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
