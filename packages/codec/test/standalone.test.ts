import { mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { digestOf } from "../src/bundle/bundle.js";
import { FAIL } from "../src/constructs/context.js";
import { type DecoderFactory, instantiate, resolveTable } from "../src/decode/compiled.js";
import {
  type Bundle,
  type Codec,
  codecFromModule,
  codecFromPrecompiled,
  compile,
  loadBundle,
  type Result,
  standaloneModule,
  TARGET_NAMES,
} from "../src/index.js";
import { codecFromModule as codecFromParts } from "../src/runtime.js";
import { adapterFor } from "../src/schema/adapters.js";
import { prepareSource } from "../src/schema/prepare.js";
import { type FastValidator, precompiledTool } from "../src/standalone.js";
import { createAjv } from "../src/validate/ajv.js";
import { wireValidator } from "../src/validate/wire-check.js";
import { hostileCases, rawInput, schemaFixtures } from "../testkit/fixtures.js";
import { canonical } from "../testkit/same.js";

/** What a generated module exports. */
interface Generated {
  readonly bundle: unknown;
  readonly validateSource: FastValidator;
  readonly validateWire: FastValidator;
  readonly validateBranch: ReadonlyMap<string, FastValidator>;
  readonly decoder?: { readonly factory: DecoderFactory; readonly table: readonly string[] };
  load(): Result<Codec>;
}

// Inside the workspace (and git-ignored), so that the module's import of @strictwire/codec resolves.
const HERE = dirname(fileURLToPath(import.meta.url));
let dir: string;
beforeAll(async () => {
  await mkdir(join(HERE, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(HERE, ".tmp", "standalone-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  // The parent too, unless another run still has its own directory there.
  await rmdir(join(HERE, ".tmp")).catch(() => undefined);
});

let written = 0;
async function generate(bundle: Bundle): Promise<Generated> {
  const text = standaloneModule(bundle);
  if (!text.ok) throw new Error(`standaloneModule: ${text.error.message}`);
  const file = join(dir, `m${written++}.mjs`);
  await writeFile(file, text.value);
  return (await import(pathToFileURL(file).href)) as Generated;
}

function compiled(schema: unknown, options = {}): Bundle {
  const bundle = compile(schema, options);
  if (!bundle.ok) throw new Error(`compile: ${bundle.error.message}`);
  return bundle.value;
}

function loaded(result: Result<Codec>): Codec {
  if (!result.ok) throw new Error(`load: ${result.error.message}`);
  return result.value;
}

const outcome = (r: Result<unknown>): string =>
  r.ok ? `ok ${canonical(r.value)}` : `${r.error.code} ${r.error.path} ${r.error.message}`;

const MEETING = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    start: { type: "string", format: "date-time" },
    room: { type: "string", pattern: "^[A-Z]{2}-[0-9]{3}$" },
    note: { type: "string", maxLength: 3 },
    tags: { type: "array", uniqueItems: true, items: { type: "object", properties: { k: { type: "string" } } } },
  },
  required: ["id", "start"],
  additionalProperties: false,
};
const MEETING_VALUE = { id: "123e4567-e89b-12d3-a456-426614174000", start: "2025-03-10T15:00:00Z", room: "NY-101" };

describe("a generated module decides as loadBundle does", () => {
  // Every fixture, for every target that takes it: values through encode, texts through decode.
  const cases = schemaFixtures().flatMap((f) =>
    TARGET_NAMES.flatMap((target) => {
      const bundle = compile(f.schema, { ...f.options, target });
      return bundle.ok ? [{ name: f.name, target, f, bundle: bundle.value }] : [];
    }),
  );

  test("covers every fixture for the default target", () => {
    expect(cases.filter((c) => c.target === "openai").length).toBe(schemaFixtures().length);
  });

  test.each(cases)("$name ($target)", async ({ f, bundle }) => {
    const fromModule = loaded((await generate(bundle)).load());
    const fromJson = loaded(loadBundle(bundle));
    const texts: (string | Uint8Array)[] = hostileCases(f.name).map(rawInput);
    for (const value of [...f.valid, ...f.invalid.map((i) => i.value)]) {
      const encoded = fromModule.encode(value);
      expect(outcome(encoded)).toBe(outcome(fromJson.encode(value)));
      if (encoded.ok) texts.push(JSON.stringify(encoded.value));
      texts.push(JSON.stringify(value));
    }
    for (const text of texts) expect(outcome(fromModule.decode(text))).toBe(outcome(fromJson.decode(text)));
  });

  test("the values in memory (each value's ref) decide as the module's code does", async () => {
    for (const { f, bundle } of cases.filter((c) => c.target === "openai")) {
      const tool = precompiledTool(bundle);
      if (!tool.ok) throw new Error(`${f.name}: ${tool.error.message}`);
      const inMemory = loaded(codecFromParts(bundle, tool.value.validators));
      const fromModule = loaded((await generate(bundle)).load());
      const texts = hostileCases(f.name).map(rawInput);
      for (const value of [...f.valid, ...f.invalid.map((i) => i.value)]) {
        const encoded = fromModule.encode(value);
        expect(outcome(inMemory.encode(value)), f.name).toBe(outcome(encoded));
        if (encoded.ok) texts.push(JSON.stringify(encoded.value));
        texts.push(JSON.stringify(value));
      }
      for (const text of texts) expect(outcome(inMemory.decode(text)), f.name).toBe(outcome(fromModule.decode(text)));
    }
  });

  test("carries the generated decoder as code, which takes every valid call itself", async () => {
    for (const f of schemaFixtures()) {
      const bundle = compiled(f.schema, f.options ?? {});
      const mod = await generate(bundle);
      if (mod.decoder === undefined) throw new Error(`${f.name}: no decoder in the module`);
      const table = resolveTable(bundle.plan, mod.decoder.table);
      if (table === undefined) throw new Error(`${f.name}: the decoder's table does not resolve`);
      const decode = instantiate(mod.decoder.factory, bundle.plan, table);
      const codec = loaded(loadBundle(bundle));
      for (const value of f.valid) {
        const wire = codec.encode(value);
        if (!wire.ok) continue;
        const state = {
          maxNodes: 20_000,
          maxDepth: 64,
          checkStrings: true,
          nodes: 1,
          members: 0,
          limits: bundle.limits,
          holds: undefined,
        };
        const decoded = decode(JSON.parse(JSON.stringify(wire.value)), state);
        expect(decoded === FAIL ? "FAIL" : canonical(decoded), f.name).toBe(canonical(value));
      }
    }
  });
});

/** The value, and the value with one thing changed: a member or item replaced, left out or added (to a small depth). */
function* edits(value: unknown, depth = 0): Generator<unknown> {
  yield value;
  if (depth > 3) return;
  for (const other of [null, 0, 1.5, -1, "x", true, {}, [], { state: "absent" }, { state: "present" }]) yield other;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      for (const edited of edits(value[i], depth + 1)) yield value.map((v, j) => (j === i ? edited : v));
    if (value.length > 0) yield [...value, value[0]];
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      for (const edited of edits(record[key], depth + 1)) yield { ...record, [key]: edited };
      yield Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
    }
    yield { ...record, undeclared_member: 1 };
  }
}

