/**
 * Structured outputs by API name: the request member(s) for a codec's wire
 * as the API's answer format, the answer of a whole response decoded, a
 * stream's answer decoded as it arrives, and the answer or its repair
 * feedback put back into the history. Each API's spelling is its module's
 * answer slot.
 */
import { Codec } from "../codec.js";
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import type { JsonObject } from "../json.js";
import type { CompiledTool } from "../targets/tools.js";
import { type AnswerNaming, type AnswerSlot, answerFormat, answerText, decodeAnswer } from "./answer.js";
import {
  type AnthropicOutputFormat,
  anthropicAnswer,
  type ChatOutputFormat,
  chatAnswer,
  type GeminiOutputFormat,
  geminiAnswer,
  type ResponsesOutputFormat,
  responsesAnswer,
} from "./slots-draft.js";
import { type StreamedAnswer, streamAnswer } from "./stream.js";

/** The request member(s) each API's answer format is, by API. */
export interface OutputFormats {
  readonly "openai-chat": ChatOutputFormat;
  readonly "openai-responses": ResponsesOutputFormat;
  readonly anthropic: AnthropicOutputFormat;
  readonly gemini: GeminiOutputFormat;
}

export type OutputApi = keyof OutputFormats;

const SLOTS: Readonly<Record<OutputApi, AnswerSlot>> = {
  "openai-chat": chatAnswer,
  "openai-responses": responsesAnswer,
  anthropic: anthropicAnswer,
  gemini: geminiAnswer,
};

function slotOf(api: OutputApi): AnswerSlot | undefined {
  return Object.hasOwn(SLOTS, api) ? SLOTS[api] : undefined;
}

function unknownApi(api: unknown): { readonly ok: false; readonly error: import("../errors.js").CodecError } {
  return fail("invalid-options", "", `unknown API ${JSON.stringify(api)}: use one of ${Object.keys(SLOTS).join(", ")}`);
}

/**
 * The request member(s) asking `api` for an answer held to the codec's wire,
 * strict on where the API has a switch: spread into the request body.
 */
export function outputFormat<A extends OutputApi>(
  compiled: Codec<unknown> | CompiledTool,
  api: A,
  naming: AnswerNaming = {},
): Result<OutputFormats[A]> {
  const slot = slotOf(api);
  if (slot === undefined) return unknownApi(api);
  const bundle = compiled instanceof Codec ? compiled.bundle : compiled;
  // The slot of `api` writes the members OutputFormats names for it.
  return answerFormat(slot, api, bundle, naming) as unknown as Result<OutputFormats[A]>;
}

/** The decoded answer of a whole `api` response, or the typed error saying why there is none. Never throws. */
export function decodeOutput<T>(codec: Codec<T>, api: OutputApi, response: unknown): Result<T> {
  const slot = slotOf(api);
  return slot === undefined ? unknownApi(api) : decodeAnswer(slot, codec, response);
}

/** Reads one `api` stream's events and decodes its answer as it arrives (see answer/stream.ts). */
export function streamOutput(codec: Codec<unknown>, api: OutputApi): StreamedAnswer {
  const slot = slotOf(api);
  if (slot === undefined) throw new TypeError(`unknown API ${JSON.stringify(api)}`);
  return streamAnswer(slot, codec);
}

/** An answer kept as its decoded value, as the assistant message `api`'s history holds: in the wire form. */
export function outputMessage<T>(codec: Codec<T>, api: OutputApi, value: T): Result<JsonObject> {
  const slot = slotOf(api);
  if (slot === undefined) return unknownApi(api);
  const text = answerText(codec, value);
  return text.ok ? ok(slot.answerMessage(text.value)) : text;
}

/** The user turn asking for a refused answer again, with decode's feedback. */
export function outputRepairMessage(api: OutputApi, error: { readonly feedback: string }): Result<JsonObject> {
  const slot = slotOf(api);
  return slot === undefined ? unknownApi(api) : ok(slot.repairMessage(error.feedback));
}
