/**
 * Keeping the key out of everything written. A server may echo anything
 * (error text, the model's arguments, a model name), whole or in part: every
 * string of a record is redacted before it is kept, and text is redacted
 * before it is cut, so a key straddling the cut cannot survive in part. The
 * redactor is the one probe and classify use too (@strictwire/codec/http).
 */
import { REDACTED, redactKey } from "@strictwire/codec/http";

export { REDACTED };

/** The text with every echo of the key (a run of 8 or more of its characters; a shorter key as a whole token) replaced. */
export function redact(text: string, key: string): string {
  return redactKey(text, key);
}

/** A copy with the key redacted from every string, member names included. */
export function redactDeep<T>(value: T, key: string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v, key);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {};
      // defineProperty: a member named "__proto__" stays a member, as JSON.parse made it.
      for (const [k, x] of Object.entries(v))
        Object.defineProperty(out, redact(k, key), {
          value: walk(x),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
