/** Run time: read a bundle (untrusted, bounded), check it, and compile its validators once. */
import { BUNDLE_FORMAT, BUNDLE_READ_LIMITS, type Bundle, digestOf } from "./bundle/bundle.js";
import { checkBundleShape } from "./bundle/check.js";
import { Codec } from "./codec.js";
import { fail, ok, type Result } from "./errors.js";
import { isPlainObject } from "./json.js";
import { parseJson } from "./parse/parser.js";
import { adapterFor } from "./schema/adapters.js";
import { inPlaceLoop } from "./schema/loops.js";
import { prepareSource } from "./schema/prepare.js";
import { Resources } from "./schema/resources.js";
import { type FastValidator, Validators } from "./validate/validators.js";

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
  let value: unknown = input;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const parsed = parseJson(input, BUNDLE_READ_LIMITS);
    if (!parsed.ok)
      return fail(
        "invalid-bundle",
        parsed.error.path,
        `the bundle is not readable JSON (${parsed.error.code}): ${parsed.error.message}`,
      );
    value = parsed.value;
  }
  if (!isPlainObject(value)) return fail("invalid-bundle", "", "a bundle is a JSON object");
  if (value.format !== BUNDLE_FORMAT) {
    return fail(
      "unsupported-format",
      "/format",
      `expected format ${JSON.stringify(BUNDLE_FORMAT)}, found ${JSON.stringify(value.format)}`,
    );
  }
  const shape = checkBundleShape(value);
  if (!shape.ok) return fail("invalid-bundle", shape.path, shape.reason);
  const bundle = value as unknown as Bundle;
  if (digestOf(bundle) !== bundle.digest) {
    return fail(
      "digest-mismatch",
      "/digest",
      "the bundle's content does not match its digest: it was changed after compile, or damaged",
    );
  }
  const prepared = prepareSource(bundle.source, adapterFor(bundle.options.dialect));
  if (!prepared.ok) return fail("invalid-bundle", "/source", prepared.reason);
  const loop = inPlaceLoop(prepared.value.schema, new Resources(prepared.value.schema));
  if (loop !== undefined) {
    return fail("invalid-bundle", `/source${loop}`, "the source refers back to itself without reading any deeper");
  }
  const pre = options.precompiled;
  if (pre !== undefined) {
    if (pre.digest !== bundle.digest) {
      return fail("digest-mismatch", "/digest", "the precompiled validators were compiled from another bundle");
    }
    return ok(new Codec<T>(bundle, Validators.precompiled(prepared.value, bundle.wire, pre.source, pre.wire)));
  }
  const validators = Validators.create(prepared.value, bundle.wire);
  if (!validators.ok) return fail("invalid-bundle", "", validators.reason);
  return ok(new Codec<T>(bundle, validators.value));
}
