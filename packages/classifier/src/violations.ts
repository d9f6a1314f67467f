/**
 * Full JSON Schema validation (ajv), with ajv's errors translated into the
 * seed's one-line-per-problem wording: "arguments.amount_cents: expected
 * integer, got string". Each rule's sentence is the codec's formatter's
 * (`feedback/rules.ts`); this file finds the problems and their paths.
 */

import { linearRegExp, memberRuleSentence, ruleSentence, typeName } from "@strictwire/codec";
import { isPlainObject, pointerToken, prepareSchema } from "@strictwire/codec/schema";
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { clip, errorMessage } from "./json.js";
import { renderPath } from "./paths.js";

// ajv-formats is CommonJS; under NodeNext its plugin is the default export's default.
const addFormats = addFormatsModule.default;

type Engine = Ajv | Ajv2019 | Ajv2020;
type Draft = "2020-12" | "2019-09" | "draft-07";

export type SchemaCheck =
  | { readonly kind: "valid" }
  | { readonly kind: "violations"; readonly problems: readonly string[] }
  | { readonly kind: "invalid-schema"; readonly message: string };

interface Compiled {
  readonly engine: Engine;
  readonly validate: ValidateFunction;
  /** Where each schema object sits in the root, to find a combinator's branches again. */
  readonly pointers: ReadonlyMap<object, string>;
}

type Compilation =
  | { readonly ok: true; readonly compiled: Compiled }
  | { readonly ok: false; readonly message: string };

const ROOT_KEY = "root";
// verbose puts the failing data and schema objects on each error, which the
// translation needs; logger:false keeps ajv from writing to the console.
// Patterns in stored schemas run on stored model output: RE2 (linear time), as in the codec.
// ownProperties: a member called "constructor" is data, never something inherited.
const OPTIONS: Options = {
  strict: false,
  allErrors: true,
  verbose: true,
  logger: false,
  ownProperties: true,
  code: { regExp: linearRegExp },
};
const VALID: SchemaCheck = { kind: "valid" };

/**
 * The schema as the codec reads it (the codec's draft detection, draft-04
 * rewritten, draft-06 read as draft-07), so the classifier cannot disagree
 * with the codec it predicts for. A $schema the codec does not know is read as draft-07.
 */
function asTheCodecReads(schema: object | boolean): { schema: object | boolean; draft: Draft } {
  const prepared = prepareSchema(schema);
  if (!prepared.ok) return { schema, draft: "draft-07" };
  const family = prepared.value.family;
  return {
    schema: prepared.value.schema,
    draft: family === "2020" ? "2020-12" : family === "2019" ? "2019-09" : "draft-07",
  };
}

function newEngine(draft: Draft): Engine {
  const engine =
    draft === "2020-12" ? new Ajv2020(OPTIONS) : draft === "2019-09" ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
  addFormats(engine);
  return engine;
}

function indexSchema(root: unknown): Map<object, string> {
  const pointers = new Map<object, string>();
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object" || pointers.has(node)) return;
    pointers.set(node, pointer);
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((item, index) => [String(index), item])
      : Object.entries(node);
    for (const [key, child] of entries) visit(child, `${pointer}/${pointerToken(key)}`);
  };
  visit(root, "");
  return pointers;
}

function compile(schema: object | boolean): Compilation {
  const read = asTheCodecReads(schema);
  const draft = read.draft;
  // The draft is chosen above; a $schema ajv does not know (an https
  // spelling) would otherwise fail as an unknown meta-schema.
  let prepared: object | boolean = read.schema;
  if (isPlainObject(prepared) && "$schema" in prepared) {
    const { $schema: _dropped, ...rest } = prepared;
    prepared = rest;
  }
  try {
    const engine = newEngine(draft);
    engine.addSchema(prepared, ROOT_KEY);
    const validate = engine.getSchema(ROOT_KEY);
    if (!validate) return { ok: false, message: "the schema did not compile" };
    if ("$async" in validate && validate.$async === true)
      return { ok: false, message: "asynchronous schemas ($async) are not supported" };
    return { ok: true, compiled: { engine, validate, pointers: indexSchema(prepared) } };
  } catch (error) {
    return { ok: false, message: clip(errorMessage(error)) };
  }
}

