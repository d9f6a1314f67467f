/**
 * Reading a bundle (untrusted, bounded): readable JSON, the current format,
 * the right shape, content matching its digest. What both loaders share: the
 * one that compiles validators and the run-time one that is handed them.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { isPlainObject } from "../json.js";
import { parseText } from "../parse/parser.js";
import { BUNDLE_FORMAT, BUNDLE_READ_LIMITS, type Bundle, digestOf, PREVIOUS_FORMATS } from "./bundle.js";
import { checkBundleShape } from "./check.js";

export function readBundle(input: string | Uint8Array | unknown): Result<Bundle> {
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
  if ((PREVIOUS_FORMATS as readonly unknown[]).includes(value.format)) return readPrevious(value);
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
  return ok(bundle);
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
