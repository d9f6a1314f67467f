/**
 * The seam to the codec. A tool whose declared parameters are a strictwire
 * wire schema is judged by decoding its arguments and checking the result
 * against the original contract, not against the wire schema alone.
 */
import type { CodecError, Result } from "@strictwire/codec";
import { isPlainObject, jsonEqual } from "@strictwire/codec/schema";

export interface ToolCodec {
  /** The bundle's name, for details. */
  readonly name: string;
  readonly digest: string;
  /** The wire schema the bundle sends as tool parameters. */
  readonly wire: unknown;
  /** Wire arguments (text or parsed) to a value in the original contract's terms. */
  decode(raw: unknown): Result<unknown, CodecError>;
}

function mentions(value: unknown, digest: string, depth: number): boolean {
  if (typeof value === "string") return value.includes(digest);
  if (depth === 0 || !isPlainObject(value)) return false;
  return Object.values(value).some((child) => mentions(child, digest, depth - 1));
}

/**
 * The codec whose wire schema these declared parameters are: one whose digest
 * the schema names near its top ($id, $comment, description, an x- member),
 * else one whose wire schema is deeply equal to them.
 */
export function matchCodec(parameters: unknown, codecs: readonly ToolCodec[]): ToolCodec | undefined {
  if (!isPlainObject(parameters)) return undefined;
  const named = codecs.find((codec) => codec.digest !== "" && mentions(parameters, codec.digest, 2));
  return named ?? codecs.find((codec) => jsonEqual(parameters, codec.wire));
}
