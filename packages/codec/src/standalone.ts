/**
 * Standalone modules: a bundle and every validator it needs compiled to code
 * ahead of time (ajv standalone code): one all-errors validator per schema,
 * which both decides and describes a rejection, and encode's union branch
 * tests. The wire's validator is the exception when its schema is in the
 * interpreter's subset (validate/wire-check.ts): the module then builds it
 * from the bundle's wire at load, no code, and spares the largest validator.
 * Loading such a tool, and every call on it, runs no ajv. The module imports only
 * `@strictwire/codec/runtime/module`: the ajv runtime pieces its validators call
 * (string length, deep equality, formats, RE2) come from there, resolved
 * from the codec's own dependencies, so a user needs ajv neither installed
 * nor hoisted.
 *
 * The module is code from the builder (code.ts): each value it embeds
 * is a value of a ValueScope, with its `ref` (the value in memory) and its
 * `code` (what the module writes), and text reaches it only as a literal or
 * through validate/ajv-code.ts, the one audited door for ajv's output.
 */

import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { BUNDLE_FORMAT, type Bundle, digestOf } from "./bundle/bundle.js";
import { cjsDefault } from "./cjs.js";
import { _, type Code, join, type Name, render, Scope, type ScopeValue, ValueScope } from "./code.js";
import { WALK } from "./constructs/registry.js";
import { branchTestPointers } from "./constructs/union.js";
import { DECODER_PARAMS, type DecoderFactory } from "./decode/compiled.js";
import { ok, type Result } from "./errors.js";
import { fail } from "./feedback/format.js";
import { generateDecoder, tablePointers } from "./generate/decoder.js";
import type { Plan } from "./ir/nodes.js";
import { type LoadOptions, loadBundle, type PrecompiledValidators } from "./load.js";
import type { Codec } from "./public-codec.js";
// Imported under another name: this module exports `codecFromModule` as the earlier name of codecFromPrecompiled.
import {
  codecFromModule as codecOfThisVersion,
  duplicateItems,
  equal,
  fullFormats,
  type ModuleValidators,
  re2,
  ucs2length,
  wireValidator,
} from "./runtime.js";
import { adapterFor } from "./schema/adapters.js";
import { type PreparedSource, prepareSource } from "./schema/prepare.js";
import { type AnyAjv, createAjv } from "./validate/ajv.js";
import { type AjvCode, ajvCode, type RuntimePiece } from "./validate/ajv-code.js";
import { FORMAT_PIECES } from "./validate/format-checks.js";
import type { FastValidator } from "./validate/validators.js";
import { type WirePieces, wireInterpretable } from "./validate/wire-check.js";

// Modules written before the run-time entry point import these from here.
export { type StandaloneRuntime, standaloneRuntime } from "./runtime.js";
export type { FastValidator, LoadOptions, ModuleValidators, PrecompiledValidators };

const standaloneCode = cjsDefault(standaloneCodeModule);

/** The specifier a generated module imports; it must resolve from where the module is put. */
export const STANDALONE_SPECIFIER = "@strictwire/codec/runtime/module";

/** What a module imports from the runtime: the pieces ajv's validators call, and the wire check built at load. */
type ModulePiece = RuntimePiece | "wireValidator";

/** The run-time pieces by the name `@strictwire/codec/runtime` exports them under: the refs of the imports. */
const PIECES: Readonly<Record<ModulePiece, { readonly ref: unknown; readonly exported: Code }>> = {
  duplicateItems: { ref: duplicateItems, exported: _`duplicateItems` },
  wireValidator: { ref: wireValidator, exported: _`wireValidator` },
  equal: { ref: equal, exported: _`equal` },
  fullFormats: { ref: fullFormats, exported: _`fullFormats` },
  re2: { ref: re2, exported: _`re2` },
  ucs2length: { ref: ucs2length, exported: _`ucs2length` },
};

