/**
 * Typed maps: dynamic member names cannot be declared in a closed object, so
 * members travel as an array of {key, value} entries. A key may appear once.
 */

import type { MapNode, Node } from "../ir/nodes.js";
import { isPlainObject, setOwn } from "../json.js";
import type { Construct, WireStep } from "./construct.js";
import { type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";

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
};
