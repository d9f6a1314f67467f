/**
 * The harness's side of the provider APIs. How each API's request is built,
 * its reply read and its repair turn written lives in that API's module
 * (`@strictwire/codec/providers`, the module's `exchange`), which reads the
 * reply through the same reader the dispatcher and the classifier use. Here:
 * the two extra tools, offered identically in every arm, by which the model
 * says "clarify" or "reject", and the harness's names for what moved.
 */
import {
  type Exchange,
  gemini,
  type ProviderApi,
  type ProviderApiName,
  type ProviderApiWith,
  providerApi,
  geminiRequest as providerGeminiRequest,
  providerModule,
  type Reply,
  type ReplyCall,
  type RequestSettings,
  type RequestTool,
} from "@strictwire/codec/providers";
import type { JsonObject } from "./suite.js";

export type { Reply };

/** The provider APIs the harness calls directly: those whose module has an HTTP exchange. */
export type ExchangeApi = ProviderApiWith<"exchange">;

/** An API the harness calls, by its name or an earlier spelling ("chat", "responses"). */
export type ExchangeApiName = ProviderApiName<ExchangeApi>;

/**
 * @deprecated since 0.2: use ExchangeApiName (a ProviderApi name; these
 * earlier names are among the spellings it accepts).
 */
export type Api = "chat" | "responses" | "anthropic" | "gemini";

/** @deprecated since 0.2: use RequestTool from `@strictwire/codec/providers`. */
export type SentTool = RequestTool;

/** @deprecated since 0.2: use RequestSettings from `@strictwire/codec/providers`. */
export type Settings = RequestSettings;

/** @deprecated since 0.2: use ReplyCall from `@strictwire/codec/providers`. */
export type ToolCall = ReplyCall;

/** The API a name or an earlier spelling names, when the harness can call it. */
export function exchangeApi(name: string): ExchangeApi | undefined {
  const api: ProviderApi | undefined = providerApi(name);
  return api !== undefined && (providerModule(api) as { exchange?: Exchange }).exchange !== undefined
    ? (api as ExchangeApi)
    : undefined;
}

/** The HTTP exchange of an API the harness calls, by its name or an earlier spelling. */
export function exchangeOf(api: ExchangeApiName): Exchange {
  const exchange = (providerModule(api) as { exchange?: Exchange }).exchange;
  // Only a caller outside TypeScript can name an API without one.
  if (exchange === undefined) throw new TypeError(`the harness cannot call the ${api} API`);
  return exchange;
}

export const CLARIFY_TOOL: RequestTool = {
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

export const REFUSE_TOOL: RequestTool = {
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

/** The first request of a trial: the arm's tool and the two extra ones; exactly one tool call is required. */
export function buildRequest(
  api: ExchangeApiName,
  s: RequestSettings,
  system: string,
  user: string,
  tool: RequestTool,
): JsonObject {
  return exchangeOf(api).request(s, system, user, [tool, CLARIFY_TOOL, REFUSE_TOOL]) as JsonObject;
}

/** @deprecated since 0.2: use `providerModule(api).exchange.endpoint` (`@strictwire/codec/providers`). */
export const DEFAULT_ENDPOINTS: Readonly<Record<ExchangeApiName, string>> = Object.fromEntries(
  (["openai-chat", "openai-responses", "anthropic", "gemini"] as const).flatMap((api) => {
    const module = providerModule(api);
    return [api, ...module.spellings].map((name) => [name, module.exchange.endpoint]);
  }),
) as Record<ExchangeApiName, string>;

/** @deprecated since 0.2: use `providerModule(api).exchange.reply` (`@strictwire/codec/providers`). */
export function readReply(api: ExchangeApiName, body: unknown): Reply | undefined {
  return exchangeOf(api).reply(body);
}

/** @deprecated since 0.2: use `providerModule(api).exchange.repair` (`@strictwire/codec/providers`). */
export function repairRequest(
  api: ExchangeApiName,
  first: JsonObject,
  reply: unknown,
  call: ReplyCall,
  feedback: string,
): JsonObject {
  return exchangeOf(api).repair(first, reply, call, feedback) as JsonObject;
}

/** @deprecated since 0.2: use `providerModule("gemini").exchange.endpoint` (`@strictwire/codec/providers`). */
export const GEMINI_ENDPOINT = gemini.exchange.endpoint;

/** @deprecated since 0.2: use geminiRequest from `@strictwire/codec/providers`. */
export const geminiRequest = providerGeminiRequest;

/** @deprecated since 0.2: use `providerModule("gemini").exchange.reply` (`@strictwire/codec/providers`). */
export function readGeminiReply(body: unknown): Reply | undefined {
  return gemini.exchange.reply(body);
}