/**
 * The source of an ES module exporting `bundle`, `validateSource` and
 * `validateWire` (all-errors validators, as code, or the wire's interpreted; `diagnoseSource` and
 * `diagnoseWire` are the same two, under the names earlier modules gave their
 * all-errors twins) and `load()`, which gives the bundle's Codec (a Result, as
 * loadBundle does) without compiling them.
 */
export function standaloneModule(bundle: Bundle): Result<string> {
  const tool = precompiledTool(bundle);
  return tool.ok ? ok(render(tool.value.module)) : tool;
}

/**
 * A bundle precompiled: the module's code, and the same validators in memory (the values' refs).
 * @internal
 */
export interface PrecompiledTool {
  readonly module: Code;
  readonly validators: ModuleValidators;
}

/**
 * A bundle's module (`code`) and what it loads with, built in memory from the
 * same values (`refs`): both sides of one ValueScope.
 * @internal
 */
export function precompiledTool(bundle: Bundle): Result<PrecompiledTool> {
  if (bundle.format !== BUNDLE_FORMAT || digestOf(bundle) !== bundle.digest) {
    return fail("digest-mismatch", "/digest", "the bundle's content does not match its digest: compile it again");
  }
  const prepared = prepareSource(bundle.source, adapterFor(bundle.options.dialect));
  if (!prepared.ok) return fail("invalid-bundle", "/source", prepared.reason);
  const names = new Scope();
  const values = new ValueScope(names);
  // The module's own names: fixed, for what it exports and for the import it reads its pieces through.
  const exact = (id: string): Name => names.exact(id);
  const codecFromModule = exact("codecFromModule");
  const runtime = exact("strictwireRuntime");
  // The names a module exports (and its load call spells as shorthand members) are exactly these.
  const exactValue = <T>(id: string, value: ScopeValue<T> | ((name: Name) => ScopeValue<T>)): Name =>
    values.exact(id, value);
  const bundleName = exactValue("bundle", { ref: bundle, code: _`JSON.parse(${JSON.stringify(bundle)})` });

  const validators = {} as Record<keyof typeof VALIDATORS, Name>;
  const pieces = new Set<ModulePiece>();
  const formats = new FormatsRead();
  // A wire schema in the interpreter's subset (every wire the builders emit today) travels as data
  // only: the module builds its check from the bundle's wire at load, with the pieces it names.
  const interpreted = wireInterpretable(bundle.wire);
  for (const [name, which] of Object.entries(VALIDATORS) as [keyof typeof VALIDATORS, "source" | "wire"][]) {
    if (which === "wire" && interpreted !== undefined) {
      // Only the pieces its wire calls: a bundler then leaves ajv-formats and RE2 out unless they are needed.
      const used = WIRE_PIECES.filter(([, needed]) => interpreted[needed]);
      for (const piece of ["wireValidator" as const, ...used.map(([piece]) => piece)]) pieces.add(piece);
      // Its formats come from the same table as the validators' (regular expressions too: it reads them there).
      if (interpreted.formats) formats.add(wireFormats(bundle.wire));
      const given = Object.fromEntries(used.map(([piece, member]) => [member, PIECES[piece].ref])) as WirePieces;
      validators[name] = exactValue(name, {
        ref: wireValidator(bundle.wire, given),
        code:
          used.length === 0
            ? _`${runtime}.wireValidator(${bundleName}.wire)`
            : _`${runtime}.wireValidator(${bundleName}.wire, { ${join(
                used.map(([piece, member]) => _`${WIRE_MEMBERS[member]}: ${runtime}.${PIECES[piece].exported}`),
                _`, `,
              )} })`,
      });
      continue;
    }
    // Separate instances, as at load: the source may be draft-07 while the wire is always 2020-12.
    // All errors: on an accepted value it costs what the first-error code costs (every check runs
    // either way), and one validator instead of two halves the module.
    const ajv = createAjv(which === "source" ? prepared.value.family : "2020", true);
    const schema = which === "source" ? prepared.value.schema : bundle.wire;
    let ref: FastValidator | undefined;
    const code = validatorCode(ajv, which, schema, runtime, () => {
      ref = ajv.compile(schema as object | boolean) as FastValidator;
      return standaloneCode(ajv, ref as Parameters<typeof standaloneCode>[1]);
    });
    if (!code.ok) return code;
    for (const piece of code.value.pieces) pieces.add(piece);
    formats.add(code.value.formats);
    validators[name] = exactValue(name, { ref: ref!, code: code.value.code });
  }
  const branches = branchesCode(prepared.value, bundle.plan, runtime);
  if (!branches.ok) return branches;
  for (const piece of branches.value.pieces) pieces.add(piece);
  formats.add(branches.value.formats);
  const branchCode = exactValue("branchCode", { ref: branches.value.ref, code: branches.value.code });
  const branchMap = new Map(branches.value.names.map(([pointer, name]) => [pointer, branches.value.ref[name.id]!]));
  const validateBranch = exactValue("validateBranch", {
    ref: branchMap,
    code: _`new Map([${join(
      branches.value.names.map(([pointer, name]) => _`[${pointer}, ${branchCode}.${name}]`),
      _`, `,
    )}])`,
  });

  const generated = generateDecoder(bundle.plan);
  const table = tablePointers(bundle.plan, generated.table);
  const params = new Scope();
  const paramList = join(
    DECODER_PARAMS.map((p) => _`${params.name(p)}`),
    _`, `,
  );
  const decoderFactory =
    table === undefined
      ? undefined
      : exactValue("decoderFactory", (name) => ({
          ref: new Function(...DECODER_PARAMS, render(generated.code)) as DecoderFactory,
          code: _`function ${name}(${paramList}) {\n${generated.code}\n}`,
        }));
  const decoder = exactValue("decoder", {
    ref: decoderFactory === undefined ? undefined : { factory: values.ref(decoderFactory), table },
    code:
      decoderFactory === undefined
        ? _`undefined`
        : _`{ factory: ${decoderFactory}, table: JSON.parse(${JSON.stringify(table)}) }`,
  });
  const diagnoseSource = exact("diagnoseSource");
  const diagnoseWire = exact("diagnoseWire");
  const loaded = exact("loaded");
  const load = exact("load");

  const used = [...pieces].sort();
  // The formats the validators read, one import each, gathered in a table under the name they read it by.
  const formatTable = pieces.has("fullFormats") ? formats.pieces() : undefined;
  const imports = used.flatMap((piece) => {
    if (piece === "fullFormats" && formatTable !== undefined) return [];
    return [{ key: piece as string, exported: PIECES[piece].exported, local: exact(`${runtime.id}_${piece}`) }];
  });
  const formatImports = (formatTable ?? []).map(([format, piece]) => ({
    format,
    key: piece as string,
    exported: new Scope().exact(piece),
    local: exact(`${runtime.id}_${piece}`),
  }));
  const members = imports.map(({ exported, local }) => _`${exported}: ${local}`);
  if (formatTable !== undefined) {
    const table = join(
      formatImports.map(({ format, local }) => _`${format}: ${local}`),
      _`, `,
    );
    members.splice(used.indexOf("fullFormats"), 0, _`${PIECES.fullFormats.exported}: { ${table} }`);
  }
  const exported = (name: Name): Code => _`export const ${name} = ${values.code(name)};`;
  const lines: Code[] = [
    _`// Tool ${bundle.name}: its strictwire bundle, with its validators compiled to code.`,
    _`// Generated by strictwire (compile --emit module). Regenerate it; do not edit.`,
    _`// Needs @strictwire/codec/runtime resolvable from this file.`,
    _`import { ${join(
      [
        _`${codecFromModule}`,
        ...[...imports, ...formatImports]
          .sort((a, b) => (a.key < b.key ? -1 : 1))
          .map(({ exported, local }) => _`${exported} as ${local}`),
      ],
      _`, `,
    )} } from ${STANDALONE_SPECIFIER};`,
    _`const ${runtime} = { ${join(members, _`, `)} };`,
    _``,
    // JSON.parse, not an object literal: in a literal, a "__proto__" member would set the prototype.
    _`/** The bundle, as compiled. */`,
    exported(bundleName),
    _``,
    _`/** The original contract's validator, every error. */`,
    exported(validators.validateSource),
    _``,
    // Next to the contract's validator, whose code for the same locations it repeats almost word for
    // word: compressed together, the repeat costs little (gzip looks back 32 KB; the wire validator is longer).
    _`const ${branchCode} = ${values.code(branchCode)};`,
    _``,
    interpreted === undefined
      ? _`/** The wire schema's validator, every error. */`
      : _`/** The wire schema's validator, every error: the bundle's wire schema interpreted, built once here (no generated code). */`,
    exported(validators.validateWire),
    _``,
    _`/** The same validators under the names modules of earlier versions gave their all-errors twins. */`,
    _`export const ${diagnoseSource} = ${validators.validateSource};`,
    _`export const ${diagnoseWire} = ${validators.validateWire};`,
    _``,
    _`/** Encode's union branch tests, by source location (a Map: a location may be any string). */`,
    exported(validateBranch),
    _``,
    ...(decoderFactory === undefined
      ? []
      : [
          _`/** The generated decoder (one pass: parse limits, wire structure, the original value), as code. */`,
          values.code(decoderFactory),
        ]),
    exported(decoder),
    _``,
    _`let ${loaded};`,
    _``,
    _`/** The bundle's Codec, as loadBundle returns it ({ ok, value } or { ok, error }), built once with the validators above. */`,
    _`export function ${load}() {`,
    _`  ${loaded} ??= ${codecFromModule}(${bundleName}, { digest: ${bundle.digest}, source: ${validators.validateSource}, wire: ${validators.validateWire}, ${diagnoseSource}, ${diagnoseWire}, branches: ${validateBranch}, ${decoder} });`,
    _`  return ${loaded};`,
    _`}`,
    _``,
  ];
  const ref = (name: Name) => values.ref(name) as FastValidator;
  return ok({
    module: join(lines),
    validators: {
      digest: bundle.digest,
      source: ref(validators.validateSource),
      wire: ref(validators.validateWire),
      diagnoseSource: ref(validators.validateSource),
      diagnoseWire: ref(validators.validateWire),
      branches: branchMap,
      ...(decoderFactory === undefined
        ? {}
        : { decoder: values.ref(decoder) as NonNullable<ModuleValidators["decoder"]> }),
    },
  });
}

