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
 */
import type { Codec } from "../codec.js";
import { isPlainObject } from "../json.js";
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

/** A tool's other fields, passed through as they are; `inputSchema` and `strict` are the adapter's. */
export interface AiSdkToolFields<T> {
  readonly description?: string;
  readonly execute?: (input: T, options: AiSdkExecuteOptions) => unknown;
  readonly inputSchema?: never;
  readonly strict?: never;
  readonly [field: string]: unknown;
}

export type AiSdkTool<T, F> = Omit<F, "inputSchema" | "strict"> & {
  readonly description?: string;
  readonly inputSchema: StandardCodecSchema<T>;
  readonly strict: true;
};

/**
 * A complete AI SDK tool for a codec, strict on: `tools: { get_weather:
 * aiSdkTool(codec, { execute }) }`. The SDK passes a tool's `strict` to its
 * provider, which sends it as each API spells it: `@ai-sdk/openai` as
 * `strict: true` on Responses and Chat tools, `@ai-sdk/anthropic` as
 * `strict: true` (only for the models it knows to support structured
 * outputs; it warns and drops it for others), `@ai-sdk/google` as
 * `toolConfig.functionCallingConfig.mode: "VALIDATED"`. The description
 * defaults to the bundle's.
 */
export function aiSdkTool<T, const F extends AiSdkToolFields<T>>(codec: Codec<T>, fields: F): AiSdkTool<T, F> {
  const description = fields.description ?? codec.bundle.description;
  return {
    ...fields,
    ...(description !== undefined ? { description } : {}),
    inputSchema: aiSdkInputSchema(codec),
    strict: true,
  } as AiSdkTool<T, F>;
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
      const wire = codec?.encode(part.input);
      if (wire === undefined || !wire.ok) return part;
      changed = true;
      return { ...part, input: wire.value };
    });
    return changed ? ({ ...message, content } as M) : message;
  });
}
