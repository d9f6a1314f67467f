/**
 * The parser's limits, applied to a value that arrived already parsed (an SDK
 * object) or that encode is about to return: measured iteratively, so a deep
 * value cannot overflow the stack before it is refused. It words nothing: a
 * breach is a typed value, worded by feedback/value.ts, as the parser's
 * refusals are by feedback/parse.ts.
 */
import type { Result } from "./errors.js";
import { setOwn } from "./json.js";
import type { ParseLimits } from "./parse/parser.js";
import { utf8Length } from "./parse/utf8.js";

/** What a value within the limits measured. */
export interface ValueSize {
  readonly nodes: number;
  readonly depth: number;
}

/** The first limit or rule of JSON a value breaks, each with what its words need (at the root, path ""). */
export type ValueBreach =
  | { readonly code: "input-too-large"; readonly limit: number }
  | { readonly code: "too-many-nodes"; readonly limit: number }
  | { readonly code: "too-deep"; readonly limit: number }
  | { readonly code: "unsafe-number"; readonly value: number }
  | { readonly code: "invalid-json"; readonly found: "non-finite-number" | "not-plain-object" }
  | { readonly code: "invalid-json"; readonly found: "not-json-type"; readonly type: string }
  /** A member that threw when read (a getter, a Proxy's trap, a revoked Proxy): `reason`, what it threw. */
  | { readonly code: "invalid-json"; readonly found: "unreadable"; readonly reason: string };

const breach = (b: ValueBreach): { readonly ok: false; readonly error: ValueBreach } => ({ ok: false, error: b });

export function measureValue(value: unknown, limits: ParseLimits, text?: string): Result<ValueSize, ValueBreach> {
  if (text !== undefined && utf8Length(text) > limits.maxBytes) {
    return breach({ code: "input-too-large", limit: limits.maxBytes });
  }
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  let maxDepth = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++nodes > limits.maxNodes) return breach({ code: "too-many-nodes", limit: limits.maxNodes });
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return breach({ code: "invalid-json", found: "non-finite-number" });
      // The parser refuses integers it would round; a value that holds one could not come back.
      if (Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        return breach({ code: "unsafe-number", value: v });
      }
      continue;
    }
    if (typeof v !== "object") return breach({ code: "invalid-json", found: "not-json-type", type: typeof v });
    const d = depth + 1;
    if (d > limits.maxDepth) return breach({ code: "too-deep", limit: limits.maxDepth });
    if (d > maxDepth) maxDepth = d;
    if (Array.isArray(v)) for (const item of v) stack.push([item, d]);
    else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null)
        return breach({ code: "invalid-json", found: "not-plain-object" });
      for (const k of Object.keys(v)) stack.push([(v as Record<string, unknown>)[k], d]);
    }
  }
  return { ok: true, value: { nodes, depth: maxDepth } };
}

/**
 * A value that arrived already parsed, read once into a copy of plain objects and arrays as it is measured: what
 * decode and encode then read. An application's object may run code when read (a getter, a Proxy: a framework's
 * reactive state, a revoked Proxy); read once here, any member that throws is a typed refusal, and the copy cannot
 * answer differently the second time.
 */
export function readValue(
  value: unknown,
  limits: ParseLimits,
): Result<{ readonly value: unknown; readonly size: ValueSize }, ValueBreach> {
  try {
    return copyWithin(value, limits);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return breach({ code: "invalid-json", found: "unreadable", reason: reason.slice(0, 200) });
  }
}

function copyWithin(
  value: unknown,
  limits: ParseLimits,
): Result<{ readonly value: unknown; readonly size: ValueSize }, ValueBreach> {
  const root: { value: unknown } = { value: undefined };
  // Each entry: a value read, its depth, and where its copy goes.
  const stack: [unknown, number, Record<string, unknown> | unknown[], string | number][] = [[value, 0, root, "value"]];
  let nodes = 0;
  let maxDepth = 0;
  while (stack.length > 0) {
    const [v, depth, into, key] = stack.pop()!;
    if (++nodes > limits.maxNodes) return breach({ code: "too-many-nodes", limit: limits.maxNodes });
    let copy: unknown = v;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return breach({ code: "invalid-json", found: "non-finite-number" });
      if (Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER)
        return breach({ code: "unsafe-number", value: v });
    } else if (v !== null && typeof v !== "string" && typeof v !== "boolean") {
      if (typeof v !== "object") return breach({ code: "invalid-json", found: "not-json-type", type: typeof v });
      const d = depth + 1;
      if (d > limits.maxDepth) return breach({ code: "too-deep", limit: limits.maxDepth });
      if (d > maxDepth) maxDepth = d;
      if (Array.isArray(v)) {
        // By index, its length read once: an array's own iterator could be anything.
        const n = v.length;
        // Counted before any room is made: a Proxy may claim any length.
        if (n > limits.maxNodes - nodes) return breach({ code: "too-many-nodes", limit: limits.maxNodes });
        const items: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) stack.push([v[i], d, items, i]);
        copy = items;
      } else {
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null)
          return breach({ code: "invalid-json", found: "not-plain-object" });
        const members: Record<string, unknown> = {};
        const keys = Object.keys(v);
        if (keys.length > limits.maxNodes - nodes) return breach({ code: "too-many-nodes", limit: limits.maxNodes });
        // Put now, so the copy keeps the value's member order; each value is written when popped. Read in order
        // (and popped in reverse, as measureValue does).
        for (const k of keys) {
          setOwn(members, k, undefined);
          stack.push([(v as Record<string, unknown>)[k], d, members, k]);
        }
        copy = members;
      }
    }
    (into as Record<string | number, unknown>)[key] = copy;
  }
  return { ok: true, value: { value: root.value, size: { nodes, depth: maxDepth } } };
}
