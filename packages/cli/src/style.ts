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
