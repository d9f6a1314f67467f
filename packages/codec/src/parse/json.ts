/**
 * `parseJson`, the public parse: the bounded parser (parser.ts, which words
 * nothing) with its refusals worded at this one boundary (feedback/parse.ts),
 * as every error the package returns is.
 */
import type { CodecError, Result } from "../errors.js";
import { parseError } from "../feedback/parse.js";
import { type ParseLimits, parseText, parseTextByScanner } from "./parser.js";

/** Parses JSON text under limits. Never throws: every failure is a CodecError value. */
export function parseJson(input: string | Uint8Array, limits: Partial<ParseLimits> = {}): Result<unknown, CodecError> {
  const parsed = parseText(input, limits);
  return parsed.ok ? parsed : { ok: false, error: parseError(parsed.error) };
}

/** The scanner alone, worded the same, for holding the native-first path to its verdicts in tests. */
export function parseJsonByScanner(
  input: string | Uint8Array,
  limits: Partial<ParseLimits> = {},
): Result<unknown, CodecError> {
  const parsed = parseTextByScanner(input, limits);
  return parsed.ok ? parsed : { ok: false, error: parseError(parsed.error) };
}
