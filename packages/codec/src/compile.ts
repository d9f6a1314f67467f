/**
 * Build time: source schema -> bundle. The expensive work (IR, wire schema,
 * validator compilation as a check) happens here, once.
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import {
  ABSENCE_SPELLINGS,
  type AbsenceSpelling,
  BUNDLE_FORMAT,
  BUNDLE_READ_LIMITS,
  type Bundle,
  type BundleOptions,
  digestOf,
  type NonStrict,
  TAG_SPELLING_OPTIONS,
  type TagSpelling,
  type UnsignedBundle,
} from "./bundle/bundle.js";
import { NODE_KINDS } from "./constructs/compile/registry.js";
import { INPUT_DIALECTS, type InputDialect } from "./dialects.js";
import { ok, type Result } from "./errors.js";
import { fail } from "./feedback/author.js";
import { valueError } from "./feedback/value.js";
import { compileDecoder } from "./generate/decoder.js";
import { readSchemaInput } from "./input/library.js";
import { withStandardSchema } from "./input/library-validation.js";
import { buildPlan } from "./ir/build.js";
import type { Plan } from "./ir/nodes.js";
import { SchemaRefusal } from "./ir/schema-refusal.js";
import { cloneJson, deepFreeze, isPlainObject, type JsonObject, type JsonValue } from "./json.js";
import { DEFAULT_PARSE_LIMITS, MAX_DEPTH_LIMIT, type ParseLimits } from "./parse/parser.js";
import { Codec } from "./public-codec.js";
import { adapterFor } from "./schema/adapters.js";
import { measureDocument, walkSchemas } from "./schema/draft.js";
import { fanOutReason, inPlaceFanOut, inPlaceLoop } from "./schema/loops.js";
import { prepareSource } from "./schema/prepare.js";
import { embedResources, Resources, type SchemaResources } from "./schema/resources.js";
import { checkSchemaLimits, TARGET_NAMES, type TargetName, targetProfile } from "./targets/index.js";
import { toSpelling } from "./targets/spelling.js";
import { metaValidator, toIssues } from "./validate/ajv.js";
import { whereCodeMayBeGenerated } from "./validate/codegen.js";
import { Validators } from "./validate/validators.js";
import { IN_PLACE_PATHS } from "./validate/wire-check.js";
import { measureValue } from "./value-limits.js";
import { wireSchema } from "./wire-schema/assemble.js";
import { factorWire } from "./wire-schema/factor.js";
import { fitFirstKeys, unionKey } from "./wire-schema/first-key-unions.js";

export interface CompileOptions {
  /** Tool name (letters, digits, _ and -, at most 64). Default: "tool". */
  readonly name?: string;
  /** Tool description. Default: the schema's own description. */
  readonly description?: string;
  readonly target?: TargetName;
  /**
   * How absence is spelled where the target has no native optional members:
   * "tagged" (default) in a presence tag, "compact" as null. Each member's own
   * `Presence` (tagged, inline, compact, native) is decided from it.
   */
  readonly presence?: AbsenceSpelling;
  /**
   * How presence tags are spelled: "state" (default) `{"state":"absent"}` /
   * `{"state":"present","value":…}`, or "minimal" `{}` / `{"value":…}`: fewer
   * tokens for the model to write; which one a model writes well is for
   * `strictwire eval` to say.
   */
  readonly tags?: TagSpelling;
  readonly openObjects?: "close" | "preserve";
  /** Share repeated subschemas through wire $defs. */
  readonly factored?: boolean;
  /**
   * What to do with a tool over the target's limits as written (a `target-limit` refusal):
   * "required" (default) refuses it; "auto" compiles it to be sent with strict mode off, says so
   * in `bundle.nonStrict` (and `toolDefinition` writes `strict: false`), and decode still holds
   * every call to the original schema.
   */
  readonly strict?: "required" | "auto";
  /** A schema written in a dialect that is not quite JSON Schema, read through its input adapter. */
  readonly dialect?: InputDialect;
  /** The decoder's parse limits for this tool. */
  readonly limits?: Partial<ParseLimits>;
  /**
   * Other documents the schema refers to (`"$ref": "common.json#/$defs/Address"`),
   * never fetched: a map or record from URI to schema, or a list of schemas with
   * their own `$id`. Relative URIs resolve against the schema's `$id` (or the
   * default base), so a key `"common.json"` answers that `$ref`. The ones the
   * schema reaches are embedded in the bundle's source.
   */
  readonly resources?: SchemaResources;
}

