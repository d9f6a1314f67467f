/**
 * Expected failures are values, not exceptions. Every failure strictwire
 * reports, at compile, encode, decode or load time, is a CodecError.
 */

/** Stable error codes. Scripts match on these; never rename one. */
export type ErrorCode =
  // bounded parse
  | "invalid-json"
  | "invalid-utf8"
  | "input-too-large"
  | "too-deep"
  | "too-many-nodes"
  | "duplicate-key"
  | "unsafe-number"
  // decode
  | "wire-violation"
  | "duplicate-entry"
  | "entry-shadows-field"
  | "contract-violation"
  // encode
  | "invalid-value"
  | "undeclared-member"
  | "exceeds-decoder-limits"
  // compile
  | "invalid-options"
  | "invalid-schema"
  | "unsupported-schema"
  | "remote-ref"
  | "dynamic-ref"
  | "unresolved-ref"
  | "unsafe-pattern"
  | "expansion-limit"
  | "schema-too-large"
  | "target-limit"
  // bundle
  | "invalid-bundle"
  | "digest-mismatch"
  | "unsupported-format";

/** One problem found by a validator, in the terms of the value it checked. */
export interface Issue {
  /** JSON Pointer into the value. */
  readonly path: string;
  /** The schema keyword that failed, when a validator reported one. */
  readonly keyword?: string;
  readonly message: string;
  /** Where in the checked schema the rule lives (a validator's schema path), for diagnosis. */
  readonly schemaPath?: string;
  /** The rule's parameters as the validator reported them (the bound, the allowed values). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface CodecError {
  readonly code: ErrorCode;
  /** JSON Pointer, in the original value's terms where it applies ("" is the root). */
  readonly path: string;
  /** For a person reading logs. */
  readonly message: string;
  /** Short text fit to hand back to the model as the tool result. */
  readonly feedback: string;
  /** Every problem, when a validator found several. */
  readonly issues?: readonly Issue[];
  /** Byte offset into the raw text, for parse errors. */
  readonly offset?: number;
}

export type Result<T, E = CodecError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

export function fail(
  code: ErrorCode,
  path: string,
  message: string,
  extra: { feedback?: string; issues?: readonly Issue[]; offset?: number } = {},
): { readonly ok: false; readonly error: CodecError } {
  const error: CodecError = {
    code,
    path,
    message,
    feedback: extra.feedback ?? defaultFeedback(code, path, message),
    ...(extra.issues ? { issues: extra.issues } : {}),
    ...(extra.offset !== undefined ? { offset: extra.offset } : {}),
  };
  return { ok: false, error };
}

function defaultFeedback(code: ErrorCode, path: string, message: string): string {
  const where = path === "" ? "" : ` at ${path}`;
  return `The tool call was rejected (${code}${where}): ${message}. Correct the arguments and call the tool again.`;
}

/** Escape one reference token for a JSON Pointer (RFC 6901). */
export function pointerToken(token: string | number): string {
  const s = String(token);
  return s.includes("~") || s.includes("/") ? s.replaceAll("~", "~0").replaceAll("/", "~1") : s;
}

export function pointerJoin(base: string, token: string | number): string {
  return `${base}/${pointerToken(token)}`;
}
