/**
 * Structured outputs by API name: the request member(s) for a codec's wire
 * as the API's answer format, the answer of a whole response decoded, a
 * stream's answer decoded as it arrives, and the answer or its repair
 * feedback put back into the history. Each API's spelling is its module's
 * `answer` slot (providers/), found through the registry.
 */

import { type CodecError, ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import type { JsonObject } from "../json.js";
import type { AnswerSlot, ProviderApiModule } from "../providers/api.js";
import { type OutputApi, type OutputFormats, PROVIDER_API_NAMES, providerModule } from "../providers/lookup.js";
import { Codec } from "../public-codec.js";
import type { CompiledTool } from "../targets/profile.js";
import { type AnswerNaming, answerFormat, answerText, decodeAnswer } from "./answer.js";
import { type StreamedAnswer, streamAnswer } from "./stream.js";

export type { OutputApi, OutputFormats };

/** The module of `api` and its answer slot, when `api` names an API that has structured outputs. */
function slotOf(api: string): { module: ProviderApiModule; slot: AnswerSlot<unknown> } | undefined {
  if (!(PROVIDER_API_NAMES as readonly string[]).includes(api)) return undefined;
  const module = providerModule(api as OutputApi) as ProviderApiModule;
  return module.answer === undefined ? undefined : { module, slot: module.answer };
}

function unknownApi(api: unknown): { readonly ok: false; readonly error: CodecError } {
  const names = PROVIDER_API_NAMES.filter((n) => slotOf(n) !== undefined);
  return fail(
    "invalid-options",
    "",
    `no structured outputs for API ${JSON.stringify(api)}: use one of ${names.join(", ")}`,
  );
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
  const found = slotOf(api);
  if (found === undefined) return unknownApi(api);
  const bundle = compiled instanceof Codec ? compiled.bundle : compiled;
  // The slot of `api` writes the members OutputFormats names for it.
  return answerFormat(found.slot, found.module, bundle, naming) as Result<OutputFormats[A]>;
}

/** The decoded answer of a whole `api` response, or the typed error saying why there is none. Never throws. */
export function decodeOutput<T>(codec: Codec<T>, api: OutputApi, response: unknown): Result<T> {
  const found = slotOf(api);
  return found === undefined ? unknownApi(api) : decodeAnswer(found.slot, codec, response);
}

/** Reads one `api` stream's events and decodes its answer as it arrives (see answer/stream.ts). */
export function streamOutput(codec: Codec<unknown>, api: OutputApi): StreamedAnswer {
  const found = slotOf(api);
  // Only a caller outside TypeScript can pass another name.
  if (found === undefined) throw new TypeError(unknownApi(api).error.message);
  return streamAnswer(found.slot, codec);
}

/** An answer kept as its decoded value, as the assistant message `api`'s history holds: in the wire form. */
export function outputMessage<T>(codec: Codec<T>, api: OutputApi, value: T): Result<JsonObject> {
  const found = slotOf(api);
  if (found === undefined) return unknownApi(api);
  const text = answerText(codec, value);
  return text.ok ? ok(found.slot.answerMessage(text.value)) : text;
}

/** The user turn asking for a refused answer again, with decode's feedback. */
export function outputRepairMessage(api: OutputApi, error: { readonly feedback: string }): Result<JsonObject> {
  const found = slotOf(api);
  return found === undefined ? unknownApi(api) : ok(found.slot.repairMessage(error.feedback));
}

/**
 * A minimal request asking `api` for an answer in `format` (what `outputFormat`
 * gave), for the probe: no tool, a tiny output cap.
 */
export function outputProbeRequest<A extends OutputApi>(
  api: A,
  model: string,
  maxTokens: number,
  format: OutputFormats[A],
): JsonObject {
  const found = slotOf(api);
  if (found === undefined) throw new TypeError(unknownApi(api).error.message);
  // Only the APIs the probe calls (those with an exchange) write one.
  if (found.slot.probe === undefined) throw new TypeError(`${api} has no probe request`);
  return found.slot.probe(model, maxTokens, format);
}
