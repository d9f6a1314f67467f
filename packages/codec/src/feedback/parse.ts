/**
 * A refused text's words: what the model is told to do about each rule of
 * JSON the parser (parse/parser.ts, which words nothing) says the text broke.
 * `parseJson`, the public parse (parse/json.ts), words its refusals here; the
 * codec words its own (in the original value's terms) with `parseError`.
 */
import type { CodecError, Issue, PathStep } from "../errors.js";
import type { ParseRule } from "../parse/describe.js";
import type { ParseRefusal } from "../parse/parser.js";
import { textFeedback } from "./format.js";

const DOUBLE_QUOTES = "Use double quotes for strings and member names.";

/** What to do about each broken rule; a limit's rule names the limit. */
const RULES: Readonly<Record<ParseRule, string | ((limit: number) => string)>> = {
  "send-json": "Send the arguments as one strict JSON value.",
  utf8: "Send the arguments as well-formed UTF-8 text.",
  "within-bytes": (limit) => `Send at most ${limit} bytes of arguments.`,
  "one-value": "Send one JSON value.",
  "complete-value": "Send one complete JSON value.",
  "nothing-after": "Send exactly one JSON value with nothing after it.",
  "nest-less": (limit) => `Nest arrays and objects at most ${limit} levels deep.`,
  "fewer-values": (limit) =>
    `Send at most ${limit} values (objects, arrays, strings, numbers, booleans and nulls) in total.`,
  "unique-names": "Give each member of an object only once.",
  "safe-numbers": `Keep numbers within ±${Number.MAX_SAFE_INTEGER}.`,
  "strict-json": "Send strict JSON (RFC 8259).",
  "double-quotes": DOUBLE_QUOTES,
  "no-comments": "Remove the comments; JSON has none.",
  "no-bom": "Send the JSON text without a byte order mark.",
  "no-trailing-comma": "Remove the comma before the closing bracket or brace.",
  colon: "Separate each member name from its value with ':'.",
  "separate-values": "Separate values with ',' and close every array and object.",
  "close-all": "Close every array with ] and every object with }.",
  "close-strings": "Close every string with a double quote.",
  "escape-controls": "Escape control characters inside strings, e.g. \\n for a line break and \\t for a tab.",
  "valid-escapes": 'The only escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by four hex digits.',
  "surrogate-pairs":
    "Escape a character outside the Basic Multilingual Plane as a surrogate pair (e.g. \\ud83d\\ude00) or send it unescaped.",
  "well-formed-unicode": "Send well-formed Unicode text; it cannot be encoded as UTF-8.",
  finite: "Use a finite number (or null); NaN and Infinity are not JSON.",
  "no-plus": "Write numbers without a leading '+'.",
  "leading-digit": "Write a digit before the decimal point, e.g. 0.5.",
  "minus-digit": "Write a digit after a minus sign.",
  "no-leading-zeros": "Write numbers without leading zeros, e.g. 7 not 07.",
  "fraction-digit": "Write 1.0 or 1, not 1.",
  "exponent-digit": "Write an exponent as e.g. 1e5 or 1.5E-3.",
};

/** What the model is told to do about a refused text. */
export function ruleText(refusal: ParseRefusal): string {
  const text = RULES[refusal.rule];
  return typeof text === "string" ? text : text(refusal.limit ?? 0);
}

/**
 * The parser's refusal worded for the model: the feedback names `worded`
 * (where the problem lies in the terms the model knows), the error's `path`
 * is `path`, and the refusal is the error's one issue, its rule to follow
 * kept as `hint`, so it can be worded again elsewhere.
 */
export function parseError(
  refusal: ParseRefusal,
  path: string = refusal.path,
  worded: string = path,
  at?: readonly PathStep[],
): CodecError {
  const { code, message, offset } = refusal;
  const hint = ruleText(refusal);
  const issue: Issue = { path, keyword: code, message, hint, ...(at === undefined ? {} : { at }) };
  return {
    code,
    path,
    message,
    feedback: textFeedback(code, worded, message, hint),
    tree: [issue],
    ...(offset !== undefined ? { offset } : {}),
  };
}
