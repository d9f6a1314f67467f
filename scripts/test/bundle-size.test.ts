/**
 * A precompiled tool bundled for the browser (esbuild, --platform=browser,
 * minified): within the size budget, without the compiler, with the RE2
 * engine only when the tool has a pattern, and running where only the web's
 * globals exist (no Buffer, no process, no node: module). Modules written by
 * an earlier version bundle and run too.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, standaloneModule } from "../../packages/codec/src/index.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

interface Case {
  tool: string;
  pattern: boolean;
  module: string;
  minified: number;
  gzip: number;
  compileSide: string[];
  streamSide: string[];
  stream: { decoder: boolean; halves: boolean };
  hash: boolean;
  formats: boolean;
  re2: boolean;
  lazy: boolean;
  planShapes: boolean;
  authorWords: boolean;
  sentences: boolean;
}

describe("the size script", () => {
  let out: {
    budget: number;
    runtime: { gzip: number; formats: boolean; hash: boolean; streamSide: string[] };
    cases: Case[];
    failures: string[];
  };
  beforeAll(() => {
    // As CI runs it: a child process on the built package.
    out = JSON.parse(
      execFileSync(process.execPath, [join(ROOT, "scripts", "bundle-size.mjs"), "--json"], { encoding: "utf8" }),
    );
  });

  it("holds the budget, and no bundle holds the compiler", () => {
    expect(out.failures).toEqual([]);
    const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
    expect(plain.gzip).toBeLessThanOrEqual(out.budget);
    for (const c of out.cases) expect(c.compileSide, `${c.tool} ${c.module}`).toEqual([]);
  });

  it("the stream decoder and the constructs' stream halves come in only with a call of streamDecoder(codec)", () => {
    for (const c of out.cases) {
      expect(c.streamSide, `${c.tool} ${c.module}`).toEqual([]);
      expect(c.stream.decoder, `${c.tool} ${c.module}`).toBe(true);
      expect(c.stream.halves, `${c.tool} ${c.module}`).toBe(true);
    }
  });

  it("the stream-side patterns see a construct's stream half alone: a load + decode bundle holding one fails the check", async () => {
    const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle-size.mjs")).href)) as {
      STREAM_SIDE: RegExp[];
      bundle: (entry: string) => Promise<{ inputs: string[] }>;
      check: (cases: unknown[]) => string[];
    };
    mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "stream-side-"));
    try {
      // A made-up breach: the run-time entry's codec, and one construct's partial taken from the built dist
      // (as a run-time construct carrying its partial would bring it), without the stream decoder.
      const half = join(ROOT, "packages", "codec", "dist", "constructs", "stream", "union.js").replaceAll("\\", "/");
      const entry = join(dir, "entry.mjs");
      writeFileSync(
        entry,
        'export { codecFromModule } from "@strictwire/codec/runtime";\n' +
          `export { unionStreamer } from ${JSON.stringify(half)};\n`,
      );
      const { inputs } = await script.bundle(entry);
      const found = inputs.filter((f) => script.STREAM_SIDE.some((p) => p.test(f)));
      expect(found.some((f) => /codec\/dist\/constructs\/stream\/union\.js$/.test(f))).toBe(true);
      expect(found.some((f) => /codec\/dist\/stream\/decoder\.js$/.test(f))).toBe(false);
      // The run-time half of the same construct is no stream-side file.
      expect(inputs.some((f) => /codec\/dist\/constructs\/union\.js$/.test(f))).toBe(true);
      expect(found.some((f) => /codec\/dist\/constructs\/union\.js$/.test(f))).toBe(false);
      const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
      expect(script.check([{ ...plain, streamSide: found }])).toEqual([
        expect.stringContaining("load + decode holds the stream layer"),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the runtime alone holds no format checks, no SHA-256, no stream decoder", () => {
    expect(out.runtime).toMatchObject({ formats: false, hash: false, streamSide: [] });
  });

  it("a module of this version bundles without esbuild's lazy wrappers; one that imports /runtime (an earlier one) has them", () => {
    // The earlier module imports the entry whose loadJsonBundle holds an import(): the same reading finds the wrappers there.
    expect(out.cases.map((c) => [c.tool, c.module, c.lazy])).toEqual([
      ["create-event-recurrence", "current", false],
      ["create-event-recurrence", "bundle@5 (earlier)", true],
      ["create-shipment-refs", "current", false],
      ["create-shipment-refs", "bundle@5 (earlier)", true],
    ]);
  });

  it("loading a module walks no plan: no bundle holds the node shapes, which come in with the JSON loader", async () => {
    for (const c of out.cases) expect(c.planShapes, `${c.tool} ${c.module}`).toBe(false);
    const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle-size.mjs")).href)) as {
      PLAN_SHAPES: RegExp;
      bundle: (entry: string) => Promise<{ inputs: string[] }>;
      check: (cases: unknown[]) => string[];
    };
    mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "plan-shapes-"));
    try {
      // loadJsonBundle's loader checks a JSON bundle's whole plan: the same reading finds the shapes there.
      const entry = join(dir, "entry.mjs");
      writeFileSync(entry, 'export { codecFromModule, loadJsonBundle } from "@strictwire/codec/runtime";\n');
      const { inputs } = await script.bundle(entry);
      expect(inputs.some((f) => script.PLAN_SHAPES.test(f))).toBe(true);
      const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
      expect(script.check([{ ...plain, planShapes: true }])).toEqual([expect.stringContaining("node shapes")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("no bundle holds the rule sentences a decode never reads; ruleSentence brings them", async () => {
    for (const c of out.cases) expect(c.sentences, `${c.tool} ${c.module}`).toBe(false);
    const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle-size.mjs")).href)) as {
      RULE_SENTENCE: string;
      bundle: (entry: string) => Promise<{ text: string }>;
      check: (cases: unknown[]) => string[];
    };
    mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "sentences-"));
    try {
      const rules = join(ROOT, "packages", "codec", "dist", "feedback", "rules.js").replaceAll("\\", "/");
      const entry = join(dir, "entry.mjs");
      writeFileSync(
        entry,
        'export { codecFromModule } from "@strictwire/codec/runtime/module";\n' +
          `export { ruleSentence } from ${JSON.stringify(rules)};\n`,
      );
      expect((await script.bundle(entry)).text).toContain(script.RULE_SENTENCE);
      const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
      expect(script.check([{ ...plain, sentences: true }])).toEqual([expect.stringContaining("rule sentences")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a module of this version brings no ajv-formats, only the format checks it reads; one written before them brings it", async () => {
    expect(out.cases.map((c) => [c.tool, c.module, c.formats])).toEqual([
      ["create-event-recurrence", "current", false],
      ["create-event-recurrence", "bundle@5 (earlier)", true],
      ["create-shipment-refs", "current", false],
      ["create-shipment-refs", "bundle@5 (earlier)", true],
    ]);
    const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle-size.mjs")).href)) as {
      check: (cases: unknown[]) => string[];
    };
    const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
    expect(script.check([{ ...plain, formats: true }])).toEqual([expect.stringContaining("holds ajv-formats")]);
  });

  it("loading a module computes no digest: no SHA-256 in any bundle", () => {
    for (const c of out.cases) expect(c.hash, `${c.tool} ${c.module}`).toBe(false);
  });

  it("the compile-side patterns see the compiler where it is: a bundle of compile holds the constructs' compile halves", async () => {
    const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle-size.mjs")).href)) as {
      COMPILE_SIDE: RegExp[];
      AUTHOR_WORDS: RegExp;
      bundle: (entry: string) => Promise<{ inputs: string[] }>;
      check: (cases: unknown[]) => string[];
    };
    mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "compile-side-"));
    try {
      const entry = join(dir, "compile.mjs");
      writeFileSync(entry, 'export { compile } from "@strictwire/codec";\n');
      const { inputs } = await script.bundle(entry);
      const found = inputs.filter((f) => script.COMPILE_SIDE.some((p) => p.test(f)));
      for (const file of [/codec\/dist\/constructs\/compile\/union\.js$/, /codec\/dist\/compile\.js$/]) {
        expect(
          found.some((f) => file.test(f)),
          String(file),
        ).toBe(true);
      }
      // The run-time half of the same construct is no compile-side file.
      expect(inputs.some((f) => /codec\/dist\/constructs\/union\.js$/.test(f))).toBe(true);
      expect(found.some((f) => /codec\/dist\/constructs\/union\.js$/.test(f))).toBe(false);
      // Compile words its refusals for the schema's author: those words are in its bundle, and only there.
      expect(inputs.some((f) => script.AUTHOR_WORDS.test(f))).toBe(true);
      for (const c of out.cases) expect(c.authorWords, `${c.tool} ${c.module}`).toBe(false);
      const plain = out.cases.find((c) => c.module === "current" && !c.pattern)!;
      expect(script.check([{ ...plain, authorWords: true }])).toEqual([expect.stringContaining("compile's refusals")]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the RE2 engine comes in only with a pattern", () => {
    const current = out.cases.filter((c) => c.module === "current");
    expect(current.map((c) => [c.pattern, c.re2])).toEqual([
      [false, false],
      [true, true],
    ]);
    // And it weighs: the tool with a pattern is the heavier by far.
    expect(current[1]!.gzip).toBeGreaterThan(current[0]!.gzip + 20_000);
  });
});

describe("a bundled tool where only the web's globals exist", () => {
  const fixture = (name: string) =>
    JSON.parse(readFileSync(join(ROOT, "fixtures", "schemas", `${name}.json`), "utf8")) as {
      schema: unknown;
      valid: unknown[];
    };
  let dir: string;
  beforeAll(() => {
    mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
    dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "web-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The module bundled as one script, run in a context that has TextEncoder and TextDecoder and nothing of Node. */
  async function inWebContext(moduleFile: string) {
    const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(
      entry,
      'import { streamDecoder } from "@strictwire/codec/runtime";\n' +
        `import { load } from ${JSON.stringify(moduleFile.replaceAll("\\", "/"))};\n` +
        "const codec = load();\n" +
        "export const ok = codec.ok;\n" +
        "export const decode = (text) => codec.value.decode(text);\n" +
        // Values cross into the context as JSON: an object of another realm is no plain JSON object to encode.
        "export const encode = (json) => codec.value.encode(JSON.parse(json));\n" +
        "export const stream = (pieces) => { const s = streamDecoder(codec.value); for (const p of pieces) s.push(p); return s.end(); };\n" +
        "export const globals = { Buffer: typeof Buffer, process: typeof process };\n",
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      platform: "browser",
      format: "iife",
      globalName: "tool",
      write: false,
      logLevel: "silent",
    });
    const context = createContext({ TextEncoder, TextDecoder });
    runInContext(result.outputFiles[0]!.text, context);
    return context.tool as {
      ok: boolean;
      decode: (text: string) => { ok: boolean; value?: unknown; error?: { code: string } };
      encode: (json: string) => { ok: boolean; value?: unknown };
      stream: (pieces: string[]) => { ok: boolean; value?: unknown };
      globals: { Buffer: string; process: string };
    };
  }

  for (const [name, earlier] of [
    ["create-event-recurrence", false],
    ["create-shipment-refs", false],
    ["create-event-recurrence", true],
  ] as const) {
    it(`${name}, ${earlier ? "the module an earlier version wrote" : "a module of this version"}: encode, decode, stream, refuse`, async () => {
      let file = join(ROOT, "fixtures", "modules", `${name}.bundle@5.mjs`);
      if (!earlier) {
        const bundle = compile(fixture(name).schema, { name: name.replaceAll("-", "_") });
        if (!bundle.ok) throw new Error(bundle.error.message);
        const text = standaloneModule(bundle.value);
        if (!text.ok) throw new Error(text.error.message);
        file = join(dir, `${name}.mjs`);
        writeFileSync(file, text.value);
      }
      const tool = await inWebContext(file);
      expect(tool.globals).toEqual({ Buffer: "undefined", process: "undefined" });
      expect(tool.ok).toBe(true);
      for (const value of fixture(name).valid) {
        const wire = tool.encode(JSON.stringify(value));
        expect(wire.ok).toBe(true);
        const text = JSON.stringify(wire.value);
        // The context's objects are of another realm: compare as JSON.
        expect(JSON.parse(JSON.stringify(tool.decode(text)))).toEqual({ ok: true, value });
        const half = Math.floor(text.length / 2);
        expect(JSON.parse(JSON.stringify(tool.stream([text.slice(0, half), text.slice(half)])))).toEqual({
          ok: true,
          value,
        });
      }
      expect(tool.decode('{"nonsense": true}').error?.code).toBe("wire-violation");
    });
  }
});
