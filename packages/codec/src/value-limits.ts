/**
 * The parser's limits, applied to a value that arrived already parsed (an SDK
 * object) or that encode is about to return: measured iteratively, so a deep
 * value cannot overflow the stack before it is refused.
 */
import { ok, type Result } from "./errors.js";
import { fail } from "./feedback/format.js";
import type { ParseLimits } from "./parse/parser.js";
import { utf8Length } from "./parse/utf8.js";

export function measureValue(
  value: unknown,
  limits: ParseLimits,
  text?: string,
): Result<{ nodes: number; depth: number }> {
  if (text !== undefined && utf8Length(text) > limits.maxBytes) {
    return fail("input-too-large", "", `more than ${limits.maxBytes} bytes of JSON`);
  }
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  let maxDepth = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++nodes > limits.maxNodes) return fail("too-many-nodes", "", `more than ${limits.maxNodes} JSON values`);
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return fail("invalid-json", "", "a number that JSON cannot carry (NaN or Infinity)");
      // The parser refuses integers it would round; a value that holds one could not come back.
      if (Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        return fail("unsafe-number", "", `the number ${v} is beyond ±${Number.MAX_SAFE_INTEGER} and would be rounded`);
      }
      continue;
    }
    if (typeof v !== "object") return fail("invalid-json", "", `a ${typeof v} is not a JSON value`);
    const d = depth + 1;
    if (d > limits.maxDepth) return fail("too-deep", "", `nested deeper than ${limits.maxDepth} levels`);
    if (d > maxDepth) maxDepth = d;
    if (Array.isArray(v)) for (const item of v) stack.push([item, d]);
    else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return fail("invalid-json", "", "not a plain JSON object");
      for (const k of Object.keys(v)) stack.push([(v as Record<string, unknown>)[k], d]);
    }
  }
  return ok({ nodes, depth: maxDepth });
}
