/** A closed object's partial: its declared members as they are written (the construct is ../object.ts). */

import type { Field, ObjectNode } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";
import { fieldPartial } from "./presence.js";

/**
 * Shows the declared members of a wire object written so far in `out`
 * (undeclared ones are not shown). A member written to its end shows its
 * final value: marked in `settled` (by field index), it is not read again, so
 * a push costs the members still being written, not the object's width.
 */
export function fieldsPartial(
  fields: readonly Field[],
  wire: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: PartialContext,
  settled: boolean[],
): void {
  for (let i = 0; i < fields.length; i++) {
    if (settled[i] === true) continue;
    const f = fields[i]!;
    if (!Object.hasOwn(wire, f.name)) continue;
    const value = fieldPartial(f, wire, ctx);
    if (value !== ABSENT) ctx.put(out, f.name, value);
    if (ctx.complete(wire[f.name], wire, f.name)) {
      settled[i] = true;
      ctx.passed(wire[f.name]);
    }
  }
}

function partialObject(node: ObjectNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!isPlainObject(wire)) return ABSENT;
  const out = (memo.value as Record<string, unknown> | undefined) ?? {};
  memo.settled ??= [];
  fieldsPartial(node.fields, wire, out, ctx, memo.settled);
  return out;
}

export const objectStreamer: ConstructStreamer<ObjectNode> = {
  kind: "object",
  partial: partialObject,
};
