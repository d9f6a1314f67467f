/** Small helpers over parsed JSON values. All pure. */

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

// A value's type and its display are the codec formatter's, so both packages say them alike.
export { displayValue, typeName } from "@strictwire/codec";

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Cap a foreign message (ajv, a server) so it stays one readable line. */
export function clip(text: string, limit = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}
