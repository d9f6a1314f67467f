/**
 * Streamed tool calls decoded as they arrive (issue 28): a provider's stream
 * events in, one update per change out. Each call a provider streams gets the
 * stream decoder of the codec its tool name selects; the updates say what a
 * renderer shows (the partial source value), what a dispatcher acts on early
 * (a refusal the whole text is bound to meet, so it may abort the request),
 * and the final decode when the provider ends the call.
 *
 * Partial values are for display only: never validated, never dispatched.
 * Only a `decoded` update with `result.ok` is a value to act on, and a
 * `decoded` update comes only at the provider's own end of the call (its stop
 * event): a call the stream left open (a connection dropped, a stream cut
 * before the stop event) ends as `cut`, whatever its text says. Acting on a
 * call the provider did not finish is the bug class of vercel/ai#13137 and
 * QwenLM/qwen-code#9013 (a truncated `rm -rf` run as a command).
 */

import type { CodecError, Result } from "../errors.js";
import type { CallStreamsReader, DeltaSink } from "../providers/api.js";
import { type ProviderApiName, type ProviderApiWith, providerModule } from "../providers/lookup.js";
import type { Codec } from "../public-codec.js";
import { streamDecoder } from "./decoder.js";
import type { StreamDecoder } from "./types.js";

/** The provider APIs whose stream events `streamCalls` reads: those whose module has a stream reader. */
export type StreamingApi = ProviderApiWith<"callStreams">;

/**
 * @deprecated since 0.2: use StreamingApi (a ProviderApi). The earlier
 * spellings "responses" and "chat-completions" are still accepted.
 */
export type StreamProvider = ProviderApiName<StreamingApi>;

/** What changed for one call. */
export type CallUpdate =
  /** The partial source value changed. Display only. */
  | { readonly kind: "partial"; readonly id: string; readonly name: string; readonly value: unknown }
  /** The text so far cannot become any text the codec accepts: abort or wait for `decoded`. Given once per call. */
  | { readonly kind: "refused"; readonly id: string; readonly name: string; readonly error: CodecError }
  /** The call names no tool of the set. Given once, when the call opens; it gets no other update. */
  | { readonly kind: "unknown-tool"; readonly id: string; readonly name: string }
  /**
   * The provider ended the call: exactly `codec.decode(the call's whole text)`,
   * or, when the stream broke its protocol for the call (`refused` with a
   * `stream-violation`), that error.
   */
  | { readonly kind: "decoded"; readonly id: string; readonly name: string; readonly result: Result<unknown> }
  /**
   * The stream ended without the provider ending the call: never a call to act
   * on. `result` is what decoding the text received would have said, for
   * logging only (a cut text can be whole JSON by chance).
   */
  | { readonly kind: "cut"; readonly id: string; readonly name: string; readonly result: Result<unknown> };

export interface StreamedCalls {
  /** Reads one stream event; the updates it caused, in order (none for most events). */
  event(event: unknown): readonly CallUpdate[];
  /** The stream is over: every call still open is cut (a `cut` update each, never `decoded`). */
  finish(): readonly CallUpdate[];
}

/**
 * Reads `api`'s stream events (its module's reader; an earlier spelling is
 * accepted) and decodes each tool call with the codec of its name in `codecs`.
 */
export function streamCalls(
  api: ProviderApiName<StreamingApi>,
  codecs: Readonly<Record<string, Codec<unknown>>>,
): StreamedCalls {
  let updates: CallUpdate[] = [];
  const reader: CallStreamsReader | undefined = (providerModule(api) as { callStreams?: CallStreamsReader })
    .callStreams;
  // Only a caller outside TypeScript can name an API with no stream reader.
  if (reader === undefined) throw new TypeError(`the ${api} API has no stream reader`);
  // A call not opened yet (its name to come) holds no more text than the codec of any name reads.
  let maxBytes = 0;
  for (const name of Object.keys(codecs)) maxBytes = Math.max(maxBytes, codecs[name]!.limits.maxBytes);
  const streams = reader(
    ({ id, name }): DeltaSink => {
      const codec = Object.hasOwn(codecs, name) ? codecs[name] : undefined;
      if (codec === undefined) {
        updates.push({ kind: "unknown-tool", id, name });
        // Nothing decodes it: its text is not kept.
        return { push: () => undefined, end: () => undefined, refused: true };
      }
      return new CallSink(id, name, codec.limits.maxBytes, streamDecoder(codec), (update) => updates.push(update));
    },
    { maxBytes },
  );
  const drain = (): readonly CallUpdate[] => {
    const out = updates;
    updates = [];
    return out;
  };
  return {
    event(event) {
      streams.event(event);
      return drain();
    },
    finish() {
      streams.finish();
      return drain();
    },
  };
}

/** One call's decoder, reporting each change, the first refusal and the end. */
class CallSink implements DeltaSink {
  /** The decoder refused the call, or the stream did: its end is a refusal whatever text follows. */
  refused = false;
  /** The stream's own refusal of the call, which its end reports instead of a decode. */
  private violation: CodecError | undefined;

  constructor(
    private readonly id: string,
    private readonly name: string,
    readonly maxBytes: number,
    private readonly decoder: StreamDecoder<unknown>,
    private readonly report: (update: CallUpdate) => void,
  ) {}

  push(delta: string): void {
    if (this.violation !== undefined) return;
    const step = this.decoder.push(delta);
    if (!step.ok) {
      if (this.refused) return;
      this.refused = true;
      this.report({ kind: "refused", id: this.id, name: this.name, error: step.error });
    } else if (step.changed) {
      this.report({ kind: "partial", id: this.id, name: this.name, value: step.value });
    }
  }

  refuse(error: CodecError): void {
    this.violation = error;
    if (this.refused) return;
    this.refused = true;
    this.report({ kind: "refused", id: this.id, name: this.name, error });
  }

  end(): void {
    const result: Result<unknown> =
      this.violation !== undefined ? { ok: false, error: this.violation } : this.decoder.end();
    this.report({ kind: "decoded", id: this.id, name: this.name, result });
  }

  cut(): void {
    const result: Result<unknown> =
      this.violation !== undefined ? { ok: false, error: this.violation } : this.decoder.end();
    this.report({ kind: "cut", id: this.id, name: this.name, result });
  }
}
