/**
 * Exact JSON equality for the round-trip invariant: same members (presence
 * included), same values, key order ignored, every object a plain object.
 * (toStrictEqual compares `constructor`, which is data for us: a member may be called that.)
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && Object.is(value, -0)) return "-0";
    return JSON.stringify(value) ?? "undefined";
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const proto = Object.getPrototypeOf(value);
  const tag = proto === Object.prototype ? "" : "!proto";
  const keys = Object.keys(value).sort();
  return `${tag}{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}
