/**
 * Readers for the three response shapes: Responses API, Chat Completions and
 * Anthropic Messages. All pure, and all survive junk: a reader handed
 * something that is not a response returns nothing rather than throwing.
 */
import { asArray, isRecord } from "./json.js";

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

/** Every function call in a stored response, in the order the model emitted them. */
export function functionCalls(response: unknown): ToolCall[] {
  if (!isRecord(response)) return [];
  const calls: ToolCall[] = [];
  for (const item of asArray(response.output)) {
    if (!isRecord(item) || item.type !== "function_call") continue;
    calls.push({ name: text(item.name), callId: text(item.call_id ?? item.id), arguments: item.arguments });
  }
  for (const choice of asArray(response.choices)) {
    const message = isRecord(choice) ? choice.message : undefined;
    for (const call of asArray(isRecord(message) ? message.tool_calls : undefined)) {
      // Custom (grammar) tool calls carry no JSON arguments to check.
      if (!isRecord(call) || (call.type !== undefined && call.type !== "function")) continue;
      const fn = isRecord(call.function) ? call.function : {};
      calls.push({ name: text(fn.name), callId: text(call.id), arguments: fn.arguments });
    }
  }
  for (const block of asArray(response.content)) {
    if (!isRecord(block) || block.type !== "tool_use") continue;
    calls.push({ name: text(block.name), callId: text(block.id), arguments: block.input });
  }
  return calls;
}

// Anthropic client tools with a schema built into the model (bash_20250124,
// text_editor_20250728, computer_20250124): declared, but with no schema here.
const VERSIONED_CLIENT_TOOL = /^[a-z_]+_\d{8}$/;

function declaration(tool: Record<string, unknown>): [string, DeclaredTool] | undefined {
  const type = text(tool.type ?? "function");
  if (type === "function") {
    const inner = isRecord(tool.function) ? tool.function : tool;
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
  if (!isRecord(response)) return tools;
  for (const tool of asArray(response.tools)) {
    if (!isRecord(tool)) continue;
    const found = declaration(tool);
    if (found?.[0]) tools.set(found[0], found[1]);
  }
  return tools;
}

/** Did this response stop on the output ceiling? */
export function wasTruncated(response: unknown): boolean {
  if (!isRecord(response)) return false;
  if (text(response.status) === "incomplete") {
    const details = isRecord(response.incomplete_details) ? response.incomplete_details : {};
    return text(details.reason) === "max_output_tokens";
  }
  for (const choice of asArray(response.choices)) {
    if (isRecord(choice) && text(choice.finish_reason) === "length") return true;
  }
  return text(response.stop_reason) === "max_tokens";
}
