/**
 * Standalone modules: a bundle and every validator it needs compiled to code
 * ahead of time (ajv standalone code): the first-error pair, their all-errors
 * twins that describe a rejection, and encode's union branch tests. Loading
 * such a tool, and every call on it, runs no ajv. The module imports only
 * `@strictwire/codec/runtime`: the ajv runtime pieces its validators call
 * (string length, deep equality, formats, RE2) come from there, resolved
 * from the codec's own dependencies, so a user needs ajv neither installed
 * nor hoisted.
 */

import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { BUNDLE_FORMAT, type Bundle, digestOf } from "./bundle/bundle.js";
import { cjsDefault } from "./cjs.js";
import type { Codec } from "./codec.js";
import { WALK } from "./constructs/registry.js";
import { branchTestPointers } from "./constructs/union.js";
import { DECODER_PARAMS } from "./decode/compiled.js";
import { generateDecoder, tablePointers } from "./decode/generate.js";
import { ok, pointerToken, type Result } from "./errors.js";
import { fail } from "./feedback/format.js";
import type { Plan } from "./ir/nodes.js";
import { type LoadOptions, loadBundle, type PrecompiledValidators } from "./load.js";
// Imported under another name: this module exports `codecFromModule` as the earlier name of codecFromPrecompiled.
import { codecFromModule as codecOfThisVersion, type ModuleValidators } from "./runtime.js";
import { adapterFor } from "./schema/adapters.js";
import { type PreparedSource, prepareSource } from "./schema/prepare.js";
import { type AnyAjv, createAjv } from "./validate/ajv.js";
import { DUPLICATE_ITEMS_CODE, EQUAL_CODE } from "./validate/equality.js";
import { re2 } from "./validate/regexp.js";
import type { FastValidator } from "./validate/validators.js";

// Modules written before the run-time entry point import these from here.
export { type StandaloneRuntime, standaloneRuntime } from "./runtime.js";
export type { FastValidator, LoadOptions, ModuleValidators, PrecompiledValidators };

const standaloneCode = cjsDefault(standaloneCodeModule);

/** The name the generated module imports standaloneRuntime under. */
const RUNTIME = "strictwireRuntime";

/**
 * Every `require` ajv's code generation writes for JSON Schema validators, and
 * what replaces it. Outside string literals these appear only as written here
 * (inside one, a quote would be escaped), so a plain replacement is exact.
 */
const RUNTIME_CODE: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/equal").default': `${RUNTIME}.equal`,
  [EQUAL_CODE]: `${RUNTIME}.equal`,
  [DUPLICATE_ITEMS_CODE]: `${RUNTIME}.duplicateItems`,
  'require("ajv/dist/runtime/ucs2length").default': `${RUNTIME}.ucs2length`,
  'require("ajv-formats/dist/formats").fullFormats': `${RUNTIME}.fullFormats`,
  [re2.code]: `${RUNTIME}.re2`,
};

/** The specifier a generated module imports; it must resolve from where the module is put. */
export const STANDALONE_SPECIFIER = "@strictwire/codec/runtime";

/**
 * The source of an ES module exporting `bundle`, `validateSource` and
 * `validateWire` (first-error validators, as code) and `load()`, which gives
 * the bundle's Codec (a Result, as loadBundle does) without compiling them.
 */
export function standaloneModule(bundle: Bundle): Result<string> {
  if (bundle.format !== BUNDLE_FORMAT || digestOf(bundle) !== bundle.digest) {
    return fail("digest-mismatch", "/digest", "the bundle's content does not match its digest: compile it again");
  }
  const prepared = prepareSource(bundle.source, adapterFor(bundle.options.dialect));
  if (!prepared.ok) return fail("invalid-bundle", "/source", prepared.reason);
  for (const [which, schema] of [
    ["source", prepared.value.schema],
    ["wire", bundle.wire],
  ] as const) {
    const at = commentBreakingId(schema);
    if (at !== undefined) {
      return fail("unsupported-schema", `/${which}${at}`, 'an $id holding "*/" cannot be written as code');
    }
  }
  const validators: Partial<Record<keyof typeof VALIDATORS, string>> = {};
  for (const [name, { which, allErrors }] of Object.entries(VALIDATORS) as [keyof typeof VALIDATORS, Spec][]) {
    // Separate instances, as at load: the source may be draft-07 while the wire is always 2020-12.
    const ajv = createAjv(which === "source" ? prepared.value.family : "2020", allErrors);
    const code = validatorCode(ajv, which, () =>
      standaloneCode(ajv, ajv.compile((which === "source" ? prepared.value.schema : bundle.wire) as object | boolean)),
    );
    if (!code.ok) return code;
    validators[name] = code.value;
  }
  const branches = branchesCode(prepared.value, bundle.plan);
  if (!branches.ok) return branches;
  const generated = generateDecoder(bundle.plan);
  const table = tablePointers(bundle.plan, generated.table);
  const decoder = table === undefined ? undefined : { source: generated.source, table };
  return ok(moduleText(bundle, validators as Record<keyof typeof VALIDATORS, string>, branches.value, decoder));
}

