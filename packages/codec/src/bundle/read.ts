/**
 * Reading a bundle (untrusted, bounded): readable JSON, the current format,
 * the right shape, content matching its digest. What both loaders share: the
 * one that compiles validators and the run-time one that is handed them.
 *
 * The bundle a generated module holds is read the same way but for its
 * digest and its plan: the module is code, kept whole by whoever bundles and
 * ships it, as its validators are, and the digest its validators were
 * compiled from is compared instead; its plan takes the cheaper check of
 * check.ts's checkModuleBundleShape (why is there). So the module path needs
 * no SHA-256 and no plan walk (readModuleBundle reaches neither digestOf nor
 * checkPlan, and a bundler leaves both out, the nodes' shapes with them).
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import type { Check } from "../ir/shape.js";
import { isPlainObject } from "../json.js";
import { parseText } from "../parse/parser.js";
import { BUNDLE_FORMAT, BUNDLE_READ_LIMITS, type Bundle, digestOf, PREVIOUS_FORMATS } from "./bundle.js";
import { checkBundleShape, checkModuleBundleShape } from "./check.js";

/** What a loader says when validators compiled ahead of time name another bundle's digest. */
export const OTHER_BUNDLE = "the precompiled validators were compiled from another bundle";

/** A bundle as JSON text, bytes or a value: read, of the current format or an earlier one, with its digest checked. */
export function readBundle(input: string | Uint8Array | unknown): Result<Bundle> {
  const value = bundleObject(input);
  if (!value.ok) return value;
  if ((PREVIOUS_FORMATS as readonly unknown[]).includes(value.value.format)) return readPrevious(value.value);
  const bundle = currentBundle(value.value, checkBundleShape);
  if (!bundle.ok) return bundle;
  if (digestOf(bundle.value) !== bundle.value.digest) {
    return fail(
      "digest-mismatch",
      "/digest",
      "the bundle's content does not match its digest: it was changed after compile, or damaged",
    );
  }
  return bundle;
}

/**
 * The bundle a generated module holds: read as readBundle reads it, but its
 * digest is not computed (the caller compares it with the digest the
 * module's validators were compiled from) and its plan takes the module's check.
 */
export function readModuleBundle(input: string | Uint8Array | unknown): Result<Bundle> {
  const value = bundleObject(input);
  if (!value.ok) return value;
  if ((PREVIOUS_FORMATS as readonly unknown[]).includes(value.value.format)) {
    // Read in the current format, an earlier format's bundle has another digest than the one the
    // module's validators were compiled from (readPrevious recomputes it): no module holding one loads.
    return fail("digest-mismatch", "/digest", OTHER_BUNDLE);
  }
  return currentBundle(value.value, checkModuleBundleShape);
}

/** Text or bytes parsed within the read limits; a JSON object. */
function bundleObject(input: string | Uint8Array | unknown): Result<Record<string, unknown>> {
  let value: unknown = input;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const parsed = parseText(input, BUNDLE_READ_LIMITS);
    if (!parsed.ok)
      return fail(
        "invalid-bundle",
        parsed.error.path,
        `the bundle is not readable JSON (${parsed.error.code}): ${parsed.error.message}`,
      );
    value = parsed.value;
  }
  if (!isPlainObject(value)) return fail("invalid-bundle", "", "a bundle is a JSON object");
  return ok(value);
}

/** The current format and its shape, by the check the caller names. */
function currentBundle(value: Record<string, unknown>, checkShape: (b: unknown) => Check): Result<Bundle> {
  if (value.format !== BUNDLE_FORMAT) {
    return fail(
      "unsupported-format",
      "/format",
      `expected format ${JSON.stringify(BUNDLE_FORMAT)}, found ${JSON.stringify(value.format)}`,
    );
  }
  const shape = checkShape(value);
  if (!shape.ok) return fail("invalid-bundle", shape.path, shape.reason);
  return ok(value as unknown as Bundle);
}

/**
 * A bundle of an earlier format, checked against its own digest, then read
 * in the current format with what its format always meant (bundle.ts): @4 and @3
 * as it is; @2 with a wrapped root and the state spelling. Its digest is
 * recomputed for the new form.
 */
function readPrevious(value: Record<string, unknown>): Result<Bundle> {
  if (typeof value.digest !== "string" || digestOf(value as unknown as Bundle) !== value.digest) {
    return fail(
      "digest-mismatch",
      "/digest",
      "the bundle's content does not match its digest: it was changed after compile, or damaged",
    );
  }
  let { options, plan } = value;
  if (value.format === "strictwire/bundle@2") {
    options = isPlainObject(options) ? { ...options, tags: "state" } : options;
    plan = isPlainObject(plan) ? { ...plan, envelope: "arguments" } : plan;
  }
  const upgraded: Record<string, unknown> = { ...value, format: BUNDLE_FORMAT, options, plan };
  const shape = checkBundleShape(upgraded);
  if (!shape.ok) return fail("invalid-bundle", shape.path, shape.reason);
  const { digest: _old, ...rest } = upgraded;
  const bundle = rest as unknown as Omit<Bundle, "digest">;
  return ok({ ...bundle, digest: digestOf(bundle) } as Bundle);
}
