/**
 * Vercel AI SDK adapter (ai 6 and ai 7: examples/test/ai-sdk-versions.test.ts
 * runs both), with no `ai` import: the SDK accepts, as a
 * tool's `inputSchema`, any Standard Schema that also carries Standard JSON
 * Schema. The JSON Schema it sends the model is the wire schema; `validate`
 * decodes, so `execute` receives the original value.
 *
 *   tool({ description, inputSchema: aiSdkInputSchema(codec), execute: async (args) => ... })
 *
 * A codec is such a schema itself (`codec["~standard"]`); this adapter differs
 * in what a failure says: one issue carrying the codec's feedback, which the SDK
 * passes back to the model in its tool-error result. For a Zod or other
 * Standard JSON Schema tool, give it `compileCodec(schema).value`: that codec's
 * decode ends with the library's own validation.
 *
 * `aiSdkInputSchema` alone leaves the tool's `strict` to the caller, and the
 * SDK's default is off: the providers then send the tool non-strict. The
 * complete tool, strict on, is `aiSdkTool`.
 *
 * The SDK parses a call's text with its own JSON.parse before any schema
 * sees it, so a repeated member name (the last one wins), a lone surrogate
 * and the byte, depth and node limits are never checked on that text.
 * `aiSdkMiddleware(codecs)`, given to `wrapLanguageModel`, is what keeps
 * decode's promises on this path: it hands the SDK each call's text as a
 * JSON string, which the codec's `validate` decodes as text.
 */

import { isPlainObject } from "../json.js";
import type { Codec } from "../public-codec.js";
import { streamDecoder } from "../stream/decoder.js";
import type { StreamDecoder } from "../stream/types.js";
import type { ToolCodecs } from "./dispatcher.js";
import { buildProps, issueAt, type StandardCodecSchema } from "./standard.js";

export function aiSdkInputSchema<T>(codec: Codec<T>): StandardCodecSchema<T> {
  return { "~standard": buildProps(codec, (error) => [issueAt(error.feedback, error.path)]) };
}

/** What the SDK hands `execute` besides the input (the fields ai 6 and ai 7 share). */
export interface AiSdkExecuteOptions {
  readonly toolCallId: string;
  readonly abortSignal?: AbortSignal;
}

/**
 * What `aiSdkTool`'s `onInputDelta` receives: the SDK's options for the
 * delta (the call id, the messages, the abort signal) with the call's
 * partial value in the SOURCE form in place of the model's wire text.
 */
export interface AiSdkInputDeltaOptions {
  readonly toolCallId: string;
  /** The codec's stream decoder's partial value after this delta: display only, never validated. */
  readonly partial: unknown;
  readonly abortSignal?: AbortSignal;
  readonly [option: string]: unknown;
}

/** The options the SDK calls `onInputDelta` with (the fields ai 6 and ai 7 share). */
export interface AiSdkInputTextDelta {
  readonly inputTextDelta: string;
  readonly toolCallId: string;
}

/** A tool's other fields, passed through as they are; `inputSchema` and `strict` are the adapter's. */
export interface AiSdkToolFields<T> {
  readonly description?: string;
  readonly execute?: (input: T, options: AiSdkExecuteOptions) => unknown;
  /**
   * Called when a delta changed the call's partial source value (not for
   * every delta), with that value; no more once the text so far can no
   * longer decode. The SDK calls it only when streaming.
   */
  readonly onInputDelta?: (options: AiSdkInputDeltaOptions) => void | PromiseLike<void>;
  readonly inputSchema?: never;
  readonly strict?: never;
  readonly [field: string]: unknown;
}

export type AiSdkTool<T, F> = Omit<F, "inputSchema" | "strict" | "onInputDelta"> & {
  readonly description?: string;
  readonly inputSchema: StandardCodecSchema<T>;
  readonly strict: true;
} & (F extends { readonly onInputDelta: unknown }
    ? { readonly onInputDelta: (options: AiSdkInputTextDelta) => Promise<void> }
    : unknown);

/**
 * A complete AI SDK tool for a codec, strict on: `tools: { get_weather:
 * aiSdkTool(codec, { execute }) }`. The SDK passes a tool's `strict` to its
 * provider, which sends it as each API spells it: `@ai-sdk/openai` as
 * `strict: true` on Responses and Chat tools, `@ai-sdk/anthropic` as
 * `strict: true` (only for the models it knows to support structured
 * outputs; it warns and drops it for others), `@ai-sdk/google` as
 * `toolConfig.functionCallingConfig.mode: "VALIDATED"`. The description
 * defaults to the bundle's.
 *
 * The tool alone validates the value the SDK's own JSON.parse built: a
 * repeated member name has already been merged (the last one wins), and a
 * lone surrogate or the byte limit go unchecked. `aiSdkMiddleware(codecs)`
 * on the model is what keeps decode's promises on the raw text.
 * `onInputDelta` receives the partial SOURCE value (`partial`), not the
 * wire text; `execute`, `needsApproval` and `onInputAvailable` the decoded
 * value.
 */
