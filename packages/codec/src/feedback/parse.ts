/**
 * The public parse: the bounded parser (parse/parser.ts), whose refusals
 * word nothing, with each refusal worded for the model that wrote the text.
 * The codec words its own (in the original value's terms), so it reads the
 * parser directly; this is for everyone else.
 */
import type { CodecError, Result } from "../errors.js";
import { type ParseLimits, parseText, parseTextByScanner } from "../parse/parser.js";
import { parseError } from "./format.js";

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
