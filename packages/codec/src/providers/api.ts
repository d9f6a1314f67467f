/**
 * What every provider API module holds (one module per API in this folder,
 * one line per module in registry.ts): the tool definition it sends, the
 * response reader, the tool-result writer, the stream-event reader, and, for
 * the APIs the eval harness calls directly, the HTTP exchange. Responses and
 * stream events are data from the network: every reader is structural, loose
 * in what it accepts and checks each field at run time, never throwing on junk.
 *
 * The structured-output slot (`answer`: the answer format's request fragment,
 * the reader of the answer's text and of its refusal, cut or block, whole and
 * streamed) is filled in by the modules whose API has structured outputs.
 * A slot a later step adds in the same manner: the stream reader's "end of
 * response" event for tool calls (the stop reason a stream ends with:
 * `response.completed`, a choice's `finish_reason`,
 * `message_delta.stop_reason`, `messageStop`).
 */
import type { CodecError } from "../errors.js";
import type { JsonObject } from "../json.js";
import type { CompiledTool, TargetName } from "../targets/profile.js";

/**
 * One tool call, provider-neutral. The response readers are the one place that
 * say what a provider response holds: the dispatcher answers these calls, the
 * classifier (`@strictwire/codec/providers`) classifies the very same ones and
 * the eval harness scores them.
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
   * Gemini "MAX_TOKENS", Bedrock Converse "max_tokens" or
   * "model_context_window_exceeded".
   * Whatever the reason, a cut leaves the last arguments unfinished.
   * "unreadable": the response itself could not be read (a getter or a
   * `Proxy` that throws), so none of its calls is given.
   */
  readonly truncation: string | undefined;
}

/** One answered call, as a tool-result writer takes it: `output` is the text sent back. */
export interface AnsweredCall {
  readonly id: string;
  readonly name: string;
  /** false: the call was refused or failed, and the answer says why. */
  readonly ok: boolean;
  readonly output: string;
}

// ---- stream events ----------------------------------------------------------

/**
 * What receives one call's argument text. `end` comes only at the provider's
 * own end of the call (its stop event); a call the stream left open gets
 * `cut` instead, and a call the stream broke the protocol for gets `refuse`
 * first (its text can no longer be trusted, whatever it says).
 */
export interface DeltaSink {
  push(delta: string): unknown;
  /** The provider ended the call: its text is whole. */
  end(): unknown;
  /** The stream ended (or was cut) without the provider ending the call: never a call to act on. */
  cut?(): unknown;
  /** The stream broke its own protocol for this call (a repeated id, arguments that disagree): never a call to act on. */
  refuse?(error: CodecError): unknown;
  /**
   * The most UTF-8 bytes of argument text the sink reads (its codec's
   * `limits.maxBytes`; absent: the default limit). A reader that keeps a
   * call's text (Responses, to compare with the arguments its end restates)
   * keeps no more: past it, the call is refused as decode refuses such a text
   * (`input-too-large`), unless the sink has refused it already.
   */
  readonly maxBytes?: number;
  /** true once the sink refused the call whatever text follows (its decoder refused it): its text is no longer kept. */
  readonly refused?: boolean;
}

export interface StreamedCall<S extends DeltaSink> {
  /** The provider's call id (Responses: `call_id`; the others: the tool call's own id). */
  readonly id: string;
  readonly name: string;
  readonly sink: S;
  /** The text pushed so far, in characters. */
  readonly pushed: number;
  /** No more text comes: the provider ended the call, or the stream did (`cut`). */
  readonly ended: boolean;
  /** The stream ended without the provider ending this call. */
  readonly cut: boolean;
}

export interface CallStreams<S extends DeltaSink> {
  /** Reads one stream event; the call it opened, fed or ended, if any. */
  event(event: unknown): StreamedCall<S> | undefined;
  /** The stream is over: every call still open is cut (the provider never ended it), never ended. */
  finish(): void;
  /** Every call opened so far, in the order they opened. */
  readonly calls: readonly StreamedCall<S>[];
}

/** What a stream reader may hold of a call it cannot open yet (Chat Completions: its id or name not come yet). */
export interface CallStreamsOptions {
  /**
   * The most UTF-8 bytes of argument text held for such a call (the largest
   * `limits.maxBytes` of the codecs its name may select; absent: the default
   * limit). Past it the call is refused (`stream-violation`) and its text let go.
   */
  readonly maxBytes?: number;
}

/** An API's stream-event reader: each call it streams gets its own sink, from `open`. */
export type CallStreamsReader = <S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
  options?: CallStreamsOptions,
) => CallStreams<S>;

// ---- the HTTP exchange (the eval harness) -----------------------------------

/** A tool as a request sends it, whatever the API's envelope. */
export interface RequestTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonObject;
  readonly strict: boolean;
}

export interface RequestSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly temperature: number;
}

/** A call as a direct exchange reads it: the arguments as text (an object is serialised). */
export interface ReplyCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface Reply {
  readonly calls: readonly ReplyCall[];
  readonly usage: { readonly input: number; readonly output: number } | undefined;
}

