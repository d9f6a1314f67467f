/**
 * The run-time entry point loads none of the compiler: checked in a fresh
 * Node process on the built dist, the way a service imports it. A module
 * resolve hook logs every ES module the process resolves, and require.cache
 * holds every CommonJS file (ajv is CommonJS); the same process then loads a
 * JSON bundle, which must load ajv, so the observation is shown to see it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { compile, standaloneModule } from "../../src/index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const TMP = join(HERE, "..", ".tmp");
let dir: string;
beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(join(TMP, "runtime-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rmdir(TMP).catch(() => undefined);
});

// Patterns (RE2), formats, a union encode must choose a branch of by validating, optional members.
const SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    room: { type: "string", pattern: "^[A-Z]{2}-[0-9]{3}$" },
    when: {
      anyOf: [
        { type: "string", format: "date" },
        { type: "string", maxLength: 3 },
      ],
    },
    tags: { type: "object", additionalProperties: { type: "integer" } },
  },
  required: ["id", "when"],
  additionalProperties: false,
};
const VALUE = { id: "123e4567-e89b-12d3-a456-426614174000", room: "NY-101", when: "2025-03-10", tags: { a: 1 } };

const HOOKS = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const out = await next(specifier, context);
  appendFileSync(log, out.url + "\\n");
  return out;
}
`;

const CHILD = `
import { readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
const [hooks, log, moduleFile, bundleFile, value] = process.argv.slice(2);
register(pathToFileURL(hooks).href, import.meta.url, { data: { log } });
const seen = () => ({ esm: readFileSync(log, "utf8").split("\\n").filter(Boolean), cjs: Object.keys(createRequire(import.meta.url).cache) });
const mod = await import(pathToFileURL(moduleFile).href);
const codec = mod.load();
if (!codec.ok) throw new Error(codec.error.message);
const wire = codec.value.encode(JSON.parse(value));
if (!wire.ok) throw new Error(wire.error.message);
const decoded = codec.value.decode(JSON.stringify(wire.value));
const rejected = codec.value.decode(JSON.stringify({ ...wire.value, room: { state: "present", value: "x" } }));
const runtime = { seen: seen(), decoded: decoded.ok, rejected: rejected.ok ? "accepted" : rejected.error.code };
const { loadJsonBundle } = await import("@strictwire/codec/runtime");
const json = await loadJsonBundle(readFileSync(bundleFile, "utf8"));
process.stdout.write(JSON.stringify({ runtime, json: { ok: json.ok, seen: seen() } }));
`;

/** Files of the codec's dist, and of ajv, that belong to compiling. */
const COMPILE_SIDE = [
  /\/codec\/dist\/compile\.js$/,
  /\/codec\/dist\/ir\/build\.js$/,
  /\/codec\/dist\/schema\//,
  /\/codec\/dist\/targets\/(openai|anthropic|gemini|registry|limits|walk|spelling)\.js$/,
  /\/codec\/dist\/validate\/(ajv|validators)\.js$/,
  /\/codec\/dist\/(load|standalone|index|inspect)\.js$/,
  // Generating the decoder is compile's work: a module carries it as code.
  /\/codec\/dist\/generate\//,
  // The wire schema is built at compile; the run time only takes the envelope off (wire/envelope.js).
  /\/codec\/dist\/wire-schema\//,
  // Each construct's compile-time half: its wire schema, generated decode, inspection and type.
  /\/codec\/dist\/constructs\/compile\//,
];
const AJV_COMPILER = [/\/ajv\/dist\/(core|ajv|2019|2020)\.js$/, /\/ajv\/dist\/compile\//, /\/ajv\/dist\/refs\//];

const matching = (files: readonly string[], patterns: readonly RegExp[]): string[] =>
  files.filter((f) => patterns.some((p) => p.test(f.replaceAll("\\", "/"))));

test("a generated module loads, encodes, decodes and diagnoses without the compiler or ajv's compiler", async () => {
  const bundle = compile(SCHEMA, { name: "book_room", presence: "tagged" });
  if (!bundle.ok) throw new Error(bundle.error.message);
  const text = standaloneModule(bundle.value);
  if (!text.ok) throw new Error(text.error.message);
  const files = {
    hooks: join(dir, "hooks.mjs"),
    log: join(dir, "resolved.log"),
    module: join(dir, "tool.bundle.mjs"),
    bundle: join(dir, "bundle.json"),
    child: join(dir, "child.mjs"),
  };
  await writeFile(files.hooks, HOOKS);
  await writeFile(files.log, "");
  await writeFile(files.module, text.value);
  await writeFile(files.bundle, JSON.stringify(bundle.value));
  await writeFile(files.child, CHILD);
  const out = execFileSync(
    process.execPath,
    [files.child, files.hooks, files.log, files.module, files.bundle, JSON.stringify(VALUE)],
    { cwd: dir, encoding: "utf8" },
  );
  const got = JSON.parse(out) as {
    runtime: { seen: { esm: string[]; cjs: string[] }; decoded: boolean; rejected: string };
    json: { ok: boolean; seen: { esm: string[]; cjs: string[] } };
  };
  expect(got.runtime.decoded).toBe(true);
  // The wire keeps the pattern, so the all-errors wire validator describes the rejection.
  expect(got.runtime.rejected).toBe("wire-violation");
  const { esm, cjs } = got.runtime.seen;
  expect(esm.some((u) => u.endsWith("/codec/dist/runtime.js"))).toBe(true);
  expect(matching(esm, COMPILE_SIDE)).toEqual([]);
  expect(matching([...esm, ...cjs], AJV_COMPILER)).toEqual([]);

  // The same observation sees the compiler side once a JSON bundle needs ajv: the check can fail.
  expect(got.json.ok).toBe(true);
  expect(matching(got.json.seen.esm, COMPILE_SIDE).some((u) => u.endsWith("/validate/validators.js"))).toBe(true);
  expect(matching(got.json.seen.cjs, AJV_COMPILER).length).toBeGreaterThan(0);
  // Still no compiler, no target tables.
  expect(
    matching(got.json.seen.esm, [/\/dist\/compile\.js$/, /\/dist\/ir\/build\.js$/, /\/dist\/targets\/openai\.js$/]),
  ).toEqual([]);
});

/** The modules a source file loads at run time, followed through relative value imports (type-only ones load nothing). */
function loads(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+"(\.[^"]+)\.js";/gms)) {
    loads(resolve(dirname(file), `${m[1]}.ts`), seen);
  }
  return seen;
}

