/**
 * The words for a schema's author: what compile says when it refuses a
 * schema, and what to do about it. Apart from format.ts, which words every
 * other code, because only the build side refuses a schema: a run-time
 * bundle (a generated module's load and decode) leaves these out. The build
 * side makes its errors with this module's `fail`, which words every code.
 */
import type { CodecError, ErrorCode } from "../errors.js";
import {
  type AuthorCode,
  audienceOf,
  callerAdvice,
  cut,
  type ErrorParts,
  failWorded,
  feedbackFor,
  type WordedCode,
} from "./format.js";

/** What a schema's author can do about each compile refusal. */
const AUTHOR_ADVICE: Readonly<Record<AuthorCode, string>> = {
  "invalid-schema": "Make it valid JSON Schema for its draft ($schema); check it against the draft's meta-schema.",
  "unsupported-schema":
    "Rewrite that part with keywords strictwire supports, or drop the keyword if the contract can do without it.",
  "remote-ref":
    "strictwire never fetches a schema: pass the referenced document in compile's `resources` (on the CLI, --schema-dir or the file itself).",
  "dynamic-ref": "Replace the dynamic reference with a plain $ref to the definition it means.",
  "unresolved-ref":
    "Point the $ref at a location that exists in the schema, its $defs, or a document passed in `resources`.",
  "unsafe-pattern":
    "Rewrite the pattern without backreferences or lookaround (RE2 syntax), so it runs in linear time on model output.",
  "expansion-limit":
    "Simplify that part (fewer alternatives or combinations, shorter chains of references), or raise `limits.maxNodes`.",
  "schema-too-large": "Split the schema into smaller tools, or simplify it; `limits` bounds what compile reads.",
  "target-limit":
    'The provider would refuse this wire schema: nest or repeat less there, try `presence: "compact"`, or compile for another target.',
};

/** What to do about an error with this code, for a person (the schema's author, the calling program); undefined for the model's codes. */
export function adviceFor(code: string): string | undefined {
  return Object.hasOwn(AUTHOR_ADVICE, code) ? AUTHOR_ADVICE[code as AuthorCode] : callerAdvice(code);
}

function where(path: string, within: string): string {
  return path === "" ? ` (at the root of ${within})` : ` (at ${path} in ${within})`;
}

/** The feedback for an error whose producer has no better words, for whoever acts on its code. */
export function feedbackOf(code: ErrorCode, path: string, message: string): string {
  if (audienceOf(code) !== "author") return feedbackFor(code as WordedCode, path, message);
  // A target limit is measured on the wire schema strictwire wrote, not on the source.
  const within = code === "target-limit" ? "the wire schema" : "the schema";
  return cut(
    `The schema cannot be compiled${where(path, within)}: ${message} [${code}]. ${AUTHOR_ADVICE[code as AuthorCode]}`.trim(),
  );
}

/** An error value of any code (format.ts's `fail`, the schema's author's codes included). */
export function fail(
  code: ErrorCode,
  path: string,
  message: string,
  extra: ErrorParts = {},
): { readonly ok: false; readonly error: CodecError } {
  return failWorded(feedbackOf, code, path, message, extra);
}
