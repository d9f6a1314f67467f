/**
 * The parser's limits, applied to a value that arrived already parsed (an SDK
 * object) or that encode is about to return: measured iteratively, so a deep
 * value cannot overflow the stack before it is refused. It words nothing: a
 * breach is a typed value, worded by feedback/value.ts, as the parser's
 * refusals are by feedback/parse.ts.
 */
import type { Result } from "./errors.js";
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
  | { readonly code: "invalid-json"; readonly found: "not-json-type"; readonly type: string };

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
