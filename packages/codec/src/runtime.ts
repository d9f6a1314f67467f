/**
 * The run-time entry point: what a service that decodes precompiled tools
 * needs, and none of the compiler, the target tables or ajv's compiler and
 * meta-schemas. A generated module (`compile --emit module`) imports it as
 * `@strictwire/codec/runtime/module` and calls `codecFromModule` with its
 * validators, all of them code: loading it and every decode, encode and
 * validate run without ajv.
 *
 * `@strictwire/codec/runtime` is this file and `loadJsonBundle`
 * (runtime-entry.ts), whose dynamic import of the loader that compiles a JSON
 * bundle's validators is kept out of here: a bundler that meets an `import()`
 * anywhere in the graph wraps every module the imported one reaches (nearly
 * the whole codec) in a lazy initialiser, in every bundle of this file too.
 */

import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import { OTHER_BUNDLE, readModuleBundle } from "./bundle/read.js";
import { cjsDefault } from "./cjs.js";
import type { Checks } from "./codec.js";
import { type DecoderFactory, instantiate, resolveTable } from "./decode/compiled.js";
import { type Issue, isStackOverflow, ok, type Result } from "./errors.js";
import { fail } from "./feedback/format.js";
import { toIssues } from "./issues.js";
import { duplicateItems, jsonEqual } from "./json.js";
import { Codec } from "./public-codec.js";
import { fullFormats } from "./validate/formats.js";
import { re2 } from "./validate/regexp.js";
import type { FastValidator } from "./validate/validators.js";
import { unreadableWire, WIRE_UNREADABLE } from "./validate/wire-check.js";

export { BUNDLE_FORMAT, type Bundle, type BundleOptions } from "./bundle/bundle.js";
export { type Checks, CodecCore, type DecodeOptions, type RawArguments, type WireValue } from "./codec.js";
// A precompiled tool as an AI SDK tool, on runtimes where nothing may be compiled (a Worker, the Edge).
export { type AiSdkTool, type AiSdkToolFields, aiSdkMiddleware, aiSdkTool } from "./dispatch/ai-sdk.js";
export type { CodecError, ErrorCode, Issue, Result } from "./errors.js";
export { parseJson } from "./parse/json.js";
export { DEFAULT_PARSE_LIMITS, MAX_DEPTH_LIMIT, type ParseLimits } from "./parse/parser.js";
// The stream decoder as a function: once Codec's deprecated method is gone, a bundle that never calls it leaves it out.
export { streamDecoder } from "./stream/decoder.js";
export { Codec, type FastValidator };

/** What a generated module's validators call. Its members are named in standalone.ts's RUNTIME_CODE; keep the two in step. */
export interface StandaloneRuntime {
  /** JSON equality for `const`, `enum` (modules written before it call it for `uniqueItems` too). */
  readonly equal: (a: unknown, b: unknown) => boolean;
  /** `uniqueItems`: the last duplicate pair, or undefined. */
  readonly duplicateItems: (items: readonly unknown[]) => [number, number] | undefined;
  readonly ucs2length: (text: string) => number;
  readonly fullFormats: typeof fullFormats;
  readonly re2: typeof re2;
}

/**
 * The same pieces one by one: a module of this version imports only those its
 * validators call, so a bundler leaves out the rest (the RE2 engine, unless a
 * tool has a pattern; the formats, unless it has a format).
 */
export const ucs2length: (text: string) => number = /* @__PURE__ */ cjsDefault(ucs2lengthModule);
/**
 * ajv-formats' formats one by one (the same checks, validate/format-checks.ts):
 * a module of this version imports those its validators read and builds its
 * `fullFormats` table of them, so a bundler leaves the rest, and ajv-formats, out.
 */
export {
  type ComparedFormat,
  formatByte,
  formatDate,
  formatDateTime,
  formatDouble,
  formatDuration,
  formatEmail,
  formatFloat,
  formatHostname,
  formatInt32,
  formatInt64,
  formatIpv4,
  formatIpv6,
  formatIsoDateTime,
  formatIsoTime,
  formatJsonPointer,
  formatJsonPointerUriFragment,
  formatRegex,
  formatRelativeJsonPointer,
  formatTime,
  formatUri,
  formatUriReference,
  formatUriTemplate,
  formatUrl,
  formatUuid,
  type NumberFormat,
} from "./validate/format-checks.js";
/**
 * The wire schema's validator built from the schema at load, no code generated:
 * a module whose wire is in its subset (every wire compile writes today) calls it
 * instead of carrying ajv's code for the wire.
 */
