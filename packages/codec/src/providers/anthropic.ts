/**
 * The Anthropic Messages API (`client.messages.create`): everything strictwire
 * knows of it. Tools are `{ name, input_schema, strict }`; calls are
 * `tool_use` content blocks (input as an object), answered by one user
 * message of `tool_result` blocks naming `tool_use_id`; a cut is
 * `stop_reason` "max_tokens" or "model_context_window_exceeded"; a message
 * whose `stop_reason` is null is not over, and all its calls are cut off.
 *
 * Stream events: `content_block_start` with a `tool_use` block (`id`,
 * `name`) at `index` opens a call; `content_block_delta` with an
 * `input_json_delta` (`partial_json`) feeds it; `content_block_stop` ends
 * it. A tool_use block streamed with no delta has the input its start
 * carried (`{}` for no arguments), which is pushed as its text. Indexes start
 * again in each message (`message_start`), so one reader can follow a whole
 * conversation's streams. Fine-grained tool streaming (`eager_input_streaming`
 * on a tool: `toolDefinition(bundle, "anthropic", { eagerInputStreaming: true })`)
 * streams the same events, without the API's own check that the deltas form
 * JSON: the stream decoder's early refusal is that check.
 */
import { isPlainObject, type JsonObject } from "../json.js";
import type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  DeltaSink,
  Exchange,
  ExtractedCalls,
  ProviderApiModule,
  RawCall,
  ReplyCall,
} from "./api.js";
import {
  answerNotText,
  type Call,
  Calls,
  inputText,
  isStrict,
  keptWords,
  listOf,
  NO_CALLS,
  named,
  notText,
  streams,
  stringOr,
  TEXT_LOST,
  usageOf,
  wholeCalls,
} from "./shared.js";

// ---- shapes -------------------------------------------------------------------

export interface AnthropicTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: JsonObject;
  readonly strict: boolean;
  /** Fine-grained tool streaming, when asked for (`ToolOptions.eagerInputStreaming`). */
  readonly eager_input_streaming?: true;
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

/** `output_config.format` of a Messages request: the answer held to `schema` (no strict switch: always held). */
export interface AnthropicOutputFormat {
  readonly output_config: { readonly format: { readonly type: "json_schema"; readonly schema: JsonObject } };
}

// ---- reading ------------------------------------------------------------------

export function anthropicCalls(message: AnthropicMessageLike): ExtractedCalls {
  return wholeCalls(readAnthropicCalls, message);
}

function readAnthropicCalls(message: AnthropicMessageLike): ExtractedCalls {
  // Typed as an object, but a stored response is whatever the JSON held (`null`).
  if (!isPlainObject(message)) return NO_CALLS;
  const stop = message.stop_reason;
  const truncation = stop === "max_tokens" || stop === "model_context_window_exceeded" ? stop : undefined;
  // A null stop_reason: the message is not over (the SDK's snapshot of a stream, one the connection dropped), so no
  // call of it is whole for sure: its blocks' ends are not in it, and the SDK gives a partial input parsed.
  const unfinished = stop === null;
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
      cutOff: unfinished || (truncation !== undefined && i === content.length - 1),
    });
  });
  return { calls, truncation };
}

/** One user message of `tool_result` blocks (none when there were no calls). */
export function anthropicResults(calls: readonly AnsweredCall[]): AnthropicToolResultMessage[] {
  if (calls.length === 0) return [];
  const content = calls.map(
    (c): AnthropicToolResultBlock => ({
      type: "tool_result",
      tool_use_id: c.id,
      content: c.output,
      ...(c.ok ? {} : { is_error: true as const }),
    }),
  );
  return [{ role: "user", content }];
}

