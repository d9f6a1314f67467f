/**
 * Every error code the codec may return, as data (ErrorCode is a type only).
 * The two checks below fail to compile if errors.ts gains or loses a code.
 */
import type { ErrorCode } from "@strictwire/codec";

export const ERROR_CODES = [
  "invalid-json",
  "invalid-utf8",
  "input-too-large",
  "too-deep",
  "too-many-nodes",
  "duplicate-key",
  "unsafe-number",
  "wire-violation",
  "duplicate-entry",
  "entry-shadows-field",
  "contract-violation",
  "stream-violation",
  "invalid-value",
  "undeclared-member",
  "exceeds-decoder-limits",
  "invalid-options",
  "invalid-schema",
  "unsupported-schema",
  "remote-ref",
  "dynamic-ref",
  "unresolved-ref",
  "unsafe-pattern",
  "expansion-limit",
  "schema-too-large",
  "target-limit",
  "code-generation-unavailable",
  "invalid-bundle",
  "digest-mismatch",
  "unsupported-format",
  "answer-refused",
  "answer-cut",
  "answer-blocked",
  "no-answer",
] as const satisfies readonly ErrorCode[];

type Listed = (typeof ERROR_CODES)[number];
// Both directions: a code missing from the list, or listed but not a code, is a type error.
const _complete: Exclude<ErrorCode, Listed> extends never ? true : never = true;
const _exact: Exclude<Listed, ErrorCode> extends never ? true : never = true;
void _complete;
void _exact;

/** Codes decode may return: parsing, then the wire and contract checks. */
export const DECODE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "invalid-json",
  "invalid-utf8",
  "input-too-large",
  "too-deep",
  "too-many-nodes",
  "duplicate-key",
  "unsafe-number",
  "wire-violation",
  "duplicate-entry",
  "entry-shadows-field",
  "contract-violation",
]);

/** Codes loadBundle may return. */
export const LOAD_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "invalid-bundle",
  "digest-mismatch",
  "unsupported-format",
  "code-generation-unavailable",
]);

/** Codes compile may return. */
export const COMPILE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "invalid-options",
  "invalid-schema",
  "unsupported-schema",
  "remote-ref",
  "dynamic-ref",
  "unresolved-ref",
  "unsafe-pattern",
  "expansion-limit",
  "schema-too-large",
  "target-limit",
  "code-generation-unavailable",
]);

/** Codes encode may return. */
export const ENCODE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "invalid-value",
  "undeclared-member",
  "exceeds-decoder-limits",
  "unsafe-number",
  "invalid-json",
]);