export { type WirePieces, wireValidator } from "./validate/wire-check.js";
export { duplicateItems, fullFormats, jsonEqual as equal, re2 };

/** All of them in one object: what modules written before the pieces were exported import. */
export const standaloneRuntime: StandaloneRuntime = /* @__PURE__ */ Object.freeze({
  equal: jsonEqual,
  duplicateItems,
  ucs2length,
  fullFormats,
  re2,
});

/** Every validator a generated module carries, compiled to code from one bundle. */
export interface ModuleValidators {
  /** The digest of the bundle they were compiled from: with another bundle they are refused. */
  readonly digest: string;
  /** The validators that decide (first-error ones in modules written before these were one validator). */
  readonly source: FastValidator;
  readonly wire: FastValidator;
  /** All-errors validators that describe a rejection: the same functions as source and wire in a module of this version. */
  readonly diagnoseSource: FastValidator;
  readonly diagnoseWire: FastValidator;
  /** Encode's branch test: a source location (a JSON Pointer, URI-encoded) and its validator. A location missing here counts as unknown. */
  readonly branches: ReadonlyMap<string, FastValidator>;
  /**
   * The generated decoder as code: its factory, and where the nodes its
   * interpreted fallback reads sit in the plan. Absent (a module written
   * before it): the interpreted walk decodes alone.
   */
  readonly decoder?: { readonly factory: DecoderFactory; readonly table: readonly string[] };
}

/**
 * A Codec from a generated module's parts. The bundle is read as loadBundle
 * reads it (format, shape), and its digest must be the one the validators
 * were compiled from; the validators are used as given, so the module itself
 * is trusted as the code it is, and its bundle with it: the bundle's digest is
 * not recomputed (no SHA-256 on this path; a JSON bundle's is, by loadBundle
 * and loadJsonBundle).
 */
export function codecFromModule<T = unknown>(bundle: unknown, validators: ModuleValidators): Result<Codec<T>> {
  const read = readModuleBundle(bundle);
  if (!read.ok) return read;
  if (validators.digest !== read.value.digest) return fail("digest-mismatch", "/digest", OTHER_BUNDLE);
  const plan = read.value.plan;
  const generated = validators.decoder;
  const table = generated === undefined ? undefined : resolveTable(plan, generated.table);
  const decoder =
    generated !== undefined && table !== undefined ? () => instantiate(generated.factory, plan, table) : undefined;
  if (unreadableWire(validators.wire)) return fail("invalid-bundle", "/wire", WIRE_UNREADABLE);
  try {
    return ok(new Codec<T>(read.value, new ModuleChecks(validators), decoder));
  } catch (error) {
    // A module's plan is checked only at its frame (bundle/check.ts checkModuleBundleShape): one
    // damaged below it, a module edited by hand, breaks the codec's walk of it, and is refused here.
    if (error instanceof TypeError || error instanceof RangeError || isStackOverflow(error))
      return fail("invalid-bundle", "/plan", DAMAGED_PLAN);
    throw error;
  }
}

const DAMAGED_PLAN = "the module's plan could not be read: the module was changed after it was written";

class ModuleChecks implements Checks {
  constructor(private readonly v: ModuleValidators) {}

  checkSource(value: unknown): Issue[] | undefined {
    return issuesOf(this.v.source, this.v.diagnoseSource, value);
  }

  checkWire(value: unknown): Issue[] | undefined {
    return issuesOf(this.v.wire, this.v.diagnoseWire, value);
  }

  satisfies(pointer: string, value: unknown): boolean | undefined {
    const v = this.v.branches.get(pointer);
    return v === undefined ? undefined : v(value);
  }
}

function issuesOf(fast: FastValidator, diagnose: FastValidator, value: unknown): Issue[] | undefined {
  if (fast(value)) return undefined;
  // A module of this version hands one all-errors validator for both: its errors are already there.
  if (diagnose !== fast) diagnose(value);
  return toIssues(diagnose.errors ?? fast.errors);
}
