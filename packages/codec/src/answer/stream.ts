/**
 * A streamed structured-output answer decoded as it arrives: a provider
 * API's stream events in (read by its answer slot), one update per change
 * out. The answer's text goes through the codec's stream decoder: partial
 * values in the source form (display only), an early refusal when the text
 * can no longer decode, and decode's result only when the provider ended
 * the answer itself. A stream that stops without that end gives `cut`,
 * which carries no value: acting on an answer its provider never finished
 * is the bug class of vercel/ai#13137 and QwenLM/qwen-code#9013.
 */

import type { CodecError, Result } from "../errors.js";
import type { AnswerRead, AnswerSignal, AnswerSlot } from "../providers/api.js";
import { keptWords, streamViolation } from "../providers/shared.js";
import type { Codec } from "../public-codec.js";
import { streamDecoder } from "../stream/decoder.js";
import type { StreamDecoder } from "../stream/types.js";
import { answerError } from "./answer.js";

/** What changed for the answer. Only `decoded` with `result.ok` is a value to act on. */
export type AnswerUpdate =
  /** The partial source value changed. Display only; live (later pushes update it in place). */
  | { readonly kind: "partial"; readonly value: unknown }
  /** The text so far cannot become any text the codec accepts (decode's error). Given once; the answer may be abandoned. */
  | { readonly kind: "refused"; readonly error: CodecError }
  /** The provider ended the answer: exactly `codec.decode(the whole text)`. */
  | { readonly kind: "decoded"; readonly result: Result<unknown> }
  /**
   * The provider ended without an answer: the model declined ("answer-refused"), a filter stopped it
   * ("answer-blocked"), or none came ("no-answer"); or the stream broke its protocol for the answer
   * ("stream-violation": a text delta that carries no text, an event that could not be read).
   */
  | { readonly kind: "failed"; readonly error: CodecError }
  /**
   * The answer was cut: the provider said so (the token limit), or the
   * stream ended before the provider ended the answer. Never a value:
   * `unfinished` is what decoding the text received would have said, for
   * logging only.
   */
  | { readonly kind: "cut"; readonly error: CodecError; readonly unfinished: Result<unknown> };

export interface StreamedAnswer {
  /** Reads one stream event; the updates it caused, in order (none for most events). */
  event(event: unknown): readonly AnswerUpdate[];
  /** The stream is over: an answer the provider did not end is `cut`. */
  finish(): readonly AnswerUpdate[];
  /** The partial source value so far (undefined until the answer starts). */
  readonly value: unknown;
  /** Whether the answer is settled (decoded, failed or cut): later events are ignored. */
  readonly settled: boolean;
}

const UNREADABLE_ANSWER =
  "the stream sent an event that could not be read (a property that throws): the answer may lack a piece";

/** Reads one stream of `slot`'s API and decodes its answer with `codec`. */
export function streamAnswer(slot: AnswerSlot<unknown>, codec: Codec<unknown>): StreamedAnswer {
  return new AnswerStream(slot.events(), streamDecoder(codec));
}

class AnswerStream implements StreamedAnswer {
  private refused = false;
  private received = 0;
  private refusal = "";
  private done = false;

  constructor(
    private readonly signals: (event: unknown) => readonly AnswerSignal[],
    private readonly decoder: StreamDecoder<unknown>,
  ) {}

  get value(): unknown {
    return this.decoder.value;
  }

  get settled(): boolean {
    return this.done;
  }

  event(event: unknown): readonly AnswerUpdate[] {
    if (this.done) return [];
    let signals: readonly AnswerSignal[];
    try {
      signals = this.signals(event);
    } catch {
      // A crafted event (a throwing getter) may have carried a piece of the answer: never decode it without.
      this.done = true;
      return [{ kind: "failed", error: streamViolation(UNREADABLE_ANSWER) }];
    }
    const out: AnswerUpdate[] = [];
    for (const signal of signals) {
      if (this.done) break;
      this.apply(signal, out);
    }
    return out;
  }

  finish(): readonly AnswerUpdate[] {
    if (this.done) return [];
    return [this.settle({ kind: "cut", reason: "the stream ended before the provider ended the answer" })];
  }

  private apply(signal: AnswerSignal, out: AnswerUpdate[]): void {
    switch (signal.kind) {
      case "text": {
        if (signal.delta.length === 0) return;
        this.received += signal.delta.length;
        const step = this.decoder.push(signal.delta);
        if (!step.ok) {
          if (!this.refused) out.push({ kind: "refused", error: step.error });
          this.refused = true;
        } else if (step.changed) {
          out.push({ kind: "partial", value: step.value });
        }
        return;
      }
      case "refusal":
        // Only the words an error shows are kept.
        this.refusal = keptWords(this.refusal, signal.delta);
        return;
      case "end":
        // The model's refusal came in place of the answer; an answer with no text at all is none.
        if (this.refusal !== "") out.push(this.settle({ kind: "refused", message: this.refusal }));
        else if (this.received === 0) out.push(this.settle({ kind: "none", reason: "the answer was empty" }));
        else {
          this.done = true;
          out.push({ kind: "decoded", result: this.decoder.end() });
        }
        return;
      case "violation":
        this.done = true;
        out.push({ kind: "failed", error: streamViolation(signal.message) });
        return;
      case "ended":
        out.push(
          this.settle(
            signal.read.kind === "refused" && signal.read.message === "" && this.refusal !== ""
              ? { kind: "refused", message: this.refusal }
              : signal.read,
          ),
        );
        return;
    }
  }

  private settle(read: Exclude<AnswerRead, { readonly kind: "text" }>): AnswerUpdate {
    this.done = true;
    const error = answerError(read);
    return read.kind === "cut" ? { kind: "cut", error, unfinished: this.decoder.end() } : { kind: "failed", error };
  }
}
