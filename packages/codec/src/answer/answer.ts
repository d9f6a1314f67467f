/**
 * Structured outputs: the model's answer itself held to the wire, the other
 * door of strict mode. Provider-neutral: what each API calls its answer
 * format, where its answer text is and how it says the answer was refused,
 * cut or blocked live in that API's module (`providers/`), in its `answer`
 * slot; this module turns a slot's reading into decode's result or a typed
 * error, and never throws on a hostile response.
 *
 * The answer's text is decoded exactly as a tool call's arguments are: the
 * same wire (compiled for the API's target), the same decode, the same
 * feedback for a repair turn.
 */

import { type CodecError, ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import type { AnswerRead, AnswerSlot } from "../providers/api.js";
import { WORDS_SHOWN } from "../providers/shared.js";
import type { Codec } from "../public-codec.js";
import type { CompiledTool, TargetName } from "../targets/profile.js";

/** How the answer is named in the request (OpenAI's `name`, at most 64 of a-z, A-Z, 0-9, _ and -). */
export interface AnswerNaming {
  /** Defaults to the codec's name. */
  readonly name?: string;
  readonly description?: string;
}

const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The request member(s) for a compiled schema's wire (a bundle, or a codec's) as this API's answer format. */
export function answerFormat<F>(
  slot: AnswerSlot<F>,
  api: { readonly name: string; readonly target: TargetName },
  bundle: CompiledTool,
  naming: AnswerNaming = {},
): Result<F> {
  // A fine-tuned model's wire is sent through the same APIs.
  const target = bundle.options.target === "openai-finetuned" ? "openai" : bundle.options.target;
  if (target !== api.target) {
    return fail(
      "invalid-options",
      "",
      `${bundle.name} was compiled for the ${bundle.options.target} target; compile it with target "${api.target}" for ${api.name}`,
    );
  }
  const name = naming.name ?? bundle.name;
  if (!OPENAI_NAME.test(name)) {
    return fail("invalid-options", "", `answer name ${JSON.stringify(name)}: use 1-64 of a-z, A-Z, 0-9, _ and -`);
  }
  const description = naming.description ?? bundle.description;
  const format = slot.format(
    bundle.wire,
    description === undefined ? { name } : { name, description },
    bundle.nonStrict === undefined,
  );
  return typeof format === "string" ? fail("invalid-options", "", format) : ok(format);
}

/** decode's result for the answer a whole response holds, or the typed error saying why there is none. */
export function decodeAnswer<T>(slot: AnswerSlot<unknown>, codec: Codec<T>, response: unknown): Result<T> {
  const read = readGuarded(slot, response);
  return read.kind === "text" ? codec.decode(read.text) : { ok: false, error: answerError(read) };
}

/** The error for an answer the provider did not give whole. */
export function answerError(read: Exclude<AnswerRead, { readonly kind: "text" }>): CodecError {
  switch (read.kind) {
    case "refused":
      return fail("answer-refused", "", `the model declined to answer: ${clip(read.message)}`).error;
    case "cut":
      return fail("answer-cut", "", `the answer was cut before its end (${clip(read.reason)})`).error;
    case "blocked":
      return fail("answer-blocked", "", `the provider's safety filter stopped the answer (${clip(read.reason)})`).error;
    case "none":
      return fail("no-answer", "", `the response holds no answer text (${clip(read.reason)})`).error;
  }
}

/**
 * The answer as the model wrote it, for the history: the value encoded to
 * the wire, as JSON text. A model shown its earlier answers in the source
 * form would copy that form.
 */
export function answerText<T>(codec: Codec<T>, value: T): Result<string> {
  const wire = codec.encode(value);
  return wire.ok ? ok(JSON.stringify(wire.value)) : wire;
}

function readGuarded(slot: AnswerSlot<unknown>, response: unknown): AnswerRead {
  try {
    return slot.read(response);
  } catch {
    // A getter or proxy in a crafted response: no answer to read, not a crash.
    return { kind: "none", reason: "the response could not be read" };
  }
}

/** A provider's words kept short: they are data from the network. */
function clip(text: string): string {
  return text.length > WORDS_SHOWN ? `${text.slice(0, WORDS_SHOWN)}…` : text;
}
