/**
 * The AI SDK's structured output (ai 6 `Output`), with no `ai` import:
 *
 *   generateText({ model, prompt, output: aiSdkOutput(codec) })   // result.output: decode's value
 *   streamText({ model, prompt, output: aiSdkOutput(codec) })     // partialOutputStream: source-form partials
 *
 * The SDK sends `responseFormat` (the wire) to its provider, which spells it
 * as its API does (`@ai-sdk/openai` and `@ai-sdk/anthropic` send the wire as
 * the API's strict answer format; `@ai-sdk/google` sends its own OpenAPI
 * translation of it, so Gemini holds the answer to less than the wire there;
 * decode still holds it to the contract: docs/structured-outputs.md). The final
 * parse is `decode`; the partial parse feeds the text to the codec's stream
 * decoder, so a partial shows the source form, never a tag or an entry array.
 *
 * The SDK's contract makes a failed final parse a throw: an `AiSdkAnswerError`
 * carrying the codec's error (code, path, feedback for a repair turn).
 */

import type { CodecError } from "../errors.js";
import type { JsonObject } from "../json.js";
import type { Codec } from "../public-codec.js";
import { streamDecoder } from "../stream/decoder.js";
import type { StreamDecoder } from "../stream/types.js";
import { type AnswerNaming, answerError } from "./answer.js";

/** A final parse that found no value: the codec's error, as the SDK's output promise rejects. */
export class AiSdkAnswerError extends Error {
  override readonly name = "AiSdkAnswerError";
  constructor(
    readonly error: CodecError,
    /** The answer's text as the SDK gave it. */
    readonly text: string,
  ) {
    super(error.message);
  }
}

/** The fields of ai 6's `Output` this adapter fills. */
export interface AiSdkOutput<T> {
  readonly name: "object";
  readonly responseFormat: PromiseLike<{
    type: "json";
    schema: JsonObject;
    name?: string;
    description?: string;
  }>;
  parseCompleteOutput(options: { text: string }, context: { finishReason: string }): Promise<T>;
  parsePartialOutput(options: { text: string }): Promise<{ partial: unknown } | undefined>;
  createElementStreamTransform(): undefined;
}

export interface AiSdkOutputOptions extends AnswerNaming {
  /** The answer's text can no longer decode (once per answer): e.g. abort the request. */
  readonly onRefusal?: (error: CodecError) => void;
}

/** How much of the text seen is compared to tell a continued answer from a new one (a new step). */
const TAIL = 32;

export function aiSdkOutput<T>(codec: Codec<T>, options: AiSdkOutputOptions = {}): AiSdkOutput<T> {
  const name = options.name ?? codec.bundle.name;
  const description = options.description ?? codec.bundle.description;
  // The answer being streamed: the text pushed so far, and its decoder.
  let decoder: StreamDecoder<T> | undefined;
  let seen = "";
  let refused = false;
  return {
    name: "object",
    responseFormat: Promise.resolve({
      type: "json" as const,
      schema: codec.wire,
      name,
      ...(description !== undefined ? { description } : {}),
    }),
    async parseCompleteOutput({ text }, { finishReason }) {
      // Only an answer the provider ended is decoded: a cut text may parse and still not be the answer.
      if (finishReason === "length") {
        throw new AiSdkAnswerError(answerError({ kind: "cut", reason: finishReason }), text);
      }
      if (finishReason === "content-filter") {
        // OpenAI's content_filter and Anthropic's refusal both arrive as this.
        throw new AiSdkAnswerError(answerError({ kind: "refused", message: finishReason }), text);
      }
      if (finishReason === "tool-calls" || text === "") {
        throw new AiSdkAnswerError(answerError({ kind: "none", reason: finishReason }), text);
      }
      if (finishReason !== "stop") {
        // "other", "error", "unknown": the provider packages give "other" to a stream that stopped
        // before the provider's own end event, whose text may still be whole JSON by chance.
        throw new AiSdkAnswerError(answerError({ kind: "cut", reason: `finish reason ${finishReason}` }), text);
      }
      const result = codec.decode(text);
      if (!result.ok) throw new AiSdkAnswerError(result.error, text);
      return result.value;
    },
    async parsePartialOutput({ text }) {
      // The SDK passes the whole text so far: push what it adds. A text that does not continue the
      // last one (a new step, a retry) starts a new answer; the tail compared keeps this linear.
      const continues =
        decoder !== undefined &&
        text.length >= seen.length &&
        text.startsWith(seen.slice(-TAIL), Math.max(0, seen.length - TAIL));
      if (!continues) {
        decoder = streamDecoder(codec);
        seen = "";
        refused = false;
      }
      const active = decoder as StreamDecoder<T>;
      const delta = text.slice(seen.length);
      seen = text;
      if (refused) return undefined;
      const step = active.push(delta);
      if (!step.ok) {
        refused = true;
        options.onRefusal?.(step.error);
        return undefined;
      }
      // The decoder's value is live; the SDK keeps what it is given.
      return step.value === undefined ? undefined : { partial: structuredClone(step.value) };
    },
    createElementStreamTransform() {
      return undefined;
    },
  };
}
