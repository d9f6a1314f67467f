/** A closed object's partial: its declared members as they are written (the construct is ../object.ts). */

import type { Field, ObjectNode } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import { type FieldsRead, newFieldsRead, type PartialContext, type PartialMemo } from "./context.js";
import { fieldPartial } from "./presence.js";

/**
 * Shows the declared members of a wire object written so far in `out`
 * (undeclared ones are not shown). A member written to its end shows its
 * final value: marked settled, it is not read again. While the object is
 * open, every member placed before the last read is settled but the one then
 * being written, so a read looks at that one and at the members placed since
 * (found from the first unsettled one on): a push costs the members it
 * changed, not the object's width, when the members come in declared order.
 */
export function fieldsPartial(
  fields: readonly Field[],
  wire: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: PartialContext,
  read: FieldsRead,
): void {
  const placed = ctx.placed(wire);
  const open = read.open;
  read.open = -1;
  if (placed !== undefined && open >= 0) readField(fields, open, wire, out, ctx, read);
  // Members placed that no read has found yet (undeclared ones counted too: then every field is looked at).
  let fresh = placed === undefined ? fields.length : placed - read.found;
  for (let i = read.from; i < fields.length && fresh > 0; i++) {
    if (read.settled[i] === true || (placed !== undefined && i === open)) continue;
    if (!Object.hasOwn(wire, fields[i]!.name)) continue;
    if (i !== open) {
      read.found++;
      fresh--;
    }
    readField(fields, i, wire, out, ctx, read);
  }
  while (read.from < fields.length && read.settled[read.from] === true) read.from++;
}

/** Shows member i; settled if written to its end, else the one being written. */
function readField(
  fields: readonly Field[],
  i: number,
  wire: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: PartialContext,
  read: FieldsRead,
): void {
  const f = fields[i]!;
  const value = fieldPartial(f, wire, ctx);
  if (value !== ABSENT) ctx.put(out, f.name, value);
  if (ctx.complete(wire[f.name], wire, f.name)) {
    read.settled[i] = true;
    ctx.passed(wire[f.name]);
  } else {
    // Only the member being written is open; one that stops being so unsettled is found (and counted) again.
    if (read.open >= 0 && read.open !== i && read.settled[read.open] !== true) read.found--;
    read.open = i;
  }
}

function partialObject(node: ObjectNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!isPlainObject(wire)) return ABSENT;
  const out = (memo.value as Record<string, unknown> | undefined) ?? {};
  memo.fields ??= newFieldsRead();
  fieldsPartial(node.fields, wire, out, ctx, memo.fields);
  return out;
}

export const objectStreamer: ConstructStreamer<ObjectNode> = {
  kind: "object",
  partial: partialObject,
};
