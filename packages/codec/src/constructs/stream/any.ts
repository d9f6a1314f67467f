/** Any JSON value's partial: arrays element by element, objects entry by entry (the construct is ../any.ts). */

import type { AnyNode } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import { partialElements } from "./array.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";
import { entriesPartial } from "./map.js";

/** Arrays element by element, objects as their entries complete, anything else as itself. */
function partialAny(node: AnyNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (Array.isArray(wire)) {
    const out = (memo.value as unknown[] | undefined) ?? [];
    partialElements(out, wire, 0, node, ctx, memo);
    return out;
  }
  if (isPlainObject(wire)) {
    const out = (memo.value as Record<string, unknown> | undefined) ?? {};
    entriesPartial(node, wire.entries, out, memo, ctx);
    return out;
  }
  return wire === undefined ? ABSENT : wire;
}

export const anyStreamer: ConstructStreamer<AnyNode> = {
  kind: "any",
  partial: partialAny,
};