/** The pieces a wire check may be handed (validate/wire-check.ts WirePieces), each by what its wire needs it for. */
const WIRE_PIECES: readonly (readonly ["fullFormats" | "re2" | "equal", keyof WirePieces])[] = [
  ["equal", "equal"],
  ["fullFormats", "formats"],
  ["re2", "re2"],
];

/** The members of WirePieces as the module writes them. */
const WIRE_MEMBERS: Readonly<Record<keyof WirePieces, Code>> = { equal: _`equal`, formats: _`formats`, re2: _`re2` };

/** The validators a module carries as code, by name, with the schema each checks. */
const VALIDATORS = { validateSource: "source", validateWire: "wire" } as const;

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
 * The formats a module's validators read from `fullFormats`, gathered over
 * all of them: the module imports those pieces alone (validate/format-checks.ts)
 * and builds the table from them, unless one reads the table itself or a
 * format no piece stands for (then it imports ajv-formats' whole table).
 */
class FormatsRead {
  private names: Set<string> | "every" = new Set();
  add(read: ReadonlySet<string> | "every"): void {
    if (this.names === "every") return;
    if (read === "every") this.names = "every";
    else for (const name of read) this.names.add(name);
  }
  /** Each format read with the export standing for it, by format name; undefined: the whole table is needed. */
  pieces(): [string, string][] | undefined {
    if (this.names === "every") return undefined;
    const out: [string, string][] = [];
    for (const name of [...this.names].sort()) {
      const piece = Object.hasOwn(FORMAT_PIECES, name) ? FORMAT_PIECES[name as keyof typeof FORMAT_PIECES] : undefined;
      if (piece === undefined) return undefined;
      out.push([name, piece]);
    }
    return out;
  }
}

/**
 * The formats a wire in the interpreter's subset names, walked as
 * wireInterpretable walks it; only those a piece stands for: any other name
 * reads the same from a table of pieces as from ajv-formats' (nothing, or
 * `true`, which checks nothing, or what every object inherits).
 */
function wireFormats(wire: unknown): ReadonlySet<string> {
  const out = new Set<string>();
  const work: unknown[] = [wire];
  while (work.length > 0) {
    const node = work.pop();
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string" && Object.hasOwn(FORMAT_PIECES, value)) out.add(value);
      else if ((key === "$defs" || key === "properties") && typeof value === "object" && value !== null)
        work.push(...Object.values(value));
      else if (key === "anyOf" || key === "prefixItems") work.push(...(Array.isArray(value) ? value : []));
      else if (key === "items") work.push(value);
    }
  }
  return out;
}

