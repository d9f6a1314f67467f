/**
 * The streaming decoder's contract (issue 28), shared by the decoder
 * (stream/decoder.ts) and the provider and framework adapters that feed it.
 *
 * A stream decoder reads one tool call's argument text as the model writes
 * it. After each delta it gives the partial value in the SOURCE form (absent
 * members absent, maps as objects, a union's branch once known): for display
 * only, never validated, never handed to a dispatcher. `end()` returns exactly
 * what `codec.decode(wholeText)` returns.
 */
import type { CodecError, Result } from "../errors.js";

/**
 * What one push gives: the partial value so far, or the refusal the whole
 * text is bound to meet. An ok step is frozen, and the same one may be given
 * again (the value in it is live, updated in place by later pushes).
 */
export type StreamStep =
  | {
      readonly ok: true;
      /** The partial source value (undefined until the root value starts). Display only. */
      readonly value: unknown;
      /** Whether this push changed the partial value. */
      readonly changed: boolean;
    }
  | {
      readonly ok: false;
      /**
       * The text so far cannot begin any text the codec accepts: decode's
       * error for it (a JSON or limit refusal), or, when the wire schema
       * already forbids it, decode's error for its simplest completion
       * (code "wire-violation"; see stream/decoder.ts for what is promised).
       * Final: later pushes return it again; `end()` still answers for the
       * whole text.
       */
      readonly error: CodecError;
    };

export interface StreamDecoder<T = unknown> {
  push(delta: string): StreamStep;
  /** Exactly `codec.decode(all the text pushed)`. */
  end(): Result<T>;
  /** The partial source value after the last push (what push's step held). */
  readonly value: unknown;
}
