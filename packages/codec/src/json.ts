/** JSON values and the small pure helpers every stage shares. */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** The JSON type of a value, as the wire sees it ("integer" is a number). */
export type JsonType = "object" | "array" | "string" | "number" | "boolean" | "null";

export const JSON_TYPES: readonly JsonType[] = ["object", "array", "string", "number", "boolean", "null"];

export function jsonTypeOf(value: unknown): JsonType | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return Number.isFinite(value) ? "number" : undefined;
    case "boolean":
      return "boolean";
    case "object":
      return Array.isArray(value) ? "array" : "object";
    default:
      return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Set an own data property. Plain assignment of "__proto__" would change the
 * prototype instead of storing data, so that one key goes through defineProperty.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** Deterministic JSON text: object keys sorted by code unit order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  const parts = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${parts.join(",")}}`;
}

/**
 * Structural equality of JSON values; member presence counts, key order does
 * not. Only own enumerable members are read and nothing is called, so member
 * names such as `valueOf`, `constructor` or `__proto__` are data like any
 * other (ajv's own equality calls `valueOf` and compares `constructor`).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * The last duplicate in a list of JSON values, as ajv's `uniqueItems` reports
 * it: `[j, i]` with `i` the greatest index equal to an earlier one and `j` the
 * latest such earlier index; undefined when every item is unique. Linear:
 * equal JSON values, and only they, have the same canonical text.
 */
export function duplicateItems(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  let found: [number, number] | undefined;
  for (let i = 0; i < items.length; i++) {
    const key = canonicalJson(items[i]);
    const earlier = seen.get(key);
    if (earlier !== undefined) found = [earlier, i];
    seen.set(key, i);
  }
  return found;
}

/** Deep copy of a JSON value with own-property semantics (safe for "__proto__" keys). */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) setOwn(out, k, cloneJson((value as Record<string, unknown>)[k]));
  return out as T;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

/** One JSON Pointer reference token unescaped (RFC 6901): `~1` is `/`, then `~0` is `~`. */
export const unescapeToken = (token: string): string => token.replaceAll("~1", "/").replaceAll("~0", "~");

/** Decode one JSON Pointer into its tokens (RFC 6901). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map(unescapeToken);
}
