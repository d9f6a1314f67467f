/**
 * What went wrong with a text the parser refused. These run only once a
 * parse has already failed, so they may look around the failing offset to
 * say what went wrong (the message, for a person reading logs) and which
 * rule of JSON the text broke. What the model is told to do about it is
 * worded from that rule by feedback/parse.ts.
 */
import type { ErrorCode } from "../errors.js";
import { hex4, isLowSurrogate } from "./chars.js";

/** The rules a refused text can break, each worded for the model in feedback/parse.ts. */
export type ParseRule =
  | "send-json"
  | "utf8"
  | "within-bytes"
  | "one-value"
  | "complete-value"
  | "nothing-after"
  | "nest-less"
  | "fewer-values"
  | "unique-names"
  | "safe-numbers"
  | "strict-json"
  | "double-quotes"
  | "no-comments"
  | "no-bom"
  | "no-trailing-comma"
  | "colon"
  | "separate-values"
  | "close-all"
  | "close-strings"
  | "escape-controls"
  | "valid-escapes"
  | "surrogate-pairs"
  | "well-formed-unicode"
  | "finite"
  | "no-plus"
  | "leading-digit"
  | "minus-digit"
  | "no-leading-zeros"
  | "fraction-digit"
  | "exponent-digit";

export interface Problem {
  readonly code: ErrorCode;
  /** For a person reading logs. */
  readonly message: string;
  /** The rule the text broke. */
  readonly rule: ParseRule;
  /** The limit a limit's rule names (bytes, depth, values). */
  readonly limit?: number;
}

const ARRAY = 1;

const problem = (code: ErrorCode, message: string, rule: ParseRule, limit?: number): Problem =>
  limit === undefined ? { code, message, rule } : { code, message, rule, limit };

export function emptyInput(length: number): Problem {
  const what = length === 0 ? "the input is empty" : "the input contains only whitespace";
  return problem("invalid-json", what, "one-value");
}

export function tooDeep(maxDepth: number): Problem {
  return problem("too-deep", `arrays and objects are nested more than ${maxDepth} levels deep`, "nest-less", maxDepth);
}

export function tooManyNodes(maxNodes: number): Problem {
  return problem("too-many-nodes", `the input has more than ${maxNodes} values`, "fewer-values", maxNodes);
}

export function duplicateKey(name: string): Problem {
  return problem("duplicate-key", `the member name ${quote(name)} appears twice in one object`, "unique-names");
}

export function unsafeNumber(s: string, start: number, end: number): Problem {
  const text = excerpt(s.slice(start, Math.min(end, start + 41)));
  const overflow = !Number.isFinite(Number(s.slice(start, end)));
  const message = overflow
    ? `the number ${text} is too large to represent`
    : `the number ${text} is beyond the safe integer range of ±${Number.MAX_SAFE_INTEGER} and would be rounded`;
  return problem("unsafe-number", message, "safe-numbers");
}

export function isValueStart(c: number): boolean {
  return c === 34 || c === 91 || c === 123 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
}

/** A value was due at i but something else is there. */
export function describeExpectedValue(s: string, i: number, container: number | undefined): Problem {
  const c = s.charCodeAt(i);
  if (i >= s.length) return unterminated(container);
  const special = commonMistake(s, i);
  if (special) return special;
  if ((c === 93 || c === 125) && previousToken(s, i) === 44) {
    return problem("invalid-json", `trailing comma before '${s[i]}'`, "no-trailing-comma");
  }
  if (c === 0x2b) return problem("invalid-json", "a number starts with '+'", "no-plus");
  if (c === 0x2e) {
    return problem("invalid-json", "a number starts with '.'", "leading-digit");
  }
  if (s.startsWith("NaN", i) || s.startsWith("Infinity", i)) {
    return problem("invalid-json", `${s.startsWith("NaN", i) ? "NaN" : "Infinity"} is not a JSON number`, "finite");
  }
  if (isIdentifierChar(c)) {
    return problem("invalid-json", `unquoted text ${quote(word(s, i))} where a value was expected`, "double-quotes");
  }
  return problem("invalid-json", `unexpected ${charName(c)} where a value was expected`, "strict-json");
}

/** A member name was due at i. */
export function describeExpectedKey(s: string, i: number): Problem {
  const c = s.charCodeAt(i);
  if (i >= s.length) return unterminated(2);
  const special = commonMistake(s, i);
  if (special) return special;
  if (c === 125 && previousToken(s, i) === 44)
    return problem("invalid-json", "trailing comma before '}'", "no-trailing-comma");
  if (isIdentifierChar(c)) {
    return problem("invalid-json", `unquoted member name ${quote(word(s, i))}`, "double-quotes");
  }
  return problem("invalid-json", `unexpected ${charName(c)} where a member name was expected`, "double-quotes");
}