describe("a generated module's validators are ajv's, error for error", () => {
  // What loadBundle diagnoses with is ajv compiled in memory: every error the module's code writes
  // (path, schema path, keyword, params, message, order) is what the diagnosis and the feedback read.
  test.each(schemaFixtures())("$name", async (f) => {
    const bundle = compiled(f.schema, f.options ?? {});
    const mod = await generate(bundle);
    const prepared = prepareSource(bundle.source, adapterFor(bundle.options.dialect));
    if (!prepared.ok) throw new Error(prepared.reason);
    const inMemory = {
      source: createAjv(prepared.value.family, true).compile(prepared.value.schema as object),
      wire: createAjv("2020", true).compile(bundle.wire as object),
    };
    const codec = loaded(mod.load());
    const values = [...f.valid, ...f.invalid.map((i) => i.value)];
    const wires = values.flatMap((v) => {
      const encoded = codec.encode(v);
      return encoded.ok ? [encoded.value] : [];
    });
    const same = (code: FastValidator, ajv: FastValidator, value: unknown): void => {
      const verdict = code(value);
      expect(verdict, JSON.stringify(value)).toBe(ajv(value));
      if (!verdict) expect(code.errors, JSON.stringify(value)).toEqual(ajv.errors);
    };
    for (const value of values) for (const edited of edits(value)) same(mod.validateSource, inMemory.source, edited);
    for (const wire of wires) for (const edited of edits(wire)) same(mod.validateWire, inMemory.wire, edited);
    // encode's branch tests: only their verdict is read; ajv's first-error validators at load give it.
    const atLoad = createAjv(prepared.value.family, false);
    if (typeof prepared.value.schema !== "boolean") atLoad.addSchema(prepared.value.schema);
    for (const [pointer, test] of mod.validateBranch) {
      const ajv = atLoad.compile({ $ref: `${prepared.value.id}#${pointer}` }) as FastValidator;
      for (const value of values)
        for (const edited of edits(value)) {
          const parts = typeof edited === "object" && edited !== null ? Object.values(edited) : [];
          for (const part of [edited, ...parts])
            expect(test(part), `${pointer} ${JSON.stringify(part)}`).toBe(ajv(part));
        }
    }
  });
});

