/**
 * Standard Schema V1 for a codec: `validate` is `decode`, so a library that
 * takes a Standard Schema gets the original value, not the wire form. The same
 * props carry Standard JSON Schema V1: `input` is the wire schema (what the
 * model writes), `output` the source contract (what `validate` returns).
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type { CodecCore } from "../codec.js";
import type { CodecError } from "../errors.js";
import { cloneJson, isPlainObject, pointerTokens } from "../json.js";

export const VENDOR = "strictwire";

/** What `codec["~standard"]` is: Standard Schema V1 and Standard JSON Schema V1 props at once. */
export type StandardCodecProps<T> = StandardSchemaV1.Props<unknown, T> & StandardJSONSchemaV1.Props<unknown, T>;

/** A value that is both a Standard Schema and a Standard JSON Schema for T. */
export interface StandardCodecSchema<T> {
  readonly "~standard": StandardCodecProps<T>;
}

/** The wire and source schemas are written in the subset these two drafts share. */
const TARGETS: ReadonlySet<string> = new Set(["draft-2020-12", "draft-07"]);

// One props object per codec: consumers read `~standard` often and some compare it by identity.
const cache = new WeakMap<object, StandardCodecProps<unknown>>();

export function standardProps<T>(codec: CodecCore<T>): StandardCodecProps<T> {
  const known = cache.get(codec);
  if (known !== undefined) return known as StandardCodecProps<T>;
  const props = buildProps(codec, (error) => standardIssues(error));
  cache.set(codec, props as StandardCodecProps<unknown>);
  return props;
}

/** Props with a chosen mapping from a decode failure to issues (the AI SDK adapter reports feedback instead). */
export function buildProps<T>(
  codec: CodecCore<T>,
  issuesOf: (error: CodecError) => readonly StandardSchemaV1.Issue[],
): StandardCodecProps<T> {
  return {
    version: 1,
    vendor: VENDOR,
    validate: (value: unknown): StandardSchemaV1.Result<T> => {
      const decoded = codec.decode(value);
      return decoded.ok ? { value: decoded.value } : { issues: issuesOf(decoded.error) };
    },
    jsonSchema: {
      input: (options) => jsonSchemaFor(codec, "input", options.target),
      output: (options) => jsonSchemaFor(codec, "output", options.target),
    },
  };
}

/** Every issue the codec found, each at its path in the original value; else the error itself. */
export function standardIssues(error: CodecError): StandardSchemaV1.Issue[] {
  const list = error.issues !== undefined && error.issues.length > 0 ? error.issues : [error];
  return list.map((i) => issueAt(i.message, i.path));
}

export function issueAt(message: string, pointer: string): StandardSchemaV1.Issue {
  const path = pointerPath(pointer);
  return path.length > 0 ? { message, path } : { message };
}

/** JSON Pointer -> Standard Schema path: tokens unescaped, array-index-like tokens as numbers. */
export function pointerPath(pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  return pointerTokens(pointer).map((t) => (/^(0|[1-9][0-9]{0,8})$/.test(t) ? Number(t) : t));
}

function jsonSchemaFor(codec: CodecCore<unknown>, side: "input" | "output", target: string): Record<string, unknown> {
  if (!TARGETS.has(target)) {
    // The spec asks libraries to throw for a target they cannot produce.
    throw new Error(`strictwire gives JSON Schema as draft-2020-12 or draft-07, not ${target}`);
  }
  // Copies: consumers (the AI SDK among them) edit the schema they are given, and the bundle is frozen.
  if (side === "input") return cloneJson(codec.wire) as Record<string, unknown>;
  if (codec.bundle.options.dialect !== undefined) {
    throw new Error(
      `the ${codec.name} contract is written in the ${codec.bundle.options.dialect} dialect, not JSON Schema`,
    );
  }
  const source = codec.bundle.source;
  if (source === true) return {};
  if (!isPlainObject(source)) throw new Error(`the ${codec.name} contract is not a JSON Schema object`);
  return cloneJson(source) as Record<string, unknown>;
}
