/**
 * Standalone modules: a bundle and its first-error validators compiled to
 * code ahead of time (ajv standalone code), so that loading a tool runs no
 * ajv compile. The module imports only `@strictwire/codec/standalone`: the
 * ajv runtime pieces its validators call (string length, deep equality,
 * formats, RE2) come from here, resolved from the codec's own dependencies,
 * so a user needs ajv neither installed nor hoisted.
 */

import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { BUNDLE_FORMAT, type Bundle, digestOf } from "./bundle/bundle.js";
import type { Codec } from "./codec.js";
import { fail, ok, pointerToken, type Result } from "./errors.js";
import { type LoadOptions, loadBundle, type PrecompiledValidators } from "./load.js";
import { adapterFor } from "./schema/adapters.js";
import { prepareSource } from "./schema/prepare.js";
import { type AnyAjv, createAjv } from "./validate/ajv.js";
import { re2 } from "./validate/regexp.js";
import type { FastValidator } from "./validate/validators.js";

export type { FastValidator, LoadOptions, PrecompiledValidators };

const standaloneCode = cjsDefault(standaloneCodeModule);

/** What a generated module's validators call. Its members are named in RUNTIME_CODE; keep the two in step. */
export interface StandaloneRuntime {
  readonly equal: (a: unknown, b: unknown) => boolean;
  readonly ucs2length: (text: string) => number;
  readonly fullFormats: typeof fullFormats;
  readonly re2: typeof re2;
}

export const standaloneRuntime: StandaloneRuntime = Object.freeze({
  equal: cjsDefault(equalModule),
  ucs2length: cjsDefault(ucs2lengthModule),
  fullFormats,
  re2,
});

/** A CommonJS `exports.default`: Node's default import is module.exports, a bundler's may be unwrapped already. */
function cjsDefault<T>(module: { default: T }): T {
  return typeof module === "function" ? (module as T) : module.default;
}

/** The name the generated module imports standaloneRuntime under. */
const RUNTIME = "strictwireRuntime";

/**
 * Every `require` ajv's code generation writes for JSON Schema validators, and
 * what replaces it. Outside string literals these appear only as written here
 * (inside one, a quote would be escaped), so a plain replacement is exact.
 */
const RUNTIME_CODE: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/equal").default': `${RUNTIME}.equal`,
  'require("ajv/dist/runtime/ucs2length").default': `${RUNTIME}.ucs2length`,
  'require("ajv-formats/dist/formats").fullFormats': `${RUNTIME}.fullFormats`,
  [re2.code]: `${RUNTIME}.re2`,
};

/** The specifier a generated module imports; it must resolve from where the module is put. */
export const STANDALONE_SPECIFIER = "@strictwire/codec/standalone";

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
  // Separate instances, as at load: the source may be draft-07 while the wire is always 2020-12.
  const source = validatorCode(createAjv(prepared.value.family, false), prepared.value.schema, "source");
  if (!source.ok) return source;
  const wire = validatorCode(createAjv("2020", false), bundle.wire, "wire");
  if (!wire.ok) return wire;
  return ok(moduleText(bundle, source.value, wire.value));
}

/** A Codec from a generated module's parts: the bundle is checked as loadBundle checks it, the validators are used as given. */
export function codecFromModule<T = unknown>(bundle: unknown, validators: PrecompiledValidators): Result<Codec<T>> {
  return loadBundle<T>(bundle, { precompiled: validators });
}

/** One validator as a function expression: ajv's CommonJS output, scoped so that two validators' names cannot collide. */
function validatorCode(ajv: AnyAjv, schema: unknown, which: "source" | "wire"): Result<string> {
  // Code generation keeps each validator's source only when asked; createAjv keeps the options in one place.
  ajv.opts.code.source = true;
  let code: string;
  try {
    code = standaloneCode(ajv, ajv.compile(schema as object | boolean));
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
  return ok(`(() => {\n  const module = { exports: {} };\n  ${code}\n  return module.exports;\n})()`);
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

/** A string literal that also ends no line: U+2028 and U+2029, which JSON leaves raw, would end a // comment. */
const jsString = (text: string): string =>
  JSON.stringify(text).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");

function moduleText(bundle: Bundle, source: string, wire: string): string {
  const lines = [
    `// Tool ${jsString(bundle.name)}: its strictwire bundle, with its validators compiled to code.`,
    "// Generated by strictwire (compile --emit module). Regenerate it; do not edit.",
    `// Needs ${STANDALONE_SPECIFIER} resolvable from this file.`,
    `import { codecFromModule, standaloneRuntime as ${RUNTIME} } from ${JSON.stringify(STANDALONE_SPECIFIER)};`,
    "",
    // JSON.parse, not an object literal: in a literal, a "__proto__" member would set the prototype.
    "/** The bundle, as compiled. */",
    `export const bundle = JSON.parse(${jsString(JSON.stringify(bundle))});`,
    "",
    "/** The original contract's validator, first error only. */",
    `export const validateSource = ${source};`,
    "",
    "/** The wire schema's validator, first error only. */",
    `export const validateWire = ${wire};`,
    "",
    "let loaded;",
    "",
    "/**",
    " * The bundle's Codec, as loadBundle returns it ({ ok, value } or { ok, error }),",
    " * built once with the validators above. The all-errors validators that",
    " * describe a rejection are compiled by ajv on the first rejection.",
    " */",
    "export function load() {",
    `  loaded ??= codecFromModule(bundle, { digest: ${jsString(bundle.digest)}, source: validateSource, wire: validateWire });`,
    "  return loaded;",
    "}",
    "",
  ];
  return lines.join("\n");
}
