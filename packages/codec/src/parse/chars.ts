/** Character helpers shared by the scanner, its error wording, the incremental parser and the stream decoder's fast path. */

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Value of the four hex digits at i, or -1 (also past the end, where charCodeAt gives NaN). */
export function hex4(s: string, i: number): number {
  let v = 0;
  for (let k = i; k < i + 4; k++) {
    const d = hexDigit(s.charCodeAt(k));
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** A hex digit's value, or -1. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The character a one-letter escape stands for (the letter's code), or undefined. */
export function simpleEscape(c: number): string | undefined {
  switch (c) {
    case 34:
      return '"';
    case 92:
      return "\\";
    case 47:
      return "/";
    case 98:
      return "\b";
    case 102:
      return "\f";
    case 110:
      return "\n";
    case 114:
      return "\r";
    case 116:
      return "\t";
    default:
      return undefined;
  }
}

/** A lone surrogate: read by code points, a surrogate that is half of a pair is not one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Whether a string has no lone surrogate: `String.prototype.isWellFormed` (Node 20, typed here for
 * ES2022) where the runtime has it. Browsers before 2023 (Safari 16.3, Chrome 110, Firefox 118) and
 * older edge runtimes do not: there a regular expression decides.
 */
export const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);