/** How a caller of the API's HTTP endpoint builds requests and reads the replies (through the module's reader). */
export interface Exchange {
  /** The public base URL. */
  readonly endpoint: string;
  /** The environment variable the provider's own tools read the key from. */
  readonly keyVariable: string;
  url(endpoint: string, model: string): string;
  headers(key: string): Record<string, string>;
  /** The first request of a trial: exactly one tool call required, parallel calls off. */
  request(settings: RequestSettings, system: string, user: string, tools: readonly RequestTool[]): JsonObject;
  /** `first` again, with the model's turn and `feedback` as the failed call's tool result. */
  repair(first: JsonObject, reply: unknown, call: ReplyCall, feedback: string): JsonObject;
  /** A request asking whether the API takes `tools` in strict mode: a call forced (to `only` when given). */
  probe(model: string, maxTokens: number, tools: readonly RequestTool[], only?: string): JsonObject;
  /** The function calls and usage of a successful response; undefined when the body is not this API's shape. */
  reply(body: unknown): Reply | undefined;
}

// ---- structured outputs (the answer held to a schema) ----------------------------

/** What an API's module reads out of one whole response's answer. */
export type AnswerRead =
  /** The answer's text, as the provider ended it. */
  | { readonly kind: "text"; readonly text: string }
  /** The model declined, in its own words (OpenAI's `refusal`), or by a stop reason (Anthropic's "refusal"). */
  | { readonly kind: "refused"; readonly message: string }
  /** The provider cut the answer (the token limit); `reason` is its own word for it. */
  | { readonly kind: "cut"; readonly reason: string }
  /** A safety filter stopped the answer (Gemini's SAFETY and its kin, OpenAI's content_filter). */
  | { readonly kind: "blocked"; readonly reason: string }
  /** The response holds no answer text (a tool call instead, an empty message, not a response at all). */
  | { readonly kind: "none"; readonly reason: string };

/**
 * What an API's stream events say about the answer, read one event at a
 * time. `end` is the provider's own end of the answer: the only signal after
 * which a value is given.
 */
export type AnswerSignal =
  | { readonly kind: "text"; readonly delta: string }
  /** Part of the model's refusal text (OpenAI streams it apart from the answer). */
  | { readonly kind: "refusal"; readonly delta: string }
  | { readonly kind: "end" }
  /** The provider ended the answer otherwise: refused, cut, blocked or with no answer. */
  | { readonly kind: "ended"; readonly read: Exclude<AnswerRead, { readonly kind: "text" }> }
  /**
   * The stream broke its own protocol for the answer (a text delta that
   * carries no text, so the answer would lack a piece): never a value.
   */
  | { readonly kind: "violation"; readonly message: string };

/**
 * An API's structured outputs: everything about them the API spells its own
 * way. `Format` is the request member(s) the answer format is.
 */
export interface AnswerSlot<Format = JsonObject> {
  /**
   * The request member(s) for a wire schema as the answer format; `strict`
   * false only for a bundle sent non-strict. A string: refused, and why (an
   * API with no strict switch cannot send a non-strict answer format).
   */
  format(wire: JsonObject, naming: { name: string; description?: string }, strict: boolean): Format | string;
  /** Reads a whole response; never throws. */
  read(response: unknown): AnswerRead;
  /** A reader of one stream's events, in order; never throws. */
  events(): (event: unknown) => readonly AnswerSignal[];
  /** The assistant's answer as the history holds it: the wire text the model wrote. */
  answerMessage(text: string): JsonObject;
  /** A user turn carrying feedback on a refused answer, for a repair turn. */
  repairMessage(feedback: string): JsonObject;
  /**
   * A minimal request asking for an answer in `format` (the probe's): no tool,
   * a tiny output cap. Where the API has an `exchange` (the probe calls it).
   */
  probe?(model: string, maxTokens: number, format: Format): JsonObject;
}

// ---- the module ---------------------------------------------------------------

/** Options of a tool definition that only some APIs have (`toolOptions` says which). */
export interface ToolOptions {
  /**
   * Anthropic's fine-grained tool streaming (`eager_input_streaming`): the
   * input streams without the API's check that it forms JSON, so a malformed
   * call reaches the client; the stream decoder refuses it at the first
   * impossible character.
   */
  readonly eagerInputStreaming?: boolean;
}

/**
 * One provider API. `Tool` is its tool definition, `Response` what its reader
 * is typed to take (an SDK's own response type fits), `Result` one message of
 * its tool results.
 */
export interface ProviderApiModule<Name extends string = string, Tool = unknown, Response = never, Result = unknown> {
  readonly name: Name;
  /** Earlier names of this API, still accepted wherever a name is a value (streaming's, the eval harness's). */
  readonly spellings: readonly string[];
  /** The strict-mode profile its wire schemas follow (targets/). */
  readonly target: TargetName;
  /** The tool definition of a tool compiled for `target` (registry.ts checks the target). */
  tool(bundle: CompiledTool, options?: ToolOptions): Tool;
  /** The tool-definition options this API has; any other is refused (`invalid-options`), never dropped. */
  readonly toolOptions?: readonly (keyof ToolOptions)[];
  /** The calls of one response, and whether it was cut off. */
  calls(response: Response): ExtractedCalls;
  /** Whether a stored response of unknown API is this API's (`storedCalls` asks each in registry order). */
  holds(response: Record<string, unknown>): boolean;
  /** The messages answering one turn's calls, in call order, for the next request (none for no calls). */
  results(calls: readonly AnsweredCall[]): Result[];
  /** Its stream events, call by call; absent where no reader exists yet. */
  readonly callStreams?: CallStreamsReader;
  /** Its HTTP exchange, for the APIs the eval harness and the CLI call directly. */
  readonly exchange?: Exchange;
  /** Its structured outputs, where the API has them. */
  readonly answer?: AnswerSlot<unknown>;
}
