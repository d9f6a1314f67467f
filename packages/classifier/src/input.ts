/**
 * Offline input: one stored response, an array of them, or JSON lines. Parsed
 * with the codec's bounded parser under generous limits, since the text is
 * the user's own export rather than a model's output.
 */

import { type CodecError, type ParseLimits, parseJson, type Result } from "@strictwire/codec";
import { isPlainObject } from "@strictwire/codec/schema";
import { typeName } from "./json.js";

export type ResponseEntry =
  | { readonly kind: "response"; readonly responseId: string; readonly response: Record<string, unknown> }
  | { readonly kind: "unreadable"; readonly responseId: string; readonly reason: string };

export interface InputError {
  readonly message: string;
}

export const DOCUMENT_LIMITS: ParseLimits = Object.freeze({
  maxBytes: 512 * 1024 * 1024,
  maxNodes: 50_000_000,
  maxDepth: 1024,
});

/** A stored response, named by its own id, or by its place in the input when it has none. */
export function responseEntry(value: unknown, position: number): ResponseEntry {
  if (!isPlainObject(value)) {
    return {
      kind: "unreadable",
      responseId: `#${position}`,
      reason: `entry ${position} is ${typeName(value)}, not a response object`,
    };
  }
  const id = typeof value.id === "string" && value.id !== "" ? value.id : `#${position}`;
  return { kind: "response", responseId: id, response: value };
}

function describeFailure(error: CodecError): string {
  return error.path === "" ? `${error.code}: ${error.message}` : `${error.code} at ${error.path}: ${error.message}`;
}

function parseLines(text: string, whole: CodecError): Result<unknown[], InputError> {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const parsed = parseJson(line, DOCUMENT_LIMITS);
    if (parsed.ok) {
      values.push(parsed.value);
      continue;
    }
    // A first line that is not JSON on its own means one broken document,
    // not JSON lines: the whole-text error is the one that helps.
    const message =
      values.length === 0 ? describeFailure(whole) : `line ${index + 1}: ${describeFailure(parsed.error)}`;
    return { ok: false, error: { message: `the responses input is not JSON or JSON lines (${message})` } };
  }
  return { ok: true, value: values };
}

export function parseResponsesText(text: string): Result<ResponseEntry[], InputError> {
  if (text.trim() === "") return { ok: true, value: [] };
  const whole = parseJson(text, DOCUMENT_LIMITS);
  let values: unknown[];
  if (whole.ok) {
    values = Array.isArray(whole.value) ? whole.value : [whole.value];
  } else if (whole.error.code === "invalid-json") {
    const lines = parseLines(text, whole.error);
    if (!lines.ok) return lines;
    values = lines.value;
  } else {
    return { ok: false, error: { message: `the responses input is refused (${describeFailure(whole.error)})` } };
  }
  return { ok: true, value: values.map((value, index) => responseEntry(value, index + 1)) };
}

/** One response id per line; blanks and # comments ignored. */
export function readIds(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
