/**
 * Colour, only where a person reads it: a terminal, and never with NO_COLOR
 * set (to anything, even empty: being asked not to is enough).
 */
import type { Io, OutStream } from "./io.js";

export interface Style {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const plainText = (s: string): string => s;

export const PLAIN: Style = {
  bold: plainText,
  dim: plainText,
  red: plainText,
  green: plainText,
  yellow: plainText,
  cyan: plainText,
};

const sgr =
  (open: number, close: number) =>
  (s: string): string =>
    s === "" ? s : `\u001b[${open}m${s}\u001b[${close}m`;

const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
};

export function colourAllowed(stream: OutStream, env: Io["env"]): boolean {
  return stream.isTTY && env.NO_COLOR === undefined && env.TERM !== "dumb";
}

export function styleFor(stream: OutStream, env: Io["env"]): Style {
  return colourAllowed(stream, env) ? ANSI : PLAIN;
}

/** Visible width: escape sequences take no columns. */
export function visibleWidth(s: string): number {
  return s.replace(/\u001b\[[0-9;]*m/g, "").length;
}

export function padEndVisible(s: string, width: number): string {
  const gap = width - visibleWidth(s);
  return gap > 0 ? s + " ".repeat(gap) : s;
}

export function padStartVisible(s: string, width: number): string {
  const gap = width - visibleWidth(s);
  return gap > 0 ? " ".repeat(gap) + s : s;
}

/**
 * Text from a document (a schema's member names, enum values) as a person's terminal shows it: each control
 * character as its \u escape, so that a newline cannot forge a line nor an escape sequence reach the terminal.
 * Applied to the data before styling, never to styled text.
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