/** Anthropic Messages stream events. */
export function anthropicCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  // A tool_use block's input at its start, pushed at its stop when no delta came.
  const startInput = new Map<Call<S>, unknown>();
  // Block indexes start again at 0 in each message: a call is named by its message and its index.
  let message = 0;
  return streams(calls, (e) => {
    if (e.type === "message_start") {
      message++;
      return undefined;
    }
    if (typeof e.index !== "number") return undefined;
    const key = `${message}:${e.index}`;
    if (e.type === "content_block_start") {
      const block = e.content_block;
      if (!isPlainObject(block) || block.type !== "tool_use") return undefined;
      if (typeof block.id !== "string" || typeof block.name !== "string") return undefined;
      const call = calls.start(key, block.id, block.name);
      if (call !== undefined) startInput.set(call, block.input);
      return call;
    }
    const call = calls.get(key);
    if (e.type === "content_block_delta") {
      const delta = e.delta;
      if (!isPlainObject(delta) || delta.type !== "input_json_delta" || typeof delta.partial_json !== "string") {
        // A tool_use block's deltas are its input's text: one that is not would be text lost from the call.
        return calls.refuse(call, notText(`content_block_delta for the tool_use block at index ${e.index}`));
      }
      return calls.push(call, delta.partial_json);
    }
    if (e.type === "content_block_stop") {
      if (call !== undefined && call.pushed === 0) {
        const input = startInput.get(call);
        calls.push(call, inputText(input));
      }
      return calls.end(call);
    }
    return undefined;
  });
}

// ---- structured outputs ---------------------------------------------------------

/** Stop reasons that cut the answer (`StopReason` in `@anthropic-ai/sdk`'s types). */
const ANSWER_CUT = new Set(["max_tokens", "model_context_window_exceeded"]);

/** A "refusal" stop, whole or streamed: the model's words when it wrote any, else the stop reason itself. */
function refusal(text: string): Extract<AnswerRead, { readonly kind: "refused" }> {
  return { kind: "refused", message: text === "" ? "stop_reason refusal" : text };
}

function anthropicAnswer(message: unknown): AnswerRead {
  if (!isPlainObject(message)) return { kind: "none", reason: "not a message" };
  const stop = message.stop_reason;
  let text = "";
  for (const block of listOf(message.content)) {
    if (!isPlainObject(block) || block.type !== "text") continue;
    // A text block without text would leave the answer short of a piece: no answer, never a shorter one.
    if (typeof block.text !== "string") return { kind: "none", reason: TEXT_LOST };
    text += block.text;
  }
  if (stop === "refusal") return refusal(text);
  if (typeof stop === "string" && ANSWER_CUT.has(stop)) return { kind: "cut", reason: stop };
  // As in a stream, only these end the answer: "pause_turn" is a turn to be continued, "tool_use" a tool's turn.
  if (stop !== "end_turn" && stop !== "stop_sequence") {
    return { kind: "none", reason: typeof stop === "string" ? `stop_reason ${stop}` : "no stop_reason" };
  }
  if (text === "") return { kind: "none", reason: `stop_reason ${stop}` };
  return { kind: "text", text };
}

/** The text blocks' `text_delta`s; the answer ends at `message_stop`, under the stop reason `message_delta` gave. */
function anthropicAnswerEvents(): (event: unknown) => readonly AnswerSignal[] {
  let stop: unknown;
  const texts = new Set<number>();
  // The text given, for a refusal's words: only as much as an error shows (the answer's text is the decoder's).
  let written = "";
  const text = (delta: string): AnswerSignal => {
    written = keptWords(written, delta);
    return { kind: "text", delta };
  };
  return (e) => {
    if (!isPlainObject(e)) return [];
    switch (e.type) {
      case "content_block_start":
        if (typeof e.index === "number" && isPlainObject(e.content_block) && e.content_block.type === "text") {
          texts.add(e.index);
          const start = e.content_block.text;
          return typeof start === "string" && start !== "" ? [text(start)] : [];
        }
        return [];
      case "content_block_delta": {
        const delta = e.delta;
        // citations_delta and its kin carry no answer text.
        if (!isPlainObject(delta) || delta.type !== "text_delta") return [];
        // Only text blocks get text_deltas: one addressed to no open text block (its start lost) is text lost from the answer.
        if (typeof e.index !== "number" || !texts.has(e.index)) {
          return [
            { kind: "violation", message: "the stream sent a text_delta for no open text block: the answer lacks it" },
          ];
        }
        return typeof delta.text === "string" ? [text(delta.text)] : [answerNotText("text_delta")];
      }
      case "content_block_stop":
        if (typeof e.index === "number") texts.delete(e.index);
        return [];
      case "message_delta":
        if (isPlainObject(e.delta) && typeof e.delta.stop_reason === "string") stop = e.delta.stop_reason;
        return [];
      case "message_stop":
        if (stop === "refusal") return [{ kind: "ended", read: refusal(written) }];
        if (typeof stop === "string" && ANSWER_CUT.has(stop)) {
          return [{ kind: "ended", read: { kind: "cut", reason: stop } }];
        }
        if (stop === "end_turn" || stop === "stop_sequence") return [{ kind: "end" }];
        return [
          {
            kind: "ended",
            read: { kind: "none", reason: typeof stop === "string" ? `stop_reason ${stop}` : "no stop_reason" },
          },
        ];
      default:
        return [];
    }
  };
}

