/**
 * Provider wire shapes: what a response holds (tool calls, and whether the
 * output was cut off) and what a tool result looks like in the next request.
 * Input types are structural and loose on purpose: the SDKs' own response
 * types are accepted, and every field is still checked at run time, because a
 * response is data from the network.
 */
import { isPlainObject } from "../json.js";

// ---- responses in ---------------------------------------------------------

/** An OpenAI Responses API response (`client.responses.create`). */
export interface ResponsesResponseLike {
  readonly status?: unknown;
  readonly incomplete_details?: unknown;
  readonly output: readonly ResponsesOutputItemLike[];
}

export interface ResponsesOutputItemLike {
  readonly type?: unknown;
  /** The item's own id (fc_…); never the call's, which is `call_id`. */
  readonly id?: unknown;
  readonly call_id?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
  readonly status?: unknown;
}

/** An OpenAI Chat Completions response (`client.chat.completions.create`); choice 0 is read. */
export interface ChatCompletionLike {
  readonly choices: readonly { readonly finish_reason?: unknown; readonly message?: unknown }[];
}

/** An Anthropic Messages API response (`client.messages.create`). */
export interface AnthropicMessageLike {
  readonly stop_reason?: unknown;
  readonly content: readonly AnthropicContentBlockLike[];
}

export interface AnthropicContentBlockLike {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly input?: unknown;
}

/** A Gemini `generateContent` response; candidate 0 is read. */
export interface GeminiResponseLike {
  readonly candidates?: readonly { readonly finishReason?: unknown; readonly content?: unknown }[];
}

// ---- tool results out -----------------------------------------------------

/** A Responses API input item answering one function call. */
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** A Chat Completions tool message answering one tool call. */
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  /** Set (true) only when the call did not succeed. */
  is_error?: true;
}

/** The one user message carrying every tool result of a turn, in call order. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/**
 * A Gemini part answering one function call. `response` is an object (a
 * Struct): `output` for a result, `error` for a refusal, the keys Gemini's
 * API reference names. `id` is the call's own, when it had one.
 */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string } | { error: string } };
}

/** The one user turn carrying every function response of a turn, in call order. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: GeminiFunctionResponsePart[];
}

// ---- reading calls out of a response ----------------------------------------

/**
 * One tool call, provider-neutral. This reader is the one place that says what
 * a provider response holds: the dispatcher answers these calls and the
 * classifier (`@strictwire/codec/providers`) classifies the very same ones.
 */
export interface RawCall {
  /** Undefined when the response gave no usable id: such a call cannot be answered. */
  readonly id: string | undefined;
  readonly name: string | undefined;
  /**
   * "function": JSON arguments for a declared function. "custom": free text for
   * a custom (grammar) tool, which no schema checks but which still needs an
   * answer. The readers always set it; absent (a call built by hand) is "function".
   */
  readonly kind?: "function" | "custom";
  readonly arguments: unknown;
  /** The provider marked this very call as cut off (or it is the one a cut-off ended in). */
  readonly cutOff: boolean;
}

export interface ExtractedCalls {
  readonly calls: readonly RawCall[];
  /**
   * Why the output was cut off, when it was: any incomplete reason of the
   * Responses API ("max_output_tokens", "content_filter"), Chat "length" or
   * "content_filter", Anthropic "max_tokens" or "model_context_window_exceeded",
   * Gemini "MAX_TOKENS".
   * Whatever the reason, a cut leaves the last arguments unfinished.
   */
  readonly truncation: string | undefined;
}

export function responsesCalls(response: ResponsesResponseLike): ExtractedCalls {
  let truncation: string | undefined;
  if (response.status === "incomplete") {
    const reason = isPlainObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    truncation = typeof reason === "string" ? reason : "incomplete";
  }
  const calls: RawCall[] = [];
  for (const item of listOf(response.output)) {
    if (!isPlainObject(item) || item.type !== "function_call") continue;
    // No fallback to `id` (the item id, fc_…): an answer must name call_id, and
    // the API refuses one that names anything else.
    calls.push({
      id: stringOr(item.call_id),
      name: stringOr(item.name),
      kind: "function",
      arguments: item.arguments,
      cutOff: item.status === "incomplete",
    });
  }
  return { calls, truncation };
}