/** Largest source document read, in JSON values, and its deepest nesting. */
const MAX_SOURCE_NODES = 200_000;
const MAX_SOURCE_DEPTH = 256;
/** Absolute cap on IR nodes, whatever the source size. */
const MAX_EXPANSION = 50_000;
/**
 * Largest enum read. The draft-04/06/07 meta-schemas say enum items are
 * unique, and ajv checks uniqueness of untyped items pairwise: quadratic.
 */
const MAX_ENUM_VALUES = 10_000;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function compile(schema: unknown, options: CompileOptions = {}): Result<Bundle> {
  const input = readSchemaInput(schema);
  if (!input.ok) return input;
  const r = whereCodeMayBeGenerated(() => compileInternal(input.value.json, options));
  return r.ok ? ok(r.value.bundle) : r;
}

/**
 * Compile and keep the validators: for callers that decode right away (tests, CLIs, servers).
 * A library schema (Zod 4, any Standard JSON Schema) gives a codec whose decode ends with the
 * library's own validation, typed by its output.
 */
export function compileCodec<S extends StandardSchemaV1>(
  schema: S,
  options?: CompileOptions,
): Result<Codec<StandardSchemaV1.InferOutput<S>>>;
export function compileCodec<T = unknown>(schema: unknown, options?: CompileOptions): Result<Codec<T>>;
export function compileCodec<T = unknown>(schema: unknown, options: CompileOptions = {}): Result<Codec<T>> {
  const input = readSchemaInput(schema);
  if (!input.ok) return input;
  const r = whereCodeMayBeGenerated(() => compileInternal(input.value.json, options));
  if (!r.ok) return r;
  const plan = r.value.bundle.plan;
  const codec = new Codec<T>(r.value.bundle, r.value.validators, () => compileDecoder(plan));
  const library = input.value.library;
  return ok(library === undefined ? codec : (withStandardSchema(codec, library) as Codec<T>));
}

