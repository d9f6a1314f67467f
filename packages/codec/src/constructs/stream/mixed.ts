/** A mixed object's partial: its declared fields, then its entries (the construct is ../mixed.ts). */

import type { MixedNode } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import { newFieldsRead, type PartialContext, type PartialMemo } from "./context.js";
import { entriesPartial } from "./map.js";
import { fieldsPartial } from "./object.js";

/** The declared members as its `fields` show them, then the entries as they complete. */
function partialMixed(node: MixedNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!isPlainObject(wire)) return ABSENT;
  const out = (memo.value as Record<string, unknown> | undefined) ?? {};
  memo.fields ??= newFieldsRead();
  if (isPlainObject(wire.fields)) fieldsPartial(node.fields, wire.fields, out, ctx, memo.fields);
  entriesPartial(node.value, wire.entries, out, memo, ctx);
  return out;
}

export const mixedStreamer: ConstructStreamer<MixedNode> = {
  kind: "mixed",
  partial: partialMixed,
};
