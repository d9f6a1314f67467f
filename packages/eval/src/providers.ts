/**
 * The three wire formats: how a request is built, how the tool calls and the
 * usage are read back, and how strictwire's feedback goes back as a tool result.
 * Two extra tools, offered identically in every arm, are how the model says
 * "clarify" or "reject".
 */
import type { Api, SentTool } from "./arms.js";
import {
  GEMINI_ENDPOINT,
  geminiDeclaration,
  geminiHeaders,
  geminiRepairRequest,
  geminiRequest,
  geminiUrl,
  readGeminiReply,
} from "./gemini.js";
import type { JsonObject } from "./suite.js";

export const CLARIFY_TOOL: SentTool = {
  name: "ask_clarification",
  description: "Ask the user a question instead of acting, when the request does not determine every value to write.",
  parameters: {
    type: "object",
    properties: { question: { type: "string", description: "The question to ask the user." } },
    required: ["question"],
    additionalProperties: false,
  },
  strict: true,
};

export const REFUSE_TOOL: SentTool = {
  name: "refuse_request",
  description: "Refuse the request, when it is invalid, out of range, or not allowed by the policy.",
  parameters: {
    type: "object",
    properties: { reason: { type: "string", description: "Why the request is refused." } },
    required: ["reason"],
    additionalProperties: false,
  },
  strict: true,
};

export interface Settings {
  readonly model: string;
  readonly maxTokens: number;
  readonly temperature: number;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments text as the provider returned it (Anthropic returns an object: serialised here). */
  readonly arguments: string;
}

export interface Reply {
  readonly calls: readonly ToolCall[];
  readonly usage: { readonly input: number; readonly output: number } | undefined;
}

export const DEFAULT_ENDPOINTS: Readonly<Record<Api, string>> = {
  chat: "https://api.openai.com/v1",
  responses: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  gemini: GEMINI_ENDPOINT,
};

const PATHS: Readonly<Record<Exclude<Api, "gemini">, string>> = {
  chat: "/chat/completions",
  responses: "/responses",
  anthropic: "/messages",
};

/** Gemini names the model in the URL. */
export const requestUrl = (api: Api, endpoint: string, model = ""): string =>
  api === "gemini" ? geminiUrl(endpoint, model) : endpoint.replace(/\/+$/, "") + PATHS[api];

export function authHeaders(api: Api, key: string): Record<string, string> {
  if (api === "gemini") return geminiHeaders(key);
  return api === "anthropic"
    ? { "x-api-key": key, "anthropic-version": "2023-06-01" }
    : { authorization: `Bearer ${key}` };
}

function toolEnvelope(api: Api, t: SentTool): JsonObject {
  const named: JsonObject =
    t.description !== undefined ? { name: t.name, description: t.description } : { name: t.name };
  switch (api) {
    case "chat":
      return { type: "function", function: { ...named, parameters: t.parameters, strict: t.strict } };
    case "responses":
      return { type: "function", ...named, parameters: t.parameters, strict: t.strict };
    case "anthropic":
      // Anthropic's strict flag is opt-in: the control sends none at all.
      return t.strict
        ? { ...named, input_schema: t.parameters, strict: true }
        : { ...named, input_schema: t.parameters };
    case "gemini":
      return geminiDeclaration(t);
  }
}

/** The first request of a trial. Exactly one tool call is required; parallel calls are off. */
export function buildRequest(api: Api, s: Settings, system: string, user: string, tool: SentTool): JsonObject {
  if (api === "gemini") return geminiRequest(s, system, user, [tool, CLARIFY_TOOL, REFUSE_TOOL]);
  const tools = [tool, CLARIFY_TOOL, REFUSE_TOOL].map((t) => toolEnvelope(api, t));
  switch (api) {
    case "chat":
      return {
        model: s.model,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        tools,
        tool_choice: "required",
        parallel_tool_calls: false,
        temperature: s.temperature,
        max_completion_tokens: s.maxTokens,
      };
    case "responses":
      return {
        model: s.model,
        instructions: system,
        input: [{ role: "user", content: user }],
        tools,
        tool_choice: "required",
        parallel_tool_calls: false,
        temperature: s.temperature,
        max_output_tokens: s.maxTokens,
        store: false,
      };
    case "anthropic":
      return {
        model: s.model,
        system,
        messages: [{ role: "user", content: user }],
        tools,
        tool_choice: { type: "any", disable_parallel_tool_use: true },
        temperature: s.temperature,
        max_tokens: s.maxTokens,
      };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function usageOf(u: unknown, inKey: string, outKey: string): Reply["usage"] {
  if (!isObject(u)) return undefined;
  const input = num(u[inKey]);
  const output = num(u[outKey]);
  return input !== undefined && output !== undefined ? { input, output } : undefined;
}

/** The tool calls and usage of a successful response, or undefined when it is not the API's shape. */
export function readReply(api: Api, body: unknown): Reply | undefined {
  if (api === "gemini") return readGeminiReply(body);
  if (!isObject(body)) return undefined;
  if (api === "chat") {
    const message = Array.isArray(body.choices) && isObject(body.choices[0]) ? body.choices[0].message : undefined;
    if (!isObject(message)) return undefined;
    const raw = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    const calls = raw.flatMap((c): ToolCall[] =>
      isObject(c) && isObject(c.function) && typeof c.function.name === "string"
        ? [{ id: String(c.id ?? ""), name: c.function.name, arguments: String(c.function.arguments ?? "") }]
        : [],
    );
    return { calls, usage: usageOf(body.usage, "prompt_tokens", "completion_tokens") };
  }
  if (api === "responses") {
    if (!Array.isArray(body.output)) return undefined;
    const calls = body.output.flatMap((c): ToolCall[] =>
      isObject(c) && c.type === "function_call" && typeof c.name === "string"
        ? [{ id: String(c.call_id ?? ""), name: c.name, arguments: String(c.arguments ?? "") }]
        : [],
    );
    return { calls, usage: usageOf(body.usage, "input_tokens", "output_tokens") };
  }
  if (!Array.isArray(body.content)) return undefined;
  const calls = body.content.flatMap((c): ToolCall[] =>
    isObject(c) && c.type === "tool_use" && typeof c.name === "string"
      ? [{ id: String(c.id ?? ""), name: c.name, arguments: JSON.stringify(c.input ?? null) }]
      : [],
  );
  return { calls, usage: usageOf(body.usage, "input_tokens", "output_tokens") };
}

/** The request that returns strictwire's feedback as the result of the failed call. */
export function repairRequest(
  api: Api,
  first: JsonObject,
  reply: unknown,
  call: ToolCall,
  feedback: string,
): JsonObject {
  const r = reply as Record<string, unknown>;
  switch (api) {
    case "gemini":
      return geminiRepairRequest(first, reply, call, feedback);
    case "chat": {
      const message = (r.choices as { message: unknown }[])[0]?.message;
      const messages = [
        ...(first.messages as unknown[]),
        message,
        { role: "tool", tool_call_id: call.id, content: feedback },
      ];
      return { ...first, messages } as JsonObject;
    }
    case "responses": {
      const input = [
        ...(first.input as unknown[]),
        ...(r.output as unknown[]),
        { type: "function_call_output", call_id: call.id, output: feedback },
      ];
      return { ...first, input } as JsonObject;
    }
    case "anthropic": {
      const messages = [
        ...(first.messages as unknown[]),
        { role: "assistant", content: r.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: feedback, is_error: true }] },
      ];
      return { ...first, messages } as JsonObject;
    }
  }
}