interface Spec {
  readonly which: "source" | "wire";
  readonly allErrors: boolean;
}

/** The validators a module exports, by name. */
const VALIDATORS = {
  validateSource: { which: "source", allErrors: false },
  validateWire: { which: "wire", allErrors: false },
  diagnoseSource: { which: "source", allErrors: true },
  diagnoseWire: { which: "wire", allErrors: true },
} as const satisfies Record<string, Spec>;

/**
 * A Codec from the validators a generated module of any version hands over:
 * the bundle is checked as loadBundle checks it. A module of this version
 * hands every validator (no ajv runs: `codecFromModule` of
 * `@strictwire/codec/runtime`, which such a module calls itself); one written
 * before it hands the first-error pair, and ajv compiles the rest when needed.
 */
export function codecFromPrecompiled<T = unknown>(
  bundle: unknown,
  validators: PrecompiledValidators | ModuleValidators,
): Result<Codec<T>> {
  if ("diagnoseSource" in validators) return codecOfThisVersion<T>(bundle, validators);
  return loadBundle<T>(bundle, { precompiled: validators });
}

/**
 * @deprecated codecFromPrecompiled under the name that modules written before
 * `@strictwire/codec/runtime` import from `@strictwire/codec/standalone`: kept so they load.
 */
export const codecFromModule = codecFromPrecompiled;

/**
 * Encode's branch tests as one object of validators (shared code written
 * once), with the source location each stands for. A location ajv cannot
 * compile is left out: the codec then counts it as unknown, as at load.
 */
function branchesCode(prepared: PreparedSource, plan: Plan): Result<{ code: string; names: [string, string][] }> {
  const ajv = createAjv(prepared.family, false);
  // Each branch validator is compiled below, before validatorCode: keep its source from the start.
  ajv.opts.code.source = true;
  if (typeof prepared.schema !== "boolean") ajv.addSchema(prepared.schema);
  const refs: Record<string, string> = {};
  const names: [string, string][] = [];
  for (const pointer of branchTestPointers(plan, WALK)) {
    const key = `strictwire:branch:${names.length}`;
    try {
      // Already URI-encoded by the builder, so that no pointer holds a raw space.
      ajv.addSchema({ $ref: `${prepared.id}#${pointer}` }, key);
      if (ajv.getSchema(key) === undefined) continue;
    } catch {
      ajv.removeSchema(key);
      continue;
    }
    const name = `b${names.length}`;
    refs[name] = key;
    names.push([pointer, name]);
  }
  if (names.length === 0) return ok({ code: "{}", names });
  const code = validatorCode(ajv, "source", () => standaloneCode(ajv, refs));
  return code.ok ? ok({ code: code.value, names }) : code;
}

/** Validators as an expression: ajv's CommonJS output, scoped so that two modules' names cannot collide. */
function validatorCode(ajv: AnyAjv, which: "source" | "wire", generate: () => string): Result<string> {
  // Code generation keeps each validator's source only when asked; createAjv keeps the options in one place.
  ajv.opts.code.source = true;
  let code: string;
  try {
    code = generate();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail("invalid-bundle", `/${which}`, `the ${which} schema's validator cannot be written as code: ${reason}`);
  }
  for (const [required, replacement] of Object.entries(RUNTIME_CODE)) code = code.split(required).join(replacement);
  // ajv writes schema values as object literals, where a "__proto__" key would set the
  // prototype instead of a member; a computed key is an own member. Unescaped, a quoted
  // key after { or , occurs only in those literals.
  code = code.replace(/([{,])"__proto__":/g, '$1["__proto__"]:');
  const left = /require\("([^"]*)"\)/.exec(code);
  if (left !== null) {
    return fail(
      "unsupported-schema",
      `/${which}`,
      `the ${which} schema's validator needs ${JSON.stringify(left[1])}, which a standalone module does not import`,
    );
  }
  return ok(
    `(() => {\n  const module = { exports: {} };\n  const exports = module.exports;\n  ${code}\n  return module.exports;\n})()`,
  );
}

/**
 * ajv's code generation puts each `$id` in a comment (`/*# sourceURL="…" *\/`),
 * quoted as JSON, which does not escape `*\/`: such an id would end the
 * comment and run as code. Where the first one is, if any.
 */
