/**
 * `@strictwire/codec/printable`: the one escaper of text shown to a person
 * (the classifier's human lines, the CLI's tables), for the packages above
 * the codec. Logs, schemas and endpoints are untrusted: a newline in an id
 * forges a line, an escape sequence is obeyed by the terminal. Not the
 * codec's core, which never prints; no import.
 */

/**
 * Text as a person's terminal shows it: each control character (C0, DEL, C1) as its \u escape, so that a newline
 * cannot forge a line nor an escape sequence reach the terminal. Applied to the data before styling, never to
 * styled text.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Every string in `value` (objects and arrays, deeply) made printable: a display copy, never the data itself. */
export function printableDeep<T>(value: T): T {
  if (typeof value === "string") return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableDeep) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, printableDeep(v)])) as T;
  }
  return value;
}
