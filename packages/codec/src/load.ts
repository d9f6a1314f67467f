/** Run time: read a bundle (untrusted, bounded), check it, and compile its validators once. */
import type { Bundle } from "./bundle/bundle.js";
import { OTHER_BUNDLE, readBundle } from "./bundle/read.js";
import { ok, type Result } from "./errors.js";
import { fail } from "./feedback/format.js";
import { compileDecoder } from "./generate/decoder.js";
import { Codec } from "./public-codec.js";
import { adapterFor } from "./schema/adapters.js";
import { fanOutReason, inPlaceFanOut, inPlaceLoop } from "./schema/loops.js";
import { prepareSource } from "./schema/prepare.js";
import { Resources } from "./schema/resources.js";
import { whereCodeMayBeGenerated } from "./validate/codegen.js";
import { type FastValidator, Validators } from "./validate/validators.js";
import { IN_PLACE_PATHS } from "./validate/wire-check.js";

/** First-error validators compiled ahead of time from one bundle (a module standaloneModule wrote). */
export interface PrecompiledValidators {
  /** The digest of the bundle they were compiled from: with another bundle they are refused. */
  readonly digest: string;
  readonly source: FastValidator;
  readonly wire: FastValidator;
}

export interface LoadOptions {
  /** Use these instead of compiling the validators (the all-errors ones still compile, on the first rejection). */
  readonly precompiled?: PrecompiledValidators;
}

export function loadBundle<T = unknown>(
  input: string | Uint8Array | unknown,
  options: LoadOptions = {},
): Result<Codec<T>> {
  return whereCodeMayBeGenerated(() => loadChecked<T>(input, options));
}

function loadChecked<T>(input: string | Uint8Array | unknown, options: LoadOptions): Result<Codec<T>> {
  const read = readBundle(input);
  if (!read.ok) return read;
  const bundle = read.value;
  const prepared = prepareSource(bundle.source, adapterFor(bundle.options.dialect));
  if (!prepared.ok) return fail("invalid-bundle", "/source", prepared.reason);
  const sourceResources = new Resources(prepared.value.schema);
  const loop = inPlaceLoop(prepared.value.schema, sourceResources);
  if (loop !== undefined) {
    return fail("invalid-bundle", `/source${loop}`, "the source refers back to itself without reading any deeper");
  }
  // The source's validator runs on every decoded value too: compile refuses such a source, a hand may write one.
  const sourceOver = inPlaceFanOut(prepared.value.schema, sourceResources, IN_PLACE_PATHS);
  if (sourceOver !== undefined) return fail("invalid-bundle", `/source${sourceOver}`, fanOutReason(IN_PLACE_PATHS));
  const wire = wireLoops<T>(bundle.wire);
  if (wire !== undefined) return wire;
  const pre = options.precompiled;
  if (pre !== undefined) {
    if (pre.digest !== bundle.digest) {
      return fail("digest-mismatch", "/digest", OTHER_BUNDLE);
    }
    return ok(
      new Codec<T>(bundle, Validators.precompiled(prepared.value, bundle.wire, pre.source, pre.wire), () =>
        compileDecoder(bundle.plan),
      ),
    );
  }
  const validators = Validators.create(prepared.value, bundle.wire);
  if (!validators.ok) return fail("invalid-bundle", "", validators.reason);
  return ok(new Codec<T>(bundle, validators.value, () => compileDecoder(bundle.plan)));
}

/**
 * The wire schema is checked against no plan (compile writes it from the plan, and a hand may
 * write another): its validators run on every refused call, so one that never ends is refused here.
 */
function wireLoops<T>(wire: Bundle["wire"]): Result<Codec<T>> | undefined {
  const resources = new Resources(wire);
  const loop = inPlaceLoop(wire, resources);
  if (loop !== undefined)
    return fail("invalid-bundle", `/wire${loop}`, "the wire schema refers back to itself without reading any deeper");
  const over = inPlaceFanOut(wire, resources, IN_PLACE_PATHS);
  if (over !== undefined) return fail("invalid-bundle", `/wire${over}`, fanOutReason(IN_PLACE_PATHS));
  return undefined;
}