function commentBreakingId(root: unknown): string | undefined {
  const work: [unknown, string][] = [[root, ""]];
  while (work.length > 0) {
    const [node, at] = work.pop()!;
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${pointerToken(key)}`;
      // As ajv quotes it: JSON, or a list joined first; either way "*/" in it shows in its JSON.
      if (key === "$id" && JSON.stringify(value).includes("*/")) return here;
      work.push([value, here]);
    }
  }
  return undefined;
}

/**
 * The import of the run-time entry: codecFromModule and only the pieces the
 * validators call (RUNTIME_CODE's), so that a bundler leaves the others out,
 * the RE2 engine above all. Gathered under the one name the code refers to.
 */
function runtimeImport(code: readonly string[]): string[] {
  const used = new Set<string>();
  const reference = new RegExp(`\\b${RUNTIME}\\.(\\w+)`, "g");
  const known = new Set(Object.values(RUNTIME_CODE).map((r) => r.slice(RUNTIME.length + 1)));
  // A schema's string may spell a reference too: only the pieces that exist are imported.
  for (const text of code) for (const m of text.matchAll(reference)) if (known.has(m[1]!)) used.add(m[1]!);
  const pieces = [...used].sort();
  const imports = ["codecFromModule", ...pieces.map((p) => `${p} as ${RUNTIME}_${p}`)].join(", ");
  return [
    `import { ${imports} } from ${JSON.stringify(STANDALONE_SPECIFIER)};`,
    `const ${RUNTIME} = { ${pieces.map((p) => `${p}: ${RUNTIME}_${p}`).join(", ")} };`,
  ];
}

/** A string literal that also ends no line: U+2028 and U+2029, which JSON leaves raw, would end a // comment. */
const jsString = (text: string): string =>
  JSON.stringify(text).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");

function moduleText(
  bundle: Bundle,
  validators: Record<keyof typeof VALIDATORS, string>,
  branches: { code: string; names: [string, string][] },
  decoder: { source: string; table: string[] } | undefined,
): string {
  // The generated decoder's source holds data only as literals (decode/code.ts), so it is code as it stands.
  const decoderLines =
    decoder === undefined
      ? ["export const decoder = undefined;", ""]
      : [
          "/** The generated decoder (one pass: parse limits, wire structure, the original value), as code. */",
          `function decoderFactory(${DECODER_PARAMS.join(", ")}) {\n${decoder.source}\n}`,
          `export const decoder = { factory: decoderFactory, table: JSON.parse(${jsString(JSON.stringify(decoder.table))}) };`,
          "",
        ];
  const branchMap = branches.names.map(([pointer, name]) => `[${jsString(pointer)}, branchCode.${name}]`).join(", ");
  const lines = [
    `// Tool ${jsString(bundle.name)}: its strictwire bundle, with its validators compiled to code.`,
    "// Generated by strictwire (compile --emit module). Regenerate it; do not edit.",
    `// Needs ${STANDALONE_SPECIFIER} resolvable from this file.`,
    ...runtimeImport([...Object.values(validators), branches.code]),
    "",
    // JSON.parse, not an object literal: in a literal, a "__proto__" member would set the prototype.
    "/** The bundle, as compiled. */",
    `export const bundle = JSON.parse(${jsString(JSON.stringify(bundle))});`,
    "",
    "/** The original contract's validator, first error only. */",
    `export const validateSource = ${validators.validateSource};`,
    "",
    "/** The wire schema's validator, first error only. */",
    `export const validateWire = ${validators.validateWire};`,
    "",
    "/** The original contract's validator, every error: run only to describe a rejection. */",
    `export const diagnoseSource = ${validators.diagnoseSource};`,
    "",
    "/** The wire schema's validator, every error: run only to describe a rejection. */",
    `export const diagnoseWire = ${validators.diagnoseWire};`,
    "",
    `const branchCode = ${branches.code};`,
    "",
    "/** Encode's union branch tests, by source location (a Map: a location may be any string). */",
    `export const validateBranch = new Map([${branchMap}]);`,
    "",
    ...decoderLines,
    "let loaded;",
    "",
    "/** The bundle's Codec, as loadBundle returns it ({ ok, value } or { ok, error }), built once with the validators above. */",
    "export function load() {",
    `  loaded ??= codecFromModule(bundle, { digest: ${jsString(bundle.digest)}, source: validateSource, wire: validateWire, diagnoseSource, diagnoseWire, branches: validateBranch, decoder });`,
    "  return loaded;",
    "}",
    "",
  ];
  return lines.join("\n");
}