interface Branches {
  readonly code: Code;
  readonly pieces: ReadonlySet<RuntimePiece>;
  readonly formats: ReadonlySet<string> | "every";
  /** Each branch validator in memory, by its name in the code. */
  readonly ref: Readonly<Record<string, FastValidator>>;
  /** Each source location with the name of its validator. */
  readonly names: readonly (readonly [string, Name])[];
}

/**
 * Encode's branch tests as one object of validators (shared code written
 * once), with the source location each stands for. A location ajv cannot
 * compile is left out: the codec then counts it as unknown, as at load.
 */
function branchesCode(prepared: PreparedSource, plan: Plan, runtime: Name): Result<Branches> {
  // All errors, as the contract's validator: the verdict is the same and only the verdict is read, and
  // the code then repeats what the contract's validator writes for these locations, which compresses.
  const ajv = createAjv(prepared.family, true);
  // Each branch validator is compiled below, before validatorCode: keep its source from the start.
  ajv.opts.code.source = true;
  ajv.opts.code.optimize = 1;
  if (typeof prepared.schema !== "boolean") ajv.addSchema(prepared.schema);
  const keys: Record<string, string> = {};
  const ref: Record<string, FastValidator> = {};
  const names: [string, Name][] = [];
  const scope = new Scope();
  for (const pointer of branchTestPointers(plan, WALK)) {
    const key = `strictwire:branch:${names.length}`;
    let validator: FastValidator | undefined;
    try {
      // Already URI-encoded by the builder, so that no pointer holds a raw space.
      ajv.addSchema({ $ref: `${prepared.id}#${pointer}` }, key);
      validator = ajv.getSchema(key) as FastValidator | undefined;
      if (validator === undefined) continue;
    } catch {
      ajv.removeSchema(key);
      continue;
    }
    const name = scope.numbered("b");
    keys[name.id] = key;
    ref[name.id] = validator;
    names.push([pointer, name]);
  }
  if (names.length === 0) return ok({ code: _`{}`, pieces: new Set(), formats: new Set(), ref, names });
  const code = validatorCode(ajv, "source", prepared.schema, runtime, () => standaloneCode(ajv, keys));
  return code.ok
    ? ok({ code: code.value.code, pieces: code.value.pieces, formats: code.value.formats, ref, names })
    : code;
}

/** Validators as an expression: ajv's CommonJS output, scoped so that two modules' names cannot collide. */
function validatorCode(
  ajv: AnyAjv,
  which: "source" | "wire",
  schema: unknown,
  runtime: Name,
  generate: () => string,
): Result<AjvCode> {
  // Code generation keeps each validator's source only when asked; createAjv keeps the options in one place.
  ajv.opts.code.source = true;
  // A module ships its code: ajv's optimising pass (off for compiles in memory, validate/ajv.ts) makes it smaller.
  ajv.opts.code.optimize = 1;
  return ajvCode(which, schema, generate, runtime);
}
