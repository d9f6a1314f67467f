/**
 * The Codec applications hold: the codec core (codec.ts) with what the layers
 * above it add to it, so that the core imports none of them.
 *
 * - `~standard`: the Standard Schema V1 and Standard JSON Schema V1 props
 *   (dispatch/standard.ts), for libraries that take a Standard Schema.
 * - `streamDecoder()`: deprecated, the method form of `streamDecoder(codec)`
 *   (stream/decoder.ts). While it is here, a bundle that holds a Codec holds
 *   the stream decoder too (a bundler keeps a class whole); an application
 *   that calls the function instead loses nothing when the method goes.
 *
 * Every factory (compile, load, the runtime's codecFromModule) makes this
 * class; a function that takes any codec takes a CodecCore.
 */
import { CodecCore, type DecodeOptions } from "./codec.js";
import { type StandardCodecProps, standardProps } from "./dispatch/standard.js";
import { streamDecoder } from "./stream/decoder.js";
import type { StreamDecoder } from "./stream/types.js";

export class Codec<T = unknown> extends CodecCore<T> {
  /** Standard Schema V1 (validate = decode) and Standard JSON Schema V1 (input = wire, output = source). */
  get "~standard"(): StandardCodecProps<T> {
    return standardProps(this);
  }

  /**
   * A decoder for one call's argument text as the model writes it: push each
   * delta for the partial source value (display only) or an early refusal;
   * end() is decode of the whole text. See stream/decoder.ts.
   * @deprecated Call `streamDecoder(codec, options)` (from `@strictwire/codec`
   * or `@strictwire/codec/runtime`): the same decoder, and a bundler can leave
   * it out of an application that only decodes once this method is gone
   * (0.3.0).
   */
  streamDecoder(options: DecodeOptions = {}): StreamDecoder<T> {
    return streamDecoder(this, options);
  }
}