describe("standaloneModule", () => {
  test("the validators it exports check formats, patterns, lengths and uniqueness", async () => {
    const mod = await generate(compiled(MEETING));
    expect(mod.validateSource(MEETING_VALUE)).toBe(true);
    const broken = [
      { ...MEETING_VALUE, id: "123" },
      { ...MEETING_VALUE, start: "2025-13-10T15:00:00Z" },
      { ...MEETING_VALUE, room: "ny-101" },
      { ...MEETING_VALUE, note: "four" },
      { ...MEETING_VALUE, tags: [{ k: "a" }, { k: "a" }] },
    ];
    for (const value of broken) expect(mod.validateSource(value)).toBe(false);
    expect(mod.validateWire({ arguments: {} })).toBe(false);
  });

  // A backtracking engine would not return (2^5000 steps); RE2's linear time is measured by `pnpm bench --only hostile`.
  test("a pattern is matched by RE2, as at load: a catastrophic input is refused", { timeout: 30_000 }, async () => {
    const mod = await generate(compiled({ type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } }));
    expect(mod.validateSource({ s: `${"a".repeat(5000)}!` })).toBe(false);
    expect(mod.validateSource({ s: "a".repeat(5000) })).toBe(true);
  });

  test('"__proto__" in schema values stays a member: const and enum compare as at load', async () => {
    // JSON text: in an object literal, "__proto__" would set the prototype, not a member.
    const schema = JSON.parse(
      '{"type":"object","properties":{"c":{"const":{"__proto__":{"x":1}}},"e":{"enum":[{"__proto__":2},"z"]}},"additionalProperties":false}',
    );
    const codec = loaded((await generate(compiled(schema))).load());
    expect(codec.validate(JSON.parse('{"c":{"__proto__":{"x":1}},"e":{"__proto__":2}}')).ok).toBe(true);
    expect(codec.validate({ c: {} }).ok).toBe(false);
    expect(codec.validate({ e: {} }).ok).toBe(false);
  });

  test("refuses an $id that would end ajv's comment and run as code; a plain $id is fine", async () => {
    const hostile = { $id: "https://x.invalid/a.json*/;globalThis.injected=1;/*", type: "object" };
    const refused = standaloneModule(compiled(hostile));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: "unsupported-schema", path: "/source/$id" });
    const plain = await generate(compiled({ $id: "https://example.com/tool.json", type: "object" }));
    expect(plain.validateSource({})).toBe(true);
    expect(plain.validateSource([])).toBe(false);
  });

  test("imports nothing but @strictwire/codec/runtime/module, and requires nothing", async () => {
    const text = standaloneModule(compiled(MEETING));
    if (!text.ok) throw new Error(text.error.message);
    const imports = [...text.value.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["@strictwire/codec/runtime/module"]);
    expect(text.value).not.toMatch(/\brequire\(/);
  });

  test("imports only the format checks its validators read, one each, and builds its fullFormats table of them", async () => {
    const schema = {
      type: "object",
      properties: {
        at: { type: "string", format: "date-time" },
        day: { type: "string", format: "date", formatMinimum: "2020-01-01" },
        n: { type: "integer", format: "int32" },
        link: { type: "string", format: "uri" },
        mail: { type: "string", format: "email" },
        secret: { type: "string", format: "password" },
      },
      required: ["at"],
      additionalProperties: false,
    };
    const bundle = compiled(schema);
    const text = standaloneModule(bundle);
    if (!text.ok) throw new Error(text.error.message);
    const head = text.value.split("\n").filter((l) => /^import |^const strictwireRuntime =/.test(l));
    expect(head).toEqual([
      'import { codecFromModule, formatDate as strictwireRuntime_formatDate, formatDateTime as strictwireRuntime_formatDateTime, formatEmail as strictwireRuntime_formatEmail, formatInt32 as strictwireRuntime_formatInt32, formatUri as strictwireRuntime_formatUri, wireValidator as strictwireRuntime_wireValidator } from "@strictwire/codec/runtime/module";',
      'const strictwireRuntime = { fullFormats: { "date": strictwireRuntime_formatDate, "date-time": strictwireRuntime_formatDateTime, "email": strictwireRuntime_formatEmail, "int32": strictwireRuntime_formatInt32, "uri": strictwireRuntime_formatUri }, wireValidator: strictwireRuntime_wireValidator };',
    ]);
    // ajv writes email's regular expression into the validators; the interpreted wire check reads it from the table.
    expect(text.value).toContain(
      "strictwireRuntime.wireValidator(bundle.wire, { formats: strictwireRuntime.fullFormats })",
    );
    const codec = loaded((await generate(bundle)).load());
    const reference = loaded(loadBundle(bundle));
    const values = [
      { at: "2024-02-29T23:59:60Z" },
      { at: "2023-02-29T10:00:00Z" },
      { at: "2025-03-10t15:00:00z", day: "2020-01-01", n: 2 ** 31 - 1, link: "https://x.invalid/a", mail: "a@b.co" },
      { at: "2025-03-10T15:00:00", day: "2019-12-31" },
      { at: "2025-03-10T15:00:00Z", n: 2 ** 31 },
      { at: "2025-03-10T15:00:00Z", link: "relative/path", mail: "nobody" },
      { at: "2025-03-10T15:00:00Z", secret: "anything" },
    ];
    for (const value of values) {
      expect(outcome(codec.validate(value)), JSON.stringify(value)).toBe(outcome(reference.validate(value)));
    }
    // Decode reads the wire check first: the formats the wire names decide there (email's too).
    const wire = codec.encode(values[2]);
    if (!wire.ok) throw new Error(wire.error.message);
    const wireText = JSON.stringify(wire.value);
    for (const [from, to] of [
      ["a@b.co", "nobody"],
      ["2025-03-10t15:00:00z", "2023-02-29T10:00:00Z"],
      ["2020-01-01", "2020-02-30"],
      ["https://x.invalid/a", "relative"],
    ]) {
      const text = wireText.replace(JSON.stringify(from), JSON.stringify(to));
      expect(text).not.toBe(wireText);
      const decoded = codec.decode(text);
      // A format the wire keeps is refused there; one it leaves out (uri), by the contract.
      expect(decoded.ok ? "ok" : decoded.error.code, text).toBe(
        from === "https://x.invalid/a" ? "contract-violation" : "wire-violation",
      );
      expect(outcome(decoded)).toBe(outcome(reference.decode(text)));
    }
    expect(outcome(codec.decode(wireText))).toBe(outcome(reference.decode(wireText)));
    expect(values.map((v) => codec.validate(v).ok)).toEqual([true, false, true, false, false, false, true]);
  });

  test("a wire in the interpreter's subset travels as data: no ajv code for it, formats and RE2 only if it needs them", async () => {
    const plain = standaloneModule(compiled({ type: "object", properties: { n: { type: "integer", minimum: 1 } } }));
    if (!plain.ok) throw new Error(plain.error.message);
    expect(plain.value).toMatch(/export const validateWire = strictwireRuntime\.wireValidator\(bundle\.wire\);/);
    expect(plain.value).not.toMatch(/fullFormats|re2/);
    const meeting = standaloneModule(compiled(MEETING));
    if (!meeting.ok) throw new Error(meeting.error.message);
    expect(meeting.value).toMatch(
      /wireValidator\(bundle\.wire, \{ formats: strictwireRuntime\.fullFormats, re2: strictwireRuntime\.re2 \}\)/,
    );
  });

  test("a wire outside the interpreter's subset keeps ajv's generated validator", async () => {
    const bundle = compiled(MEETING);
    // $comment is a rule to ajv and outside the subset: nothing compile writes today, so the wire is edited.
    const unsigned = { ...bundle, wire: { ...bundle.wire, $comment: "outside the subset" } };
    const edited: Bundle = { ...unsigned, digest: digestOf(unsigned) };
    const text = standaloneModule(edited);
    if (!text.ok) throw new Error(text.error.message);
    expect(text.value).not.toMatch(/wireValidator/);
    const mod = await generate(edited);
    const ajv = createAjv("2020", true).compile(edited.wire as object) as FastValidator;
    const codec = loaded(mod.load());
    const wire = codec.encode(MEETING_VALUE);
    if (!wire.ok) throw new Error(wire.error.message);
    for (const value of edits(wire.value)) {
      expect(mod.validateWire(value)).toBe(ajv(value));
      expect(mod.validateWire.errors).toEqual(ajv.errors);
    }
    expect(outcome(codec.decode(JSON.stringify(MEETING_VALUE)))).toBe(
      outcome(loaded(loadBundle(edited)).decode(JSON.stringify(MEETING_VALUE))),
    );
  });

  test("refuses a bundle whose content does not match its digest", () => {
    const bundle = compiled(MEETING);
    const edited = { ...bundle, wire: { ...bundle.wire, description: "edited" } };
    const result = standaloneModule(edited);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("digest-mismatch");
  });
});

