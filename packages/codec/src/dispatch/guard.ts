/**
 * guardedCall: where a model's tool arguments meet your code. The arguments
 * are decoded first; the handler runs only on a value that keeps the tool's
 * contract, and gets the original value (absent and null kept apart). Nothing
 * the model sends makes it throw: a rejected call and a failing handler both
 * come back as values, with the text to return to the model as the tool result.
 *
 * Decoding checks shape, not permission. It does not authenticate the caller,
 * authorise the action or sandbox the handler: a well-formed call can still ask
 * for something it must not have, so the handler checks that itself.
 */
import type { DecodeOptions, RawArguments } from "../codec.js";
import type { CodecError } from "../errors.js";
import { callText } from "../feedback/format.js";
import type { Codec } from "../public-codec.js";

/** Which call a handler is serving. */
export interface ToolCallInfo {
  /** The provider's call id ("" when the caller gave none). */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
}

export type ToolHandler<T, R = unknown> = (value: T, call: ToolCallInfo) => R | PromiseLike<R>;

export type GuardedResult<R> =
  | { readonly ok: true; readonly output: R }
  /** The arguments broke the contract; the handler did not run. `output` is the codec's feedback. */
  | { readonly ok: false; readonly kind: "rejected"; readonly output: string; readonly error: CodecError }
  /** The handler threw or rejected. `error` is what it threw, for your logs; `output` is for the model. */
  | { readonly ok: false; readonly kind: "handler-error"; readonly output: string; readonly error: unknown };

export interface GuardOptions {
  /**
   * The tool result text for a handler that threw. The default says the tool
   * failed without repeating the error, which may hold internals the model
   * should not see; return your own text to tell it more.
   */
  readonly describeHandlerError?: (error: unknown, call: ToolCallInfo) => string;
  /** Decode options for every call (parse limits). */
  readonly decode?: DecodeOptions;
}

export type GuardedCall<R> = (raw: RawArguments, call?: { readonly id?: string }) => Promise<GuardedResult<R>>;

export function guardedCall<T, R>(
  codec: Codec<T>,
  handler: ToolHandler<T, R>,
  options: GuardOptions = {},
): GuardedCall<R> {
  return async (raw, call = {}) => {
    const info: ToolCallInfo = { id: call.id ?? "", name: codec.name };
    const decoded = codec.decode(raw, options.decode);
    if (!decoded.ok) return { ok: false, kind: "rejected", output: decoded.error.feedback, error: decoded.error };
    return runHandler(handler, decoded.value, info, options);
  };
}

/** Run a handler on a decoded value; whatever it throws becomes a handler-error result. */
export async function runHandler<T, R>(
  handler: ToolHandler<T, R>,
  value: T,
  call: ToolCallInfo,
  options: GuardOptions,
): Promise<GuardedResult<R>> {
  try {
    // Inside the try: a handler that throws before returning its promise is caught too.
    return { ok: true, output: await handler(value, call) };
  } catch (error) {
    return { ok: false, kind: "handler-error", output: describeHandlerError(error, call, options), error };
  }
}

/** The tool result text for a handler failure: the caller's describer, else a text that keeps internals out. */
export function describeHandlerError(error: unknown, call: ToolCallInfo, options: GuardOptions): string {
  if (options.describeHandlerError !== undefined) {
    try {
      return options.describeHandlerError(error, call);
    } catch {
      // A broken describer must not take the turn down with it: fall back to the default text.
    }
  }
  return callText.handlerFailed(call.name);
}