/**
 * Choice 0 only: with n > 1 the choices are alternative replies, not calls of
 * one turn, and the one that goes back into the conversation is choice 0.
 */
export function chatCalls(completion: ChatCompletionLike): ExtractedCalls {
  const choice = listOf(completion.choices)[0];
  if (!isPlainObject(choice)) return { calls: [], truncation: undefined };
  const finish = choice.finish_reason;
  const truncation = finish === "length" || finish === "content_filter" ? finish : undefined;
  const message = isPlainObject(choice.message) ? choice.message : {};
  const calls: RawCall[] = [];
  for (const call of listOf(message.tool_calls)) {
    if (!isPlainObject(call)) continue;
    // A custom (free-text) tool call needs an answer too, or the next request is refused.
    const fn = isPlainObject(call.function) ? call.function : isPlainObject(call.custom) ? call.custom : {};
    const custom = call.type === "custom";
    calls.push({
      id: stringOr(call.id),
      name: stringOr(fn.name),
      kind: custom ? "custom" : "function",
      arguments: custom ? fn.input : fn.arguments,
      cutOff: false,
    });
  }
  return { calls, truncation };
}

export function anthropicCalls(message: AnthropicMessageLike): ExtractedCalls {
  const stop = message.stop_reason;
  const truncation = stop === "max_tokens" || stop === "model_context_window_exceeded" ? stop : undefined;
  const content = listOf(message.content);
  const calls: RawCall[] = [];
  content.forEach((block, i) => {
    if (!isPlainObject(block) || block.type !== "tool_use") return;
    calls.push({
      id: stringOr(block.id),
      name: stringOr(block.name),
      kind: "function",
      arguments: block.input,
      // Anthropic gives input as an object, so a cut shows no syntax error: the
      // block the output ended in cannot be trusted to be whole.
      cutOff: truncation !== undefined && i === content.length - 1,
    });
  });
  return { calls, truncation };
}

/**
 * Candidate 0 only, as with Chat's choices. A call without an id (older
 * models give none) is answered by name and position: its id is "". Gemini
 * gives `args` as an object, so, as with Anthropic, a cut (MAX_TOKENS) leaves
 * the last call untrustworthy.
 */
export function geminiCalls(response: GeminiResponseLike): ExtractedCalls {
  const candidate = listOf(response.candidates)[0];
  if (!isPlainObject(candidate)) return { calls: [], truncation: undefined };
  const truncation = candidate.finishReason === "MAX_TOKENS" ? "MAX_TOKENS" : undefined;
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  const parts = listOf(content.parts);
  const calls: RawCall[] = [];
  parts.forEach((part, i) => {
    if (!isPlainObject(part) || !isPlainObject(part.functionCall)) return;
    const call = part.functionCall;
    calls.push({
      id: call.id === undefined ? "" : stringOr(call.id),
      name: stringOr(call.name),
      kind: "function",
      // Absent args is a call with no arguments: Gemini leaves out an empty Struct.
      arguments: call.args === undefined ? {} : call.args,
      cutOff: truncation !== undefined && i === parts.length - 1,
    });
  });
  return { calls, truncation };
}

/**
 * The calls of a stored response of any of the four shapes, told apart by
 * their list: `output` (Responses), `choices` (Chat Completions), `content`
 * (Anthropic), `candidates` (Gemini). Anything else holds no calls; nothing here throws on junk.
 */
export function storedCalls(response: unknown): ExtractedCalls {
  if (!isPlainObject(response)) return { calls: [], truncation: undefined };
  if (Array.isArray(response.output)) return responsesCalls(response as unknown as ResponsesResponseLike);
  if (Array.isArray(response.choices)) return chatCalls(response as unknown as ChatCompletionLike);
  if (Array.isArray(response.content)) return anthropicCalls(response as unknown as AnthropicMessageLike);
  if (Array.isArray(response.candidates)) return geminiCalls(response as unknown as GeminiResponseLike);
  return { calls: [], truncation: undefined };
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
