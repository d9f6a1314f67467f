/**
 * The Codec applications hold: the codec core (codec.ts) with what the layers
 * above it add to it, so that the core imports none of them.
 *
 * - `~standard`: the Standard Schema V1 and Standard JSON Schema V1 props
 *   (dispatch/standard.ts), for libraries that take a Standard Schema.
 *
 * The deprecated `codec.streamDecoder()` is not here: the main entry
 * (index.ts) adds it to this class, so that a bundle holding a Codec holds
 * the stream decoder only when it calls `streamDecoder(codec)` or holds the
 * main entry (a bundler keeps a class whole).
 *
 * Every factory (compile, load, the runtime's codecFromModule) makes this
 * class; a function that takes any codec takes a CodecCore.
 */
import { CodecCore } from "./codec.js";
import { type StandardCodecProps, standardProps } from "./dispatch/standard.js";

export class Codec<T = unknown> extends CodecCore<T> {
  /** Standard Schema V1 (validate = decode) and Standard JSON Schema V1 (input = wire, output = source). */
  get "~standard"(): StandardCodecProps<T> {
    return standardProps(this);
  }
}