function compileInternal(given: unknown, options: CompileOptions): Result<{ bundle: Bundle; validators: Validators }> {
  const resolved = resolveOptions(options);
  if (!resolved.ok) return resolved;
  const { bundleOptions, strict, name, limits } = resolved.value;
  const target = targetProfile(bundleOptions.target);

  let schema = given;
  if (options.resources !== undefined) {
    const all = options.resources instanceof Map ? [...options.resources.values()] : options.resources;
    const measured = measureDocument(all, MAX_SOURCE_NODES);
    if (measured.capped || measured.depth > MAX_SOURCE_DEPTH)
      return fail(
        "schema-too-large",
        "",
        `the resources are beyond ${MAX_SOURCE_NODES} JSON values or ${MAX_SOURCE_DEPTH} levels`,
      );
    const embedded = embedResources(schema, options.resources);
    if (!embedded.ok) return fail("invalid-options", "", embedded.reason);
    schema = embedded.schema;
  }

  const size = measureDocument(schema, MAX_SOURCE_NODES);
  if (size.capped) return fail("schema-too-large", "", `the schema has more than ${MAX_SOURCE_NODES} JSON values`);
  if (size.depth > MAX_SOURCE_DEPTH)
    return fail("schema-too-large", "", `the schema nests deeper than ${MAX_SOURCE_DEPTH} levels`);
  const asJson = measureValue(schema, {
    maxBytes: Number.POSITIVE_INFINITY,
    maxNodes: MAX_SOURCE_NODES + 1,
    maxDepth: MAX_SOURCE_DEPTH + 1,
  });
  if (!asJson.ok) {
    const breach = valueError(asJson.error);
    return fail("invalid-schema", breach.path, `the schema is not JSON: ${breach.message}`);
  }
  let largestEnum = 0;
  walkSchemas(schema, (node) => {
    if (Array.isArray(node.enum)) largestEnum = Math.max(largestEnum, node.enum.length);
  });
  if (largestEnum > MAX_ENUM_VALUES)
    return fail("schema-too-large", "", `an enum has ${largestEnum} values; at most ${MAX_ENUM_VALUES} are read`);

  const prepared = prepareSource(schema, adapterFor(bundleOptions.dialect));
  if (!prepared.ok) return fail("invalid-schema", "", prepared.reason);
  const meta = metaValidator(prepared.value.family);
  if (!meta.validateSchema(prepared.value.schema)) {
    const issues = toIssues(meta.errors);
    return fail(
      "invalid-schema",
      issues[0]?.path ?? "",
      `the schema is not valid against its meta-schema: ${issues.map((i) => `${i.path || "/"} ${i.message}`).join("; ")}`,
      { issues },
    );
  }

  const build = (tagUnions?: ReadonlySet<string>): Result<Plan> => {
    try {
      return ok(
        buildPlan(prepared.value.schema, resources, {
          openObjects: bundleOptions.openObjects,
          presence: bundleOptions.presence,
          tags: bundleOptions.tags,
          target,
          maxNodes: Math.min(MAX_EXPANSION, 1_000 + 20 * size.nodes),
          draft07: prepared.value.family === "07",
          kinds: NODE_KINDS,
          ...(tagUnions !== undefined ? { tagUnions: (node) => tagUnions.has(unionKey(node)) } : {}),
        }),
      );
    } catch (error) {
      if (error instanceof SchemaRefusal) return fail(error.code, error.path, error.reason);
      throw error;
    }
  };
  const assemble = (plan: Plan): JsonObject => {
    let w = wireSchema(plan, target);
    if (bundleOptions.factored) w = factorWire(w);
    return toSpelling(w, target.spelling);
  };

  let resources: Resources;
  try {
    resources = new Resources(prepared.value.schema);
    const loop = inPlaceLoop(prepared.value.schema, resources);
    if (loop !== undefined) {
      return fail(
        "unsupported-schema",
        loop,
        "this schema refers back to itself without reading any deeper into the value, so validating it would never end",
      );
    }
  } catch (error) {
    if (error instanceof SchemaRefusal) return fail(error.code, error.path, error.reason);
    throw error;
  }
  const first = build();
  if (!first.ok) return first;
  // Without a loop, chains that multiply (anyOf naming the next definition twice, thirty deep) share
  // their plan nodes and build fine, but the contract's validator runs each of them on a value that
  // fails: 2^30 checks, a hang on one decode. After the build, whose own budgets refuse first.
  const over = inPlaceFanOut(prepared.value.schema, resources, IN_PLACE_PATHS);
  if (over !== undefined) return fail("schema-too-large", over, fanOutReason(IN_PLACE_PATHS));
  let built = first.value;
  let wire = assemble(built);
  /** Set when the tool is over the target's limits and `strict: "auto"` sends it with strict mode off. */
  let nonStrict: NonStrict | undefined;
  if (target.distinctFirstKeys) {
    const fitted = fitFirstKeys(name, target, { plan: built, wire }, (tagged) => {
      const again = build(tagged);
      return again.ok ? ok({ plan: again.value, wire: assemble(again.value) }) : again;
    });
    if (fitted.ok) {
      built = fitted.value.plan;
      wire = fitted.value.wire;
    } else if (strict !== "auto") return fitted;
    else nonStrict = nonStrictFor(fitted.error);
  }
  let withinLimits = checkSchemaLimits(name, wire, target);
  if (!withinLimits.ok && built !== first.value) {
    // The limit is crossed by the tag form the first-key rule needed: say so.
    const { code, path, message } = withinLimits.error;
    withinLimits = fail(
      code,
      path,
      `${message}; it is crossed by the union tag form ({"branch": i, "value": ...}) that OpenAI's first-key rule needs where the object branches of an anyOf share their first member`,
    );
  }
  if (!withinLimits.ok) {
    if (strict !== "auto") return withinLimits;
    nonStrict ??= nonStrictFor(withinLimits.error);
  }

  const validators = Validators.create(prepared.value, wire);
  if (!validators.ok) {
    const code = validators.pattern ? "unsafe-pattern" : validators.tooLarge ? "schema-too-large" : "invalid-schema";
    return fail(code, "", validators.reason);
  }

  const description =
    options.description ??
    (isPlainObject(schema) && typeof schema.description === "string" ? schema.description : undefined);
  const unsigned: UnsignedBundle = {
    format: BUNDLE_FORMAT,
    name,
    ...(description !== undefined ? { description } : {}),
    options: bundleOptions,
    source: cloneJson(schema) as JsonValue,
    wire,
    plan: built,
    limits,
    ...(nonStrict !== undefined ? { nonStrict } : {}),
  };
  const bundle: Bundle = { ...unsigned, digest: digestOf(unsigned) };
  // What compile writes must be readable by the bundle reader.
  const fits = measureValue(bundle, BUNDLE_READ_LIMITS);
  if (!fits.ok)
    return fail(
      "expansion-limit",
      "",
      `the bundle would be beyond the bundle reader's limits: ${valueError(fits.error).message}`,
    );
  return ok({ bundle: deepFreeze(bundle), validators: validators.value });
}