export function aiSdkTool<T, const F extends AiSdkToolFields<T>>(codec: Codec<T>, fields: F): AiSdkTool<T, F> {
  const description = fields.description ?? codec.bundle.description;
  const onInputDelta = fields.onInputDelta;
  return {
    ...fields,
    ...(description !== undefined ? { description } : {}),
    ...(onInputDelta !== undefined ? sourceInputDeltas(codec, fields, onInputDelta) : {}),
    inputSchema: aiSdkInputSchema(codec),
    strict: true,
  } as unknown as AiSdkTool<T, F>;
}

/** Calls being written at once, past which the oldest call's decoder is dropped (a call the SDK never ended). */
const OPEN_CALLS = 256;

/**
 * `onInputDelta` in the source form: each call's deltas go to a stream
 * decoder of its own, made at its first delta and dropped at
 * `onInputAvailable` (wrapped, the caller's own still called) or at a refusal.
 */
function sourceInputDeltas<T>(
  codec: Codec<T>,
  fields: AiSdkToolFields<T>,
  onInputDelta: NonNullable<AiSdkToolFields<T>["onInputDelta"]>,
): Record<string, unknown> {
  const calls = new Map<string, StreamDecoder<T>>();
  const onInputAvailable = fields.onInputAvailable;
  return {
    onInputDelta: async ({ inputTextDelta, ...options }: AiSdkInputTextDelta): Promise<void> => {
      let decoder = calls.get(options.toolCallId);
      if (decoder === undefined) {
        if (calls.size >= OPEN_CALLS) calls.delete(calls.keys().next().value!);
        decoder = streamDecoder(codec);
        calls.set(options.toolCallId, decoder);
      }
      const step = decoder.push(inputTextDelta);
      if (!step.ok) {
        calls.delete(options.toolCallId);
        return;
      }
      if (step.changed) await onInputDelta({ ...options, partial: step.value });
    },
    onInputAvailable: async (options: { readonly toolCallId: string }): Promise<void> => {
      calls.delete(options.toolCallId);
      if (typeof onInputAvailable === "function") await onInputAvailable(options);
    },
  };
}

/** How many calls' texts a middleware keeps, to show the model its calls as written. */
const KEPT_TEXTS = 1024;

