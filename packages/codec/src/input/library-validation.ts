/**
 * A codec whose contract is a library schema: decoding runs strictwire's own
 * steps (bounded parse, wire check, rebuild, validation against the JSON
 * Schema), then the library's `~standard.validate`, so refinements,
 * transforms, defaults and coercions apply and the value is the library's
 * output. The library's issues become a `contract-violation`, in the same
 * error shape as every other failure.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { DecodeOptions, RawArguments } from "../codec.js";
import { type CodecError, type Issue, ok, type PathStep, pointerOf, type Result } from "../errors.js";
import { contractViolationText, fail } from "../feedback/format.js";
import type { Codec } from "../public-codec.js";

/**
 * `codec` with decoding finished by `schema`'s own validation. For codecs
 * loaded from a bundle on disk whose contract came from that schema:
 *
 *   const codec = withStandardSchema(loadBundle(text).value, UpdateSettings);
 *
 * The result is still a Codec (same wire, plan, encode), so dispatchers and
 * adapters take it as they take any other.
 */
export function withStandardSchema<S extends StandardSchemaV1>(
  codec: Codec<unknown>,
  schema: S,
): Codec<StandardSchemaV1.InferOutput<S>> {
  type Out = StandardSchemaV1.InferOutput<S>;
  // Prototype delegation keeps everything but decode (and the `~standard` props, built from decode).
  const wrapped = Object.create(codec) as Codec<Out>;
  Object.defineProperty(wrapped, "decode", {
    value: (raw: RawArguments, options?: DecodeOptions): Result<Out> => {
      const decoded = codec.decode(raw, options);
      return decoded.ok ? libraryValidate(codec.name, schema, decoded.value) : decoded;
    },
  });
  return wrapped;
}

/** The library's verdict on a value strictwire accepted, as a Result. */
export function libraryValidate<S extends StandardSchemaV1>(
  tool: string,
  schema: S,
  value: unknown,
): Result<StandardSchemaV1.InferOutput<S>> {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema["~standard"].validate(value);
  } catch (error) {
    // A refinement that throws is the library user's bug, but a tool call must still get an answer.
    const reason = error instanceof Error ? error.message : String(error);
    return contractViolation(tool, [{ path: "", message: `the ${vendorOf(schema)} validation threw: ${reason}` }]);
  }
  if (result instanceof Promise) {
    // Decoding is synchronous; an async refinement would need an async decode.
    void result.catch(() => undefined);
    return contractViolation(tool, [
      { path: "", message: `the ${vendorOf(schema)} schema validates asynchronously, which decode does not support` },
    ]);
  }
  if (result.issues !== undefined) return contractViolation(tool, result.issues.map(toIssue));
  return ok(result.value as StandardSchemaV1.InferOutput<S>);
}

function vendorOf(schema: StandardSchemaV1): string {
  return schema["~standard"].vendor;
}

/** A Standard Schema issue as a codec Issue: its path as steps (the library's own keys) and as a JSON Pointer. */
export function toIssue(issue: StandardSchemaV1.Issue): Issue {
  const at: PathStep[] = [];
  for (const segment of issue.path ?? []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    at.push(typeof key === "symbol" ? String(key.description ?? "") : typeof key === "number" ? key : String(key));
  }
  return { path: pointerOf(at), at, message: issue.message };
}

/** Worded as the codec's own contract violations, by the same formatter. */
function contractViolation(tool: string, issues: Issue[]): { readonly ok: false; readonly error: CodecError } {
  const { message, feedback } = contractViolationText(tool, issues);
  return fail("contract-violation", issues[0]?.path ?? "", message, { issues, tree: issues, feedback });
}
