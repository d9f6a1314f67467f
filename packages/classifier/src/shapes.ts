/**
 * The three response shapes (Responses API, Chat Completions, Anthropic
 * Messages) as the classifier sees them. Calls and truncation come from the
 * codec's reader, so the classifier and the dispatcher cannot disagree; tool
 * declarations are read here, as only the classifier needs them. All pure, and
 * all survive junk.
 */

import { storedCalls } from "@strictwire/codec/providers";
import { isPlainObject } from "@strictwire/codec/schema";
import { asArray } from "./json.js";

export interface ToolCall {
  readonly name: string;
  readonly callId: string;
  /** A JSON string as the API sent it, or an already parsed object (Anthropic). */
  readonly arguments: unknown;
}

export interface DeclaredTool {
  readonly parameters: unknown;
  readonly strict: boolean;
}

function text(value: unknown): string {
  return String(value ?? "");
}

/**
 * Every function call in a stored response, in the order the model emitted
 * them, read by the codec's own reader: the calls its dispatcher answers, with
 * the same ids. Custom (grammar) tool calls are left out: they carry free text
 * that no schema checks, so there is nothing to classify.
 */
export function functionCalls(response: unknown): ToolCall[] {
  return readResponse(response).calls;
}

/** The calls and the truncation verdict in one reading of the response. */
export function readResponse(response: unknown): { calls: ToolCall[]; truncation: string | undefined } {
  const read = storedCalls(response);
  return {
    calls: read.calls
      .filter((call) => call.kind !== "custom")
      .map((call) => ({ name: call.name ?? "", callId: call.id ?? "", arguments: call.arguments })),
    truncation: read.truncation,
  };
}

/**
 * Why the output was cut off (the codec's verdict, e.g. "max_output_tokens",
 * "length", "content_filter"), or undefined when it completed.
 */
export function truncation(response: unknown): string | undefined {
  return storedCalls(response).truncation;
}

/** Was the output cut off, for whatever reason the provider gave? */
export function wasTruncated(response: unknown): boolean {
  return truncation(response) !== undefined;
}

// Anthropic client tools with a schema built into the model (bash_20250124,
// text_editor_20250728, computer_20250124): declared, but with no schema here.
const VERSIONED_CLIENT_TOOL = /^[a-z_]+_\d{8}$/;

function declaration(tool: Record<string, unknown>): [string, DeclaredTool] | undefined {
  const type = text(tool.type ?? "function");
  if (type === "function") {
    const inner = isPlainObject(tool.function) ? tool.function : tool;
    const parameters = "parameters" in inner ? inner.parameters : inner.input_schema;
    return [text(inner.name), { parameters, strict: inner.strict === true }];
  }
  if ("input_schema" in tool) {
    return [text(tool.name), { parameters: tool.input_schema, strict: tool.strict === true }];
  }
  if (VERSIONED_CLIENT_TOOL.test(type)) return [text(tool.name), { parameters: undefined, strict: false }];
  return undefined;
}

/**
 * The tool definitions the response was generated with, keyed by name. Taken
 * from the response rather than from a source tree, because the definition
 * that matters is the one that was actually sent.
 */
export function declaredTools(response: unknown): Map<string, DeclaredTool> {
  const tools = new Map<string, DeclaredTool>();
  if (!isPlainObject(response)) return tools;
  for (const tool of asArray(response.tools)) {
    if (!isPlainObject(tool)) continue;
    const found = declaration(tool);
    if (found?.[0]) tools.set(found[0], found[1]);
  }
  return tools;
}
