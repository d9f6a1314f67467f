/**
 * Keeping the key out of everything written. A server may echo anything
 * (error text, the model's arguments, a model name): every string of a record
 * is redacted before it is kept, and text is redacted before it is cut, so a
 * key straddling the cut cannot survive in part.
 */

export const REDACTED = "[key]";

export function redact(text: string, key: string): string {
  return key === "" ? text : text.split(key).join(REDACTED);
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