// Distinct tool schemas are few; one ajv instance each keeps an $id in one
// schema from colliding with the same $id in another.
const MAX_CACHED = 256;
const byText = new Map<string, Compilation>();
const byObject = new WeakMap<object, Compilation>();

function compilation(schema: object | boolean): Compilation {
  const known = typeof schema === "object" ? byObject.get(schema) : undefined;
  if (known) return known;
  // Every stored response carries its own copy of the same few schemas, so the
  // key is computed per call: the native JSON.stringify, not a canonical form
  // (a reordered copy only costs one more compilation).
  const key = JSON.stringify(schema);
  let found = byText.get(key);
  if (found) byText.delete(key);
  else found = compile(schema);
  byText.set(key, found);
  if (byText.size > MAX_CACHED) {
    const oldest = byText.keys().next();
    if (!oldest.done) byText.delete(oldest.value);
  }
  if (typeof schema === "object") byObject.set(schema, found);
  return found;
}

/** Check a value against a declared schema. No schema, or {}, constrains nothing. */
export function checkSchema(value: unknown, schema: unknown, label = "arguments"): SchemaCheck {
  if (schema === null || schema === undefined) return VALID;
  if (isPlainObject(schema) && Object.keys(schema).length === 0) return VALID;
  if (!isPlainObject(schema) && typeof schema !== "boolean") {
    return { kind: "invalid-schema", message: `the schema is ${typeName(schema)}, not an object or a boolean` };
  }
  const found = compilation(schema);
  if (!found.ok) return { kind: "invalid-schema", message: found.message };
  const { validate } = found.compiled;
  let valid: unknown;
  try {
    valid = validate(value);
  } catch (error) {
    return { kind: "invalid-schema", message: clip(errorMessage(error)) };
  }
  if (valid === true) return VALID;
  const problems = describe(validate.errors ?? [], { compiled: found.compiled, root: value, label });
  return { kind: "violations", problems: problems.length > 0 ? problems : [`${label}: does not match the schema`] };
}

/**
 * Where a parsed argument object departs from its declared schema, one line
 * per problem. A schema that cannot be compiled is reported as one line too.
 */
export function schemaViolations(value: unknown, schema: unknown, label = "arguments"): string[] {
  const check = checkSchema(value, schema, label);
  if (check.kind === "valid") return [];
  if (check.kind === "violations") return [...check.problems];
  return [`${label}: the declared schema cannot be used (${check.message})`];
}

// ---- translating ajv errors ------------------------------------------------

interface Context {
  readonly compiled: Compiled;
  readonly root: unknown;
  readonly label: string;
}

type AjvError = ErrorObject & { readonly propertyName?: string };

interface Described {
  readonly error: AjvError;
  readonly line: string | undefined;
  /** How many errors just before this one it accounts for. */
  readonly consumed: number;
}

function describe(errors: readonly AjvError[], context: Context): string[] {
  const entries: Described[] = [];
  for (let index = errors.length - 1; index >= 0; ) {
    const entry = describeAt(errors, index, context);
    entries.push(entry);
    index -= 1 + entry.consumed;
  }
  entries.reverse();
  // As in the seed, a value of the wrong type is reported alone: its enum,
  // pattern or alternatives are noise once the type is wrong.
  const mistyped = new Set(entries.filter((e) => e.error.keyword === "type").map((e) => e.error.instancePath));
  const lines = entries
    .filter((e) => e.error.keyword === "type" || !mistyped.has(e.error.instancePath))
    .map((e) => e.line)
    .filter((line): line is string => line !== undefined);
  return [...new Set(lines)];
}

function describeAt(errors: readonly AjvError[], index: number, context: Context): Described {
  const error = errors[index]!;
  switch (error.keyword) {
    case "anyOf":
    case "oneOf":
      return describeCombinator(errors, index, context);
    case "propertyNames":
      return describePropertyName(errors, index, context);
    case "contains":
      return { error, line: keywordLine(error, context), consumed: precedingUnder(errors, index) };
    case "if":
      // "must match then": the failing then/else keywords are reported themselves.
      return { error, line: undefined, consumed: 0 };
    default:
      return { error, line: keywordLine(error, context), consumed: 0 };
  }
}

/** Errors just before index whose schema path lies under that error's. */
function precedingUnder(errors: readonly AjvError[], index: number): number {
  const prefix = `${errors[index]!.schemaPath}/`;
  let count = 0;
  while (index - count - 1 >= 0 && errors[index - count - 1]!.schemaPath.startsWith(prefix)) count += 1;
  return count;
}