export function describeMissingColon(s: string, i: number): Problem {
  if (i >= s.length) return unterminated(2);
  const special = commonMistake(s, i);
  if (special) return special;
  return problem("invalid-json", `unexpected ${charName(s.charCodeAt(i))} after a member name; expected ':'`, "colon");
}

/** A value ended inside a container and neither ',' nor the closer follows. */
export function describeAfterValue(s: string, i: number, container: number): Problem {
  if (i >= s.length) return unterminated(container);
  const special = commonMistake(s, i);
  if (special) return special;
  const expected = container === ARRAY ? "',' or ']'" : "',' or '}'";
  return problem(
    "invalid-json",
    `unexpected ${charName(s.charCodeAt(i))} after a value; expected ${expected}`,
    "separate-values",
  );
}

/** Something follows the complete root value. */
export function describeTrailing(s: string, i: number): Problem {
  const special = commonMistake(s, i);
  if (special) return special;
  return problem(
    "invalid-json",
    `unexpected ${charName(s.charCodeAt(i))} after the end of the JSON value`,
    "nothing-after",
  );
}

/** The string scan stopped at i (the end of input, a control character, a bad escape or a lone surrogate). */
export function describeStringError(s: string, i: number): Problem {
  if (i >= s.length) return problem("invalid-json", "unterminated string", "close-strings");
  const c = s.charCodeAt(i);
  if (c < 0x20) {
    return problem("invalid-json", `raw control character ${charName(c)} inside a string`, "escape-controls");
  }
  if (c === 92) {
    const u = s.charCodeAt(i + 1) === 117 ? hex4(s, i + 2) : -1;
    if (u >= 0xd800 && u <= 0xdfff) {
      return problem(
        "invalid-utf8",
        `the escape ${excerpt(s.slice(i, i + 6))} is an unpaired surrogate`,
        "surrogate-pairs",
      );
    }
    return problem("invalid-json", `invalid escape sequence ${excerpt(s.slice(i, i + 6))}`, "valid-escapes");
  }
  return loneSurrogate(c);
}

/** The number scan at start stopped at i. */
export function describeNumberError(s: string, start: number, i: number): Problem {
  const c = s.charCodeAt(i);
  const prev = s.charCodeAt(i - 1);
  if (i === start + 1 && prev === 45) {
    if (s.startsWith("Infinity", i)) return problem("invalid-json", "-Infinity is not a JSON number", "finite");
    return problem("invalid-json", "expected a digit after '-'", "minus-digit");
  }
  if (c >= 48 && c <= 57) {
    return problem("invalid-json", "a number has a leading zero", "no-leading-zeros");
  }
  if (prev === 46) {
    return problem("invalid-json", "expected a digit after the decimal point", "fraction-digit");
  }
  return problem("invalid-json", "expected a digit in the exponent", "exponent-digit");
}

/** Mistakes worth naming wherever they appear: quotes, comments, a BOM, lone surrogates. */
function commonMistake(s: string, i: number): Problem | undefined {
  const c = s.charCodeAt(i);
  if (c === 39) return problem("invalid-json", "single-quoted string", "double-quotes");
  if (c === 47 && (s.charCodeAt(i + 1) === 47 || s.charCodeAt(i + 1) === 42)) {
    return problem("invalid-json", "comments are not allowed in JSON", "no-comments");
  }
  if (c === 0xfeff) {
    return problem(
      "invalid-json",
      i === 0 ? "the input starts with a byte order mark (U+FEFF)" : "unexpected byte order mark (U+FEFF)",
      "no-bom",
    );
  }
  if (c >= 0xd800 && c <= 0xdfff && !(c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1)))) return loneSurrogate(c);
  return undefined;
}

function loneSurrogate(c: number): Problem {
  return problem("invalid-utf8", `unpaired surrogate ${charName(c)} in the text`, "well-formed-unicode");
}

function unterminated(container: number | undefined): Problem {
  if (container === undefined || container === 0) {
    return problem("invalid-json", "the input ends where a value was expected", "complete-value");
  }
  const what = container === ARRAY ? "an array" : "an object";
  return problem("invalid-json", `the input ends inside ${what} that is never closed`, "close-all");
}

/** The last non-whitespace character before i, or NaN. */
function previousToken(s: string, i: number): number {
  let j = i - 1;
  while (j >= 0 && isWs(s.charCodeAt(j))) j--;
  return s.charCodeAt(j);
}

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isIdentifierChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

function word(s: string, i: number): string {
  let j = i;
  while (j < s.length && j < i + 40 && isIdentifierChar(s.charCodeAt(j))) j++;
  return s.slice(i, j);
}

/** How a character is named in a message: the glyph for printable ASCII, else its code point. */
function charName(c: number): string {
  if (c > 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** A JSON-quoted, length-capped rendering of text for a message. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function excerpt(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