test("the run-time modules load nothing of the compiler: dispatch/, the codec, the envelope and paths", () => {
  const src = join(HERE, "..", "..", "src");
  const roots = [
    ...readdirSync(join(src, "dispatch")).map((f) => join(src, "dispatch", f)),
    join(src, "codec.ts"),
    join(src, "runtime.ts"),
    join(src, "wire", "envelope.ts"),
    join(src, "wire", "paths.ts"),
  ];
  const compileSide = [
    /\/compile\.ts$/,
    /\/ir\/build\.ts$/,
    /\/wire-schema\//,
    /\/generate\//,
    /\/schema\//,
    /\/constructs\/compile\//,
  ];
  for (const root of roots) {
    const reached = [...loads(root)].map((f) => f.replaceAll("\\", "/"));
    expect(
      reached.filter((f) => compileSide.some((p) => p.test(f))),
      root,
    ).toEqual([]);
  }
  // The walk does follow imports: the compile side's own entry reaches the builder and the constructs' compile halves.
  expect([...loads(join(src, "agents.ts"))].some((f) => f.endsWith("compile.ts"))).toBe(true);
  expect([...loads(join(src, "compile.ts"))].some((f) => f.endsWith("/constructs/compile/union.ts"))).toBe(true);
});

/** The packages a source file loads at run time (bare value imports: "ajv", "node:fs"). */
function packagesLoaded(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+"([^".][^"]*)";/gms)].map(
    (m) => m[1] as string,
  );
}

test("the provider API modules load no compiler, no ajv and no Node built-in", () => {
  const src = join(HERE, "..", "..", "src");
  const dir = join(src, "providers");
  const compileSide = [/\/compile\.ts$/, /\/ir\/build\.ts$/, /\/wire-schema\//, /\/generate\//, /\/schema\//];
  const builtins = new Set(builtinModules);
  const banned = (name: string) => name.startsWith("ajv") || name.startsWith("node:") || builtins.has(name);
  const modules = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  expect(modules).toContain("registry.ts");
  for (const f of modules) {
    const reached = [...loads(join(dir, f))].map((r) => r.replaceAll("\\", "/"));
    expect(
      reached.filter((r) => compileSide.some((p) => p.test(r))),
      f,
    ).toEqual([]);
    expect(reached.flatMap(packagesLoaded).filter(banned), f).toEqual([]);
  }
  // The reading does see packages: the equality keyword loads ajv.
  expect(packagesLoaded(join(src, "validate", "equality.ts")).some(banned)).toBe(true);
});

/** Every relative import a source file writes, type-only ones too (a type is a dependency of the design). */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)\.js";/gms)].map((m) =>
    resolve(dirname(file), `${m[1]}.ts`).replaceAll("\\", "/"),
  );
}