const answer: AnswerSlot<AnthropicOutputFormat> = {
  // An output format is always held to: there is no non-strict one to send.
  format: (schema, _naming, strict) =>
    strict
      ? { output_config: { format: { type: "json_schema", schema } } }
      : 'anthropic has no non-strict answer format: this bundle is over the target\'s limits (compiled with strict: "auto"); make the schema fit the limits',
  read: anthropicAnswer,
  events: anthropicAnswerEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
  probe: (model, maxTokens, format) => ({
    model,
    ...format,
    messages: [{ role: "user", content: "Answer in the format given." }],
    max_tokens: maxTokens,
  }),
};

// ---- the HTTP exchange --------------------------------------------------------

const exchange: Exchange = {
  endpoint: "https://api.anthropic.com/v1",
  keyVariable: "ANTHROPIC_API_KEY",
  url: (endpoint) => `${endpoint.replace(/\/+$/, "")}/messages`,
  headers: (key) => ({ "x-api-key": key, "anthropic-version": "2023-06-01" }),
  request: (s, system, user, tools) => ({
    model: s.model,
    system,
    messages: [{ role: "user", content: user }],
    // Anthropic's strict flag is opt-in: a tool sent non-strict carries none at all.
    tools: tools.map(
      (t): JsonObject =>
        t.strict
          ? { ...named(t), input_schema: t.parameters, strict: true }
          : { ...named(t), input_schema: t.parameters },
    ),
    tool_choice: { type: "any", disable_parallel_tool_use: true },
    temperature: s.temperature,
    max_tokens: s.maxTokens,
  }),
  repair(first, reply, call, feedback) {
    const messages = [
      ...(first.messages as unknown[]),
      { role: "assistant", content: isPlainObject(reply) ? reply.content : undefined },
      ...anthropicResults([{ id: call.id, name: call.name, ok: false, output: feedback }]),
    ];
    return { ...first, messages } as JsonObject;
  },
  probe: (model, maxTokens, tools, only) => ({
    model,
    tools: tools.map((t): JsonObject => ({ ...named(t), input_schema: t.parameters, strict: true })),
    tool_choice: only === undefined ? { type: "any" } : { type: "tool", name: only },
    messages: [{ role: "user", content: only === undefined ? "Call one of the tools." : `Call ${only}.` }],
    max_tokens: maxTokens,
  }),
  reply(body) {
    if (!isPlainObject(body) || !Array.isArray(body.content)) return undefined;
    const read = anthropicCalls(body as unknown as AnthropicMessageLike);
    // The input is an object: serialised ("" where JSON cannot write it, nested past the stack), the text scored.
    const calls = read.calls.flatMap((c): ReplyCall[] =>
      c.name !== undefined ? [{ id: c.id ?? "", name: c.name, arguments: inputText(c.arguments ?? null) }] : [],
    );
    return { calls, usage: usageOf(body.usage, "input_tokens", "output_tokens") };
  },
};

export const anthropic = {
  name: "anthropic",
  spellings: [],
  target: "anthropic",
  tool: (b, options): AnthropicTool => ({
    ...named(b),
    input_schema: b.wire,
    strict: isStrict(b),
    ...(options?.eagerInputStreaming === true ? { eager_input_streaming: true } : {}),
  }),
  toolOptions: ["eagerInputStreaming"],
  calls: anthropicCalls,
  holds: (response) => Array.isArray(response.content),
  results: anthropicResults,
  callStreams: anthropicCallStreams,
  exchange,
  answer,
} as const satisfies ProviderApiModule<"anthropic", AnthropicTool, AnthropicMessageLike, AnthropicToolResultMessage>;
