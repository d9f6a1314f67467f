/**
 * Parse one arguments value with the codec's bounded parser, which refuses
 * duplicate keys and oversized input instead of quietly keeping the last copy
 * or spending unbounded work.
 */

import { type ErrorCode, type ParseLimits, parseJson } from "@strictwire/codec";
import { isPlainObject } from "@strictwire/codec/schema";
import { typeName } from "./json.js";

export type ArgumentsErrorCode = ErrorCode | "absent" | "not-an-object";

export interface ArgumentsError {
  readonly code: ArgumentsErrorCode;
  /** JSON Pointer into the arguments, "" when the fault is not at one place. */
  readonly path: string;
  readonly message: string;
}

export type ParsedArguments =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: ArgumentsError };

const failed = (code: ArgumentsErrorCode, message: string, path = ""): ParsedArguments => ({
  ok: false,
  error: { code, path, message },
});

/**
 * An empty or blank string is a legal way for a model to call a tool that
 * takes nothing, so it parses to an empty object rather than failing, which a
 * naive JSON.parse gets wrong on its first day in production.
 */
export function parseArguments(raw: unknown, limits: Partial<ParseLimits> = {}): ParsedArguments {
  if (raw === null || raw === undefined) return failed("absent", "the arguments field is absent");
  // Some SDKs, and the APIs that give a call's input as an object (Anthropic, Gemini), hand back a parsed object.
  if (isPlainObject(raw)) return { ok: true, value: raw };
  if (typeof raw !== "string") return failed("not-an-object", `arguments parsed to ${typeName(raw)}, not an object`);
  if (raw.trim() === "") return { ok: true, value: {} };
  const parsed = parseJson(raw, limits);
  if (!parsed.ok) return failed(parsed.error.code, parsed.error.message, parsed.error.path);
  if (!isPlainObject(parsed.value)) {
    return failed("not-an-object", `arguments parsed to ${typeName(parsed.value)}, not an object`);
  }
  return { ok: true, value: parsed.value };
}