test("the target profiles sit below the bundle, the IR and the constructs; dispatch/ imports nothing of compile.ts", () => {
  const src = join(HERE, "..", "..", "src");
  const targets = readdirSync(join(src, "targets")).map((f) => join(src, "targets", f));
  const above = [/\/src\/bundle\//, /\/src\/ir\//, /\/src\/constructs\//, /\/src\/compile\.ts$/];
  for (const file of targets) {
    expect(
      imports(file).filter((f) => above.some((p) => p.test(f))),
      file,
    ).toEqual([]);
  }
  for (const f of readdirSync(join(src, "dispatch"))) {
    const file = join(src, "dispatch", f);
    expect(
      imports(file).filter((i) => i.endsWith("/src/compile.ts")),
      file,
    ).toEqual([]);
  }
  // The reading does see imports: the bundle imports the target names.
  expect(imports(join(src, "bundle", "bundle.ts")).some((f) => f.endsWith("/targets/profile.ts"))).toBe(true);
});

test("errors.ts is a leaf and the parser words nothing: feedback/ words their errors at the boundary", () => {
  const src = join(HERE, "..", "..", "src");
  // Not even a type: the bottom of the house knows nothing above it.
  expect(readFileSync(join(src, "errors.ts"), "utf8")).not.toMatch(/^\s*(?:import|export)[^;]*from\s/m);
  // json.ts is the public parse, the parser with its refusals worded: the one door from parse/ to the words.
  for (const f of readdirSync(join(src, "parse")).filter((f) => f !== "json.ts")) {
    const reached = [...loads(join(src, "parse", f))].map((r) => r.replaceAll("\\", "/"));
    expect(
      reached.filter((r) => r.includes("/feedback/")),
      f,
    ).toEqual([]);
  }
  // The walk does follow imports: the public parse reaches the wording.
  expect([...loads(join(src, "parse", "json.ts"))].some((f) => f.endsWith("/feedback/format.ts"))).toBe(true);
});

test("a construct reaches its children through the walk it is given, never by importing the registry", () => {
  const src = join(HERE, "..", "..", "src");
  // The three halves of every construct: none imports any of the tables.
  for (const dir of [join(src, "constructs"), join(src, "constructs", "compile"), join(src, "constructs", "stream")]) {
    const modules = readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "registry.ts");
    expect(modules.length).toBeGreaterThan(10);
    for (const f of modules) {
      expect(
        imports(join(dir, f)).filter((i) => /\/constructs\/(compile\/|stream\/)?registry\.ts$/.test(i)),
        f,
      ).toEqual([]);
    }
  }
  // The reading does see imports: the registry's users outside constructs/ are found.
  expect(imports(join(src, "stream", "decoder.ts")).some((f) => f.endsWith("/constructs/registry.ts"))).toBe(true);
  expect(imports(join(src, "stream", "decoder.ts")).some((f) => f.endsWith("/constructs/stream/registry.ts"))).toBe(
    true,
  );
});

/**
 * Every module a source file reaches, through relative imports of any kind
 * (type-only, re-exports, dynamic `import()`), with the package specifiers
 * they name: the whole graph a bundler or a type checker would read.
 */
function graph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...[...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)";/gms)].map((m) => m[1]!),
    ...[...text.matchAll(/^import\s+"([^"]+)";/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!),
  ];
  seen.set(
    file,
    specifiers.filter((s) => !s.startsWith(".")),
  );
  for (const s of specifiers) {
    if (s.startsWith(".")) graph(resolve(dirname(file), s.replace(/\.js$/, ".ts")), seen);
  }
  return seen;
}

/** Code with comments taken out: a comment may name Buffer, code may not. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'\\])\/\/.*$/gm, "$1");

test("the run-time graph names no Node built-in: no node: module, no Buffer, no process", async () => {
  const { builtinModules } = await import("node:module");
  const src = join(HERE, "..", "..", "src");
  const inDir = (d: string) => {
    try {
      return readdirSync(join(src, d))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(src, d, f));
    } catch {
      return [];
    }
  };
  // The runtime entries (what a generated module imports, and it with loadJsonBundle), the stream decoder,
  // the dispatcher, the provider readers.
  const roots = [
    join(src, "runtime.ts"),
    join(src, "runtime-entry.ts"),
    join(src, "stream", "decoder.ts"),
    join(src, "kit", "providers.ts"),
    ...inDir("dispatch"),
    ...inDir("stream"),
    ...inDir("providers"),
  ];
  const reached = new Map<string, string[]>();
  for (const root of roots) graph(root, reached);
  const builtins = new Set(builtinModules);
  const offending: string[] = [];
  for (const [file, packages] of reached) {
    const name = file.replaceAll("\\", "/").replace(/^.*\/src\//, "");
    for (const p of packages)
      if (p.startsWith("node:") || builtins.has(p.split("/")[0]!)) offending.push(`${name} imports ${p}`);
    const body = code(readFileSync(file, "utf8"));
    for (const m of body.matchAll(/(?<![.\w$])(Buffer|process)\b/g)) offending.push(`${name} names ${m[1]}`);
  }
  expect(offending).toEqual([]);
  // The walk reaches what it must: the digest, the parser, the compile side behind loadJsonBundle's import().
  const names = [...reached.keys()].map((f) => f.replaceAll("\\", "/"));
  for (const must of ["/bundle/bundle.ts", "/parse/incremental.ts", "/value-limits.ts", "/load.ts"]) {
    expect(
      names.some((f) => f.endsWith(must)),
      must,
    ).toBe(true);
  }
  // And it sees what it looks for: the file helpers import node:fs and name Buffer and process.
  const files = graph(join(src, "kit", "files.ts"));
  expect([...files.values()].flat().some((p) => p.startsWith("node:"))).toBe(true);
  expect(code(readFileSync(join(src, "kit", "files.ts"), "utf8"))).toMatch(/(?<![.\w$])Buffer\b/);
});
