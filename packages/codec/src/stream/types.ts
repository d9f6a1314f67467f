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
 * text is bound to meet. An ok step is read-only. A push that completed no
 * member may give the same step again, frozen (the value in it is live,
 * updated in place by later pushes; a push that gives a new object says
 * `changed`); a push that completed members gives a step of its own, whose
 * list of pointers is frozen.
 */
export type StreamStep =
  | {
      readonly ok: true;
      /** The partial source value (undefined until the root value starts). Display only. */
      readonly value: unknown;
      /** Whether this push changed the partial value. */
      readonly changed: boolean;
      /**
       * The members that became complete in this push, as JSON Pointers into
       * the partial value (the source form; "" for the whole value): each
       * member once over the stream, a container's members before it. A
       * complete member's value is final: no later push changes it (a
       * container's later members are no longer possible). Read it before
       * the next push: the pointers are made when first read.
       */
      readonly completed: readonly string[];
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

/**
 * Where a member of the partial value stands after the last push:
 * - "pending": not in the partial value yet (not begun, or an optional
 *   member whose presence is not known yet), its container still open;
 * - "incomplete": shown, and still being written (a string's prefix, a
 *   container with more to come);
 * - "complete": written to its end; its value is final. A member of a complete
 *   container that the partial value does not have is complete too: it is
 *   absent for good.
 */
export type MemberState = "pending" | "incomplete" | "complete";

export interface StreamDecoder<T = unknown> {
  push(delta: string): StreamStep;
  /** Exactly `codec.decode(all the text pushed)`. */
  end(): Result<T>;
  /** The partial source value after the last push (what push's step held). */
  readonly value: unknown;
  /**
   * The state of the member at a JSON Pointer into the partial value (the
   * source form; "" for the whole value), from what the decoder keeps: it
   * costs the pointer's depth, not a walk of the value. A pointer through a
   * string or number, or one that is not a valid JSON Pointer, is "pending"
   * while its container is open.
   */
  stateAt(pointer: string): MemberState;
}
