/** Small helpers over parsed JSON values. All pure. */

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** What a parsed JSON value actually is, in schema vocabulary. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const DISPLAY_LIMIT = 60;

/** A value as JSON, cut short so one long string cannot drown a detail line. */
export function displayValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const points = Array.from(text);
  return points.length <= DISPLAY_LIMIT ? text : `${points.slice(0, DISPLAY_LIMIT - 1).join("")}…`;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Cap a foreign message (ajv, a server) so it stays one readable line. */
export function clip(text: string, limit = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
