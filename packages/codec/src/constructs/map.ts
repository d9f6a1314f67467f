/**
 * Typed maps: dynamic member names cannot be declared in a closed object, so
 * members travel as an array of {key, value} entries. A key may appear once.
 */

import { type MapNode, mapShape, type Node } from "../ir/nodes.js";
import { isPlainObject, setOwn } from "../json.js";
import type { Construct, WireStep } from "./construct.js";
import {
  ABSENT,
  type EncodeContext,
  FAIL,
  type Fail,
  failAt,
  type PartialContext,
  type PartialMemo,
  type WalkContext,
} from "./context.js";

/** Encode the members named by `keys` as entries. */
export function encodeEntries(
  value: Node,
  source: Record<string, unknown>,
  keys: readonly string[],
  ctx: EncodeContext,
): unknown[] | Fail {
  const out = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    ctx.path.push(key);
    const wire = ctx.walk.encode(value, source[key], ctx);
    ctx.path.pop();
    if (wire === FAIL) return FAIL;
    out[i] = { key, value: wire };
  }
  return out;
}

/**
 * Decode entries into `out`. A repeated key is `duplicate-entry`; a key that
 * names a declared field (`fields`) is `entry-shadows-field`.
 */
export function decodeEntries(
  value: Node,
  wire: unknown,
  out: Record<string, unknown>,
  fields: ReadonlySet<string> | undefined,
  ctx: WalkContext,
): boolean {
  if (!Array.isArray(wire)) {
    failAt(ctx, "wire-violation", "expected an array of {key, value} entries");
    return false;
  }
  const seen = new Set<string>();
  for (let i = 0; i < wire.length; i++) {
    const entry = wire[i];
    if (
      !isPlainObject(entry) ||
      typeof entry.key !== "string" ||
      !Object.hasOwn(entry, "value") ||
      Object.keys(entry).length !== 2
    ) {
      failAt(ctx, "wire-violation", `entry ${i} must be {"key": string, "value": ...}`);
      return false;
    }
    const key = entry.key;
    if (fields?.has(key)) {
      failAt(
        ctx,
        "entry-shadows-field",
        `the entry key ${JSON.stringify(key)} names a declared field; set it in "fields" instead`,
        key,
      );
      return false;
    }
    if (seen.has(key)) {
      failAt(ctx, "duplicate-entry", `the key ${JSON.stringify(key)} appears in more than one entry`, key);
      return false;
    }
    seen.add(key);
    ctx.path.push(key);
    const decoded = ctx.walk.decode(value, entry.value, ctx);
    ctx.path.pop();
    if (decoded === FAIL) return false;
    setOwn(out, key, decoded);
  }
  return true;
}

function encodeMap(node: MapNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!isPlainObject(value)) return failAt(ctx, "invalid-value", "expected an object");
  return encodeEntries(node.value, value, Object.keys(value), ctx);
}

function decodeMap(node: MapNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  const out: Record<string, unknown> = {};
  return decodeEntries(node.value, wire, out, undefined, ctx) ? out : FAIL;
}

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

/** A wire pointer step into entry `tokens[i]`: the original path names the entry's key. */
export function entryStep(entries: unknown, tokens: readonly string[], i: number): Omit<WireStep, "node"> | undefined {
  const index = Number(tokens[i]);
  const entry = Array.isArray(entries) ? entries[index] : undefined;
  if (!isPlainObject(entry) || typeof entry.key !== "string") return undefined;
  if (tokens[i + 1] !== "value") return { step: entry.key, value: undefined, next: tokens.length };
  return { step: entry.key, value: entry.value, next: i + 2 };
}

export const map: Construct<MapNode> = {
  kind: "map",
  children: (node) => [{ node: node.value, at: "{}" }],
  encode: encodeMap,
  decode: decodeMap,
  wireTypes: () => ["array"],
  identity: () => false,
  wireStep(node, { tokens, i, value }) {
    const entry = entryStep(value, tokens, i);
    return entry === undefined ? undefined : { ...entry, node: node.value };
  },
  check: mapShape.check,
  partial: partialMap,
};