describe("loading a generated module", () => {
  test("a module changed after it was written is refused with a typed error, never thrown", async () => {
    const bundle = compiled(MEETING);
    const mod = await generate(bundle);
    const parts = {
      digest: bundle.digest,
      source: mod.validateSource,
      wire: mod.validateWire,
      diagnoseSource: mod.validateSource,
      diagnoseWire: mod.validateWire,
      branches: mod.validateBranch,
      ...(mod.decoder ? { decoder: mod.decoder } : {}),
    };
    expect(codecFromParts(bundle, parts).ok).toBe(true);
    // A plan damaged below the frame a module's bundle is checked at (its digest is not recomputed),
    // so that the codec cannot be built from it. (Damage the codec is built over is trusted as the
    // module's code is: bundle/check.ts checkModuleBundleShape says why.)
    const root = bundle.plan.root as unknown as Record<string, unknown>;
    for (const damaged of [{ ...root, fields: "not a list" }, { kind: root.kind }, { ...root, fields: [null] }]) {
      const edited = { ...bundle, plan: { ...bundle.plan, root: damaged } };
      expect(codecFromParts(edited, parts), JSON.stringify(damaged).slice(0, 60)).toMatchObject({
        ok: false,
        error: { code: "invalid-bundle", path: "/plan" },
      });
    }
    // A wire schema the wire check cannot read, or without a piece it needs: built without a throw, refused at load.
    const wires: unknown[] = [
      null,
      5,
      [],
      { type: "bogus" },
      { anyOf: 3 },
      { properties: { a: { $ref: "#/nope" } } },
      { type: "object", properties: { a: { type: "string" } }, $comment: "outside the subset" },
    ];
    const cases = [...wires.map((wire) => wireValidator(wire)), wireValidator(bundle.wire)];
    for (const wire of cases) {
      expect(wire({ a: 1 })).toBe(false);
      expect(codecFromParts(bundle, { ...parts, wire, diagnoseWire: wire })).toMatchObject({
        ok: false,
        error: { code: "invalid-bundle", path: "/wire" },
      });
    }
  });

  test("runs no ajv compile, not even for a rejection's diagnosis", async () => {
    const bundle = compiled(MEETING);
    const mod = await generate(bundle);
    // compile lives on the class every ajv flavour (07, 2019, 2020) extends.
    const core = Object.getPrototypeOf(Ajv.prototype) as Pick<Ajv, "compile">;
    const compileSpy = vi.spyOn(core, "compile");
    try {
      // The spy sees the codec's instances: loading the JSON bundle compiles.
      loaded(loadBundle(bundle));
      expect(compileSpy).toHaveBeenCalled();
      compileSpy.mockClear();

      const codec = loaded(mod.load());
      const wire = codec.encode(MEETING_VALUE);
      if (!wire.ok) throw new Error(wire.error.message);
      expect(codec.decode(JSON.stringify(wire.value)).ok).toBe(true);
      expect(compileSpy).not.toHaveBeenCalled();

      const bad = codec.encode({ ...MEETING_VALUE, room: "ny-101" });
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.error.issues?.[0]?.path).toBe("/room");
      // The all-errors validators that describe it are code in the module too.
      expect(compileSpy).not.toHaveBeenCalled();
    } finally {
      compileSpy.mockRestore();
    }
  });

  test("load() builds one Codec and keeps it", async () => {
    const mod = await generate(compiled(MEETING));
    expect(loaded(mod.load())).toBe(loaded(mod.load()));
  });

  test("codecFromPrecompiled refuses validators compiled from another bundle", async () => {
    const mod = await generate(compiled(MEETING));
    const other = compiled({ type: "object", properties: { x: { type: "string" } } });
    const result = codecFromPrecompiled(other, {
      digest: (mod.bundle as Bundle).digest,
      source: mod.validateSource,
      wire: mod.validateWire,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("digest-mismatch");
  });

  test("codecFromModule, the name modules of earlier versions import, is codecFromPrecompiled", () => {
    expect(codecFromModule).toBe(codecFromPrecompiled);
  });

  test("codecFromPrecompiled refuses an edited bundle, as loadBundle does", async () => {
    const bundle = compiled(MEETING);
    const mod = await generate(bundle);
    const edited = { ...bundle, limits: { ...bundle.limits, maxDepth: 2 } };
    const result = codecFromPrecompiled(edited, {
      digest: bundle.digest,
      source: mod.validateSource,
      wire: mod.validateWire,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("digest-mismatch");
  });
});