function fragment(pointer: string): string {
  const tokens = pointer.split("/").slice(1);
  return `${ROOT_KEY}#${tokens.map((token) => `/${encodeURIComponent(token)}`).join("")}`;
}

/**
 * Each branch's own errors, found by validating the branch again. Branches
 * reached through $ref report schema paths in the referenced definition's
 * terms, so schema paths cannot say which errors belong to which branch.
 */
function branchErrors(error: AjvError, context: Context): AjvError[][] | undefined {
  const parent = error.parentSchema;
  const base = parent && typeof parent === "object" ? context.compiled.pointers.get(parent) : undefined;
  if (base === undefined || !Array.isArray(error.schema)) return undefined;
  try {
    return error.schema.map((_, branch) => {
      const validate = context.compiled.engine.getSchema(fragment(`${base}/${error.keyword}/${branch}`));
      if (!validate) throw new Error("branch not found");
      if (validate(error.data) === true) return [];
      return (validate.errors ?? []).map((e) => ({ ...e, instancePath: error.instancePath + e.instancePath }));
    });
  } catch {
    return undefined;
  }
}

/** ajv emits a failing combinator's branch errors immediately before it. */
function isBlockBefore(errors: readonly AjvError[], index: number, block: readonly AjvError[]): boolean {
  const start = index - block.length;
  return (
    start >= 0 &&
    block.every(
      (e, k) => errors[start + k]!.keyword === e.keyword && errors[start + k]!.instancePath === e.instancePath,
    )
  );
}

function describeCombinator(errors: readonly AjvError[], index: number, context: Context): Described {
  const error = errors[index]!;
  const path = renderPath(context.label, error.instancePath, context.root);
  const keyword = error.keyword;
  const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
  const branches = branchErrors(error, context);
  const block = branches?.flat();
  const exact = block !== undefined && isBlockBefore(errors, index, block);
  const consumed = exact ? block.length : precedingUnder(errors, index);
  if (Array.isArray(passing)) {
    const which = passing.map((branch) => `oneOf[${String(branch)}]`).join(" and ");
    return {
      error,
      line: `${path}: matches ${passing.length} alternatives of oneOf (${which}), and must match exactly one`,
      consumed,
    };
  }
  const count = Array.isArray(error.schema) ? ` ${error.schema.length}` : "";
  const reasons = exact
    ? branches!.map((list, branch) => {
        const text = describe(list, context).map(relativeTo(path)).join(", ");
        return `${keyword}[${branch}]: ${text || "does not match"}`;
      })
    : [];
  const why = reasons.length > 0 ? ` (${reasons.join(" | ")})` : "";
  return { error, line: `${path}: matches none of the${count} alternatives of ${keyword}${why}`, consumed };
}

function describePropertyName(errors: readonly AjvError[], index: number, context: Context): Described {
  const error = errors[index]!;
  const key = String((error.params as { propertyName?: unknown }).propertyName ?? "");
  const path = renderPath(context.label, error.instancePath, context.root);
  let consumed = 0;
  while (index - consumed - 1 >= 0 && errors[index - consumed - 1]!.propertyName === key) consumed += 1;
  const subs = errors.slice(index - consumed, index).map((sub) => keywordLine(sub, context));
  const reasons = subs.filter((line): line is string => line !== undefined).map(relativeTo(path));
  const why = reasons.length > 0 ? ` (${reasons.join(", ")})` : "";
  return { error, line: `${path}: the key ${JSON.stringify(key)} is not an allowed key name${why}`, consumed };
}

function relativeTo(path: string): (line: string) => string {
  return (line) => (line.startsWith(`${path}: `) ? line.slice(path.length + 2) : line);
}

function keywordLine(error: AjvError, context: Context): string {
  const p = error.params as Record<string, unknown>;
  const member = memberRuleSentence(error.keyword, p);
  if (member !== undefined) {
    return `${renderPath(context.label, `${error.instancePath}/${pointerToken(member.member)}`, context.root)}: ${member.text}`;
  }
  const breach = {
    keyword: error.keyword,
    params: p,
    data: error.data,
    ...(error.message ? { message: error.message } : {}),
  };
  return `${renderPath(context.label, error.instancePath, context.root)}: ${ruleSentence(breach)}`;
}