function resolveOptions(
  o: CompileOptions,
): Result<{ bundleOptions: BundleOptions; strict: "required" | "auto"; name: string; limits: ParseLimits }> {
  const name = o.name ?? "tool";
  if (!NAME.test(name))
    return fail("invalid-options", "", `tool name ${JSON.stringify(name)} must be 1 to 64 letters, digits, _ or -`);
  const target = o.target ?? "openai";
  if (!TARGET_NAMES.includes(target)) return fail("invalid-options", "", `unknown target ${JSON.stringify(target)}`);
  const presence = o.presence ?? "tagged";
  if (!ABSENCE_SPELLINGS.includes(presence))
    return fail("invalid-options", "", `unknown presence ${JSON.stringify(presence)}`);
  const tags = o.tags ?? "state";
  if (!TAG_SPELLING_OPTIONS.includes(tags))
    return fail("invalid-options", "", `unknown tag spelling ${JSON.stringify(tags)}`);
  const openObjects = o.openObjects ?? "close";
  if (openObjects !== "close" && openObjects !== "preserve") {
    return fail("invalid-options", "", `unknown openObjects policy ${JSON.stringify(openObjects)}`);
  }
  const strict = o.strict ?? "required";
  if (strict !== "required" && strict !== "auto")
    return fail("invalid-options", "", `unknown strict policy ${JSON.stringify(strict)}: "required" or "auto"`);
  if (o.dialect !== undefined && !INPUT_DIALECTS.includes(o.dialect))
    return fail("invalid-options", "", `unknown dialect ${JSON.stringify(o.dialect)}`);
  const limits = { ...DEFAULT_PARSE_LIMITS, ...(o.limits ?? {}) };
  for (const [k, v] of Object.entries(limits)) {
    if (!Number.isInteger(v) || v < 1) return fail("invalid-options", "", `limit ${k} must be a positive integer`);
  }
  if (limits.maxDepth > MAX_DEPTH_LIMIT) {
    return fail(
      "invalid-options",
      "",
      `limit maxDepth must be at most ${MAX_DEPTH_LIMIT}: deeper values would overflow the validators`,
    );
  }
  const bundleOptions: BundleOptions = {
    target,
    presence,
    tags,
    openObjects,
    factored: o.factored === true,
    ...(o.dialect !== undefined ? { dialect: o.dialect } : {}),
  };
  return ok({ bundleOptions, strict, name, limits });
}

export type { JsonObject };

/** The refusal a non-strict tool escaped, as its bundle records it. */
function nonStrictFor(error: { readonly path: string; readonly message: string }): NonStrict {
  const limit = /^(\w+):/.exec(error.message)?.[1] ?? "target-limit";
  return { limit, path: error.path, reason: error.message };
}
