/** A map's partial: its entries as members, each once its key is complete (the construct is ../map.ts). */

import type { MapNode, Node } from "../../ir/nodes.js";
import { isPlainObject } from "../../json.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";

/**
 * Shows entries as members of `out`: each once its key is complete and its
 * value has started (the entry being written shows its value so far).
 * `memo.read` counts the complete entries already shown, which are not read again.
 */
export function entriesPartial(
  value: Node,
  entries: unknown,
  out: Record<string, unknown>,
  memo: PartialMemo,
  ctx: PartialContext,
): void {
  if (!Array.isArray(entries)) return;
  memo.keys ??= new Set();
  for (let i = memo.read; i < entries.length; i++) {
    const entry = entries[i];
    if (!isPlainObject(entry)) return;
    const key = entry.key;
    const keyed = typeof key === "string" && ctx.complete(key, entry, "key");
    if (keyed && memo.keys.has(key)) {
      // The first entry's value stays shown; decode refuses the text.
      ctx.repeatedKey(entries, i);
      return;
    }
    if (keyed && Object.hasOwn(entry, "value")) {
      const shown = ctx.child(value, entry.value, entry, "value");
      if (shown !== ABSENT) ctx.put(out, key, shown);
    }
    if (!ctx.complete(entry)) return;
    if (keyed) memo.keys.add(key);
    memo.read = i + 1;
    ctx.passed(entry.value);
  }
}

function partialMap(node: MapNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  if (!Array.isArray(wire)) return ABSENT;
  const out = (memo.value as Record<string, unknown> | undefined) ?? {};
  entriesPartial(node.value, wire, out, memo, ctx);
  return out;
}

export const mapStreamer: ConstructStreamer<MapNode> = {
  kind: "map",
  partial: partialMap,
};