/** A model's text as a JSON value (a provider writes a call's input with JSON.stringify); undefined if not JSON. */
function jsonValue(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A tool call as the language model gives it (the fields of ai 6's v3 and ai 7's v4 specification). */
interface ModelToolCall {
  readonly type: "tool-call";
  readonly toolName: string;
  readonly input: string;
  readonly providerExecuted?: boolean;
}

/** The language-model middleware `aiSdkMiddleware` gives, for `wrapLanguageModel({ model, middleware })`. */
export interface AiSdkMiddleware<V extends "v3" | "v4"> {
  readonly specificationVersion: V;
  transformParams<P>(options: { readonly params: P }): Promise<P>;
  wrapGenerate<R extends { readonly content: readonly unknown[] }>(options: {
    readonly doGenerate: () => PromiseLike<R>;
  }): Promise<R>;
  wrapStream<R extends { readonly stream: ReadableStream<unknown> }>(options: {
    readonly doStream: () => PromiseLike<R>;
  }): Promise<R>;
}

export interface AiSdkMiddlewareOptions<V extends "v3" | "v4"> {
  /** The AI SDK's language-model specification: "v3" for ai 6 (the default), "v4" for ai 7. */
  readonly specificationVersion?: V;
}

/**
 * `wrapLanguageModel({ model, middleware: aiSdkMiddleware(codecs) })`:
 * decode's promises on the raw text of every call of a tool in `codecs`.
 *
 * The SDK would parse a call's text with JSON.parse (a repeated member name
 * silently last-wins; lone surrogates, size, depth and node count
 * unchecked) and validate the value. The middleware sees each call's text
 * before that (`wrapGenerate`: each `tool-call` content part; `wrapStream`:
 * each `tool-call` stream part) and hands it on as a JSON string holding
 * that text; the SDK parses that string back to the text, and the tool's
 * input schema (`aiSdkTool`, `aiSdkInputSchema` or the codec itself)
 * decodes a string as the raw text: `codec.decode(text)`, every check
 * included. A call decode refuses is the SDK's tool error (`execute` never
 * runs) carrying decode's feedback, which the SDK sends the model as the
 * call's result; a call it accepts reaches `execute` decoded, as before.
 *
 * Only for tools whose input schema is the codec: a tool with another
 * schema (Zod, say) refuses every call then (a string is not its object),
 * never runs one unchecked. Give it once. An empty text is left as it is
 * (the SDK reads it as `{}`: no text to check). Calls the provider ran
 * itself, and tools not in `codecs`, pass unchanged. `tool-input-delta`
 * parts pass unchanged (display only: `aiSdkSourceInput` shows them in the
 * source form and refuses early).
 *
 * Later requests: the SDK keeps a call's validated (decoded) value as its
 * input in the history, and `{}` for a call it refused. `transformParams`
 * puts back, for every call this middleware handed on (the last 1,024 by
 * id), the model's own text as its JSON value, so the model is shown its
 * calls as it wrote them (the wire form; a repeated name once).
 */
export function aiSdkMiddleware<V extends "v3" | "v4" = "v3">(
  codecs: ToolCodecs,
  options: AiSdkMiddlewareOptions<V> = {},
): AiSdkMiddleware<V> {
  /** The text of each call handed on, by id, oldest first. */
  const texts = new Map<string, string>();
  const sealed = (part: unknown): unknown => {
    if (!isPlainObject(part) || part.type !== "tool-call" || part.providerExecuted === true) return part;
    const call = part as unknown as ModelToolCall & { readonly toolCallId?: unknown };
    if (typeof call.input !== "string" || call.input.trim() === "" || !Object.hasOwn(codecs, call.toolName)) {
      return part;
    }
    if (typeof call.toolCallId === "string") {
      texts.delete(call.toolCallId);
      texts.set(call.toolCallId, call.input);
      if (texts.size > KEPT_TEXTS) texts.delete(texts.keys().next().value!);
    }
    return { ...call, input: JSON.stringify(call.input) };
  };
  /** A prompt's tool-call part of a call handed on, with the model's text as its input. */
  const restored = (part: unknown): unknown => {
    if (!isPlainObject(part) || part.type !== "tool-call" || typeof part.toolCallId !== "string") return part;
    const text = texts.get(part.toolCallId);
    const value = text === undefined ? undefined : jsonValue(text);
    return value === undefined ? part : { ...part, input: value.value };
  };
  return {
    specificationVersion: options.specificationVersion ?? ("v3" as V),
    async transformParams({ params }) {
      if (texts.size === 0 || !isPlainObject(params) || !Array.isArray(params.prompt)) return params;
      const prompt = params.prompt.map((message: unknown) =>
        isPlainObject(message) && message.role === "assistant" && Array.isArray(message.content)
          ? { ...message, content: message.content.map(restored) }
          : message,
      );
      return { ...params, prompt } as typeof params;
    },
    async wrapGenerate({ doGenerate }) {
      const result = await doGenerate();
      return { ...result, content: result.content.map(sealed) };
    },
    async wrapStream({ doStream }) {
      const result = await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream<unknown, unknown>({ transform: (part, controller) => controller.enqueue(sealed(part)) }),
      );
      return { ...result, stream };
    },
  };
}

/**
 * The SDK keeps the validated value as a call's `input` in the message
 * history, so later steps would show the model its own calls in the original
 * form, not the wire form it is asked to write, and a model copies what it
 * sees. This puts the wire form back, for the model's eyes only:
 *
 *   prepareStep: ({ messages }) => ({ messages: aiSdkWireMessages(messages, codecs) })
 *
 * Messages are not changed in place. A call whose input does not encode (one
 * the SDK already found invalid holds the model's own text) is left as it is.
 */
export function aiSdkWireMessages<M>(messages: readonly M[], codecs: ToolCodecs): M[] {
  return messages.map((message) => {
    if (!isPlainObject(message) || message.role !== "assistant" || !Array.isArray(message.content)) return message;
    let changed = false;
    const content = message.content.map((part: unknown) => {
      if (!isPlainObject(part) || part.type !== "tool-call" || typeof part.toolName !== "string") return part;
      const codec = Object.hasOwn(codecs, part.toolName) ? codecs[part.toolName] : undefined;
      if (codec === undefined) return part;
      const wire = codec.encode(part.input);
      if (!wire.ok) return part;
      changed = true;
      return { ...part, input: wire.value };
    });
    return changed ? ({ ...message, content } as M) : message;
  });
}
