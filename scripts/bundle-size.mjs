#!/usr/bin/env node
/**
 * What a precompiled tool with @strictwire/codec/runtime weighs in a browser
 * bundle (esbuild, --platform=browser, minified, gzip -9), and what is in it.
 * Checked against a budget in CI: the runtime plus one fixture tool with no
 * `pattern` at most BUDGET_GZIP bytes gzipped, with none of ajv's compiler,
 * none of the codec's compiler, no RE2 engine, nothing of the stream layer
 * (the stream decoder, the constructs' partials), no SHA-256, none of the
 * words of compile's refusals, no rule sentences and (a module of this version) no plan walk,
 * no lazy wrappers and no ajv-formats (its format checks one by one); the same
 * with a pattern (RE2 in it) is
 * reported beside. Modules written by an earlier version
 * (fixtures/modules/) are bundled too: they must keep building.
 *
 * Run after `pnpm build` (the package's dist is what a user's bundler reads).
 * `--json` prints the figures as JSON; the exit code is 1 when a check fails.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The goal: 30 KB gzipped to load and decode one precompiled tool with no
 * pattern. It is met (docs/runtimes.md): the runtime alone
 * (codecFromModule from @strictwire/codec/runtime/module, what a module
 * imports, and nothing else) is about 21.2 KB gzipped, load + decode of
 * create-event-recurrence 29.1 KB (29,783 B), of which the tool's own module
 * is about 5 KB and the wire check that interprets its wire schema
 * (validate/wire-check.ts, in place of ajv's generated wire validator) about
 * 2 KB. Left in it: the run-time constructs, the feedback wording and the
 * bounded parser decode needs; the format checks the tool reads
 * (validate/format-checks.ts, one export each, in place of all of
 * ajv-formats, one CommonJS file of about 2 KB gzipped). The budget CI holds
 * is what a change must not grow past: the figure measured when it was last
 * set (29.1 KB, load + decode of create-event-recurrence, after esbuild's
 * lazy wrappers, the plan walk, the words of compile's refusals, the rule
 * sentences, the generated wire validator and ajv-formats left the run-time
 * bundle) and a tenth.
 */
export const GOAL_GZIP = 30 * 1024;
export const BUDGET_GZIP = Math.round(32.0 * 1024);

/** The fixture tools bundled: one with no pattern (formats, unions, optional members), one with. */
export const TOOLS = [
  { name: "create-event-recurrence", pattern: false },
  { name: "create-shipment-refs", pattern: true },
];

/** Files of the bundle that belong to compiling: none may be in a precompiled tool's bundle. */
export const COMPILE_SIDE = [
  /ajv\/dist\/(core|ajv|2019|2020)\.js$/,
  /ajv\/dist\/compile\//,
  /ajv\/dist\/vocabularies\//,
  /codec\/dist\/(compile|load|standalone|index|inspect)\.js$/,
  /codec\/dist\/schema\//,
  /codec\/dist\/ir\/build\.js$/,
  /codec\/dist\/validate\/(ajv|validators)\.js$/,
  /codec\/dist\/decode\/generate\.js$/,
  /codec\/dist\/generate\//,
  /codec\/dist\/wire-schema\//,
  // Each construct's compile-time half (its wire schema, generated decode, inspection, type): the run time has its own.
  /codec\/dist\/constructs\/compile\//,
];
const RE2 = /re2js\//;
/**
 * Files of the stream layer: the stream decoder, its parser and each
 * construct's stream half (its partial, constructs/stream/). None may be in a
 * bundle that only loads and decodes (the run-time Codec has no
 * streamDecoder() method, and no run-time construct carries its partial,
 * either of which would pull them in); the bundle that calls
 * streamDecoder(codec) must hold the decoder and the stream halves.
 */
export const STREAM_SIDE = [
  /codec\/dist\/stream\//,
  /codec\/dist\/parse\/incremental\.js$/,
  /codec\/dist\/constructs\/stream\//,
];
const STREAM_DECODER = /codec\/dist\/stream\/decoder\.js$/;
const STREAM_HALVES = /codec\/dist\/constructs\/stream\//;
/** The SHA-256 a JSON bundle's digest needs: a module's load does not recompute its bundle's digest. */
const HASH = /@noble\/hashes\//;
/**
 * The plan check's node shapes: only the JSON loaders walk a plan; a
 * module's bundle takes a check of its frame (bundle/check.ts), so the
 * bundle that loads and decodes modules of this version holds none.
 */
export const PLAN_SHAPES = /codec\/dist\/ir\/nodes\.js$/;
/** The words of compile's refusals, for a schema's author: only the build side makes those errors. */
export const AUTHOR_WORDS = /codec\/dist\/feedback\/author\.js$/;
/**
 * The sentences a rule's breach gets about a value or a member
 * (feedback/rules.ts, ruleSentence, the classifier's): a decode words its
 * issues with the codec's shorter table alone. Seen by one of their words.
 */
export const RULE_SENTENCE = "is less than the minimum of";
/**
 * ajv-formats (one CommonJS file, about 7.5 KB minified, kept whole): in no
 * bundle of a module of this version, which imports the format checks its
 * validators read one by one (validate/format-checks.ts); a module written
 * before them imports its `fullFormats`.
 */
export const FORMATS = /ajv-formats\//;

/** Bundles an entry as a user's bundler would; the minified text and the files it holds. */
export async function bundle(entry, format = "esm") {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "browser",
    format,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const text = result.outputFiles[0].text;
  const parts = {};
  // The files that put code in the output (metafile.inputs lists every file read, tree-shaken ones too).
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([f, v]) => {
      const file = f.replaceAll("\\", "/");
      const part = partOf(file);
      parts[part] = (parts[part] ?? 0) + v.bytesInOutput;
      return file;
    });
  return { text, inputs, parts };
}

/**
 * Whether esbuild wrapped modules of a bundle in lazy initialisers (`__esm`),
 * as it does to everything a dynamic `import()` in the graph reaches (the
 * JSON loader's, in `@strictwire/codec/runtime`): a module of this version
 * imports `@strictwire/codec/runtime/module`, which has none. Read on the
 * unminified bundle, where the helper keeps its name.
 */
export async function lazyWrapped(entry) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  return /\b__esm\(/.test(result.outputFiles[0].text);
}

/** Where a file's bytes count in the breakdown: the tool's module, a folder of the codec, a package. */
function partOf(file) {
  const codec = /codec\/dist\/(.*)$/.exec(file);
  if (codec) return `codec ${codec[1].includes("/") ? `${codec[1].split("/")[0]}/` : codec[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.replace(/^.*node_modules\/\.pnpm\/[^/]+\//, ""));
  return pkg ? pkg[1] : "tool module";
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Measures every case: for each fixture tool, a module of this version
 * (compiled now) and, where one is kept, the module an earlier version wrote.
 * The entry loads the tool and decodes, as an application would.
 */
export async function measure({ keep } = {}) {
  const { compile, standaloneModule } = await import("@strictwire/codec");
  // Under the repository, so that @strictwire/codec/runtime resolves as it does for a user of the workspace.
  mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "bundle-size-"));
  try {
    const cases = [];
    for (const tool of TOOLS) {
      const fixture = JSON.parse(readFileSync(join(ROOT, "fixtures", "schemas", `${tool.name}.json`), "utf8"));
      const compiled = compile(fixture.schema, { name: tool.name.replaceAll("-", "_") });
      if (!compiled.ok) throw new Error(`${tool.name}: ${compiled.error.message}`);
      const text = standaloneModule(compiled.value);
      if (!text.ok) throw new Error(`${tool.name}: ${text.error.message}`);
      const modules = [
        { version: "current", file: join(dir, `${tool.name}.mjs`), text: text.value },
        { version: "bundle@5 (earlier)", file: join(ROOT, "fixtures", "modules", `${tool.name}.bundle@5.mjs`) },
      ];
      for (const m of modules) {
        if (m.text !== undefined) writeFileSync(m.file, m.text);
        const spec = `./${relative(dir, m.file).replaceAll("\\", "/")}`;
        const head =
          `import { load } from ${JSON.stringify(spec.startsWith("./..") ? spec.slice(2) : spec)};\n` +
          "const codec = load();\n" +
          "export function decode(text) { return codec.ok ? codec.value.decode(text) : codec; }\n";
        // What the goal names: load and decode. Beside it, the same with the stream decoder called.
        const entry = join(dir, `entry-${tool.name}-${cases.length}.mjs`);
        writeFileSync(entry, head);
        const withStream = join(dir, `entry-${tool.name}-${cases.length}-stream.mjs`);
        writeFileSync(
          withStream,
          `import { streamDecoder } from "@strictwire/codec/runtime";\n${head}export function stream() { return streamDecoder(codec.value); }\n`,
        );
        const { text: out, inputs, parts } = await bundle(entry);
        const streamed = await bundle(withStream);
        cases.push({
          tool: tool.name,
          pattern: tool.pattern,
          module: m.version,
          minified: out.length,
          gzip: gzipSync(out, { level: 9 }).length,
          stream: {
            minified: streamed.text.length,
            gzip: gzipSync(streamed.text, { level: 9 }).length,
            decoder: streamed.inputs.some((f) => STREAM_DECODER.test(f)),
            halves: streamed.inputs.some((f) => STREAM_HALVES.test(f)),
          },
          compileSide: [...inputs, ...streamed.inputs].filter((f) => COMPILE_SIDE.some((p) => p.test(f))),
          streamSide: inputs.filter((f) => STREAM_SIDE.some((p) => p.test(f))),
          hash: inputs.some((f) => HASH.test(f)),
          formats: inputs.some((f) => FORMATS.test(f)),
          re2: inputs.some((f) => RE2.test(f)),
          lazy: await lazyWrapped(entry),
          planShapes: inputs.some((f) => PLAN_SHAPES.test(f)),
          authorWords: inputs.some((f) => AUTHOR_WORDS.test(f)),
          sentences: out.includes(RULE_SENTENCE),
          parts,
          ...(keep ? { entry } : {}),
        });
      }
    }
    return cases;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The checks CI holds: the budget for the current module without a pattern;
 * nothing of the compiler anywhere; the stream layer (the decoder, the
 * constructs' stream halves) only where streamDecoder(codec) is called; no
 * SHA-256 (a module's bundle digest is not recomputed).
 */
export function check(cases) {
  const failures = [];
  for (const c of cases) {
    const label = `${c.tool} (${c.module})`;
    if (c.compileSide.length > 0)
      failures.push(
        `${label}: holds ${c.compileSide.length} compile-side files: ${c.compileSide.slice(0, 4).join(", ")}…`,
      );
    if (c.streamSide.length > 0)
      failures.push(
        `${label}: load + decode holds the stream layer (its decoder or a construct's stream half): ${c.streamSide.slice(0, 4).join(", ")}…`,
      );
    if (c.hash) failures.push(`${label}: load + decode holds a SHA-256 (@noble/hashes)`);
    if (c.authorWords)
      failures.push(`${label}: load + decode holds the words of compile's refusals (feedback/author.js)`);
    if (c.sentences)
      failures.push(
        `${label}: load + decode holds the rule sentences (feedback/rules.ts's WORDING), which decode never reads`,
      );
    if (c.module === "current" && c.formats)
      failures.push(
        `${label}: load + decode holds ajv-formats (a module of this version imports only the format checks it reads)`,
      );
    if (c.module === "current" && c.planShapes)
      failures.push(`${label}: load + decode holds the plan check's node shapes (a module's load walks no plan)`);
    if (c.module === "current" && c.lazy)
      failures.push(`${label}: esbuild wrapped its modules in lazy initialisers (a dynamic import() in the graph)`);
    if (!c.stream.decoder) failures.push(`${label}: the bundle that calls streamDecoder(codec) has no stream decoder`);
    if (!c.stream.halves)
      failures.push(`${label}: the bundle that calls streamDecoder(codec) has no construct's stream half`);
    if (c.module === "current" && c.re2 !== c.pattern)
      failures.push(
        `${label}: RE2 ${c.re2 ? "is in" : "is not in"} the bundle of a tool ${c.pattern ? "with" : "without"} a pattern`,
      );
    if (c.module === "current" && !c.pattern && c.gzip > BUDGET_GZIP)
      failures.push(`${label}: ${kb(c.gzip)} gzipped, over the budget of ${kb(BUDGET_GZIP)}`);
  }
  return failures;
}

/** What the runtime alone must leave out: what only some tools need (formats), or none on this path. */
export function checkRuntime(runtime) {
  const failures = [];
  if (runtime.formats)
    failures.push("the runtime alone holds ajv-formats, which only a module written before the format checks needs");
  if (runtime.hash) failures.push("the runtime alone holds a SHA-256 (@noble/hashes)");
  if (runtime.streamSide.length > 0)
    failures.push(`the runtime alone holds the stream layer: ${runtime.streamSide[0]}…`);
  return failures;
}

/** The runtime alone: codecFromModule and nothing else, what every precompiled tool pays. */
export async function measureRuntime() {
  mkdirSync(join(ROOT, "scripts", ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "scripts", ".tmp", "bundle-size-"));
  try {
    const entry = join(dir, "runtime.mjs");
    // The entry a module of this version imports.
    writeFileSync(entry, 'export { codecFromModule } from "@strictwire/codec/runtime/module";\n');
    const { text, inputs, parts } = await bundle(entry);
    return {
      minified: text.length,
      gzip: gzipSync(text, { level: 9 }).length,
      parts,
      formats: inputs.some((f) => FORMATS.test(f)),
      hash: inputs.some((f) => HASH.test(f)),
      streamSide: inputs.filter((f) => STREAM_SIDE.some((p) => p.test(f))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cases = await measure();
  const runtime = await measureRuntime();
  const failures = [...checkRuntime(runtime), ...check(cases)];
  if (process.argv.includes("--json"))
    process.stdout.write(`${JSON.stringify({ goal: GOAL_GZIP, budget: BUDGET_GZIP, runtime, cases, failures })}\n`);
  else {
    const plain = cases.find((c) => c.module === "current" && !c.pattern);
    console.log(
      `runtime + one precompiled tool, load + decode, esbuild --platform=browser --minify, gzip -9 (budget ${kb(BUDGET_GZIP)} without a pattern):`,
    );
    console.log(
      `  ${"runtime alone".padEnd(24)} ${"".padEnd(10)}  ${"".padEnd(18)} ${kb(runtime.minified).padStart(9)} min  ${kb(runtime.gzip).padStart(8)} gzip`,
    );
    for (const c of cases) {
      console.log(
        `  ${c.tool.padEnd(24)} ${c.pattern ? "pattern   " : "no pattern"}  ${c.module.padEnd(18)} ${kb(c.minified).padStart(9)} min  ${kb(c.gzip).padStart(8)} gzip  RE2 ${c.re2 ? "in " : "out"}  + stream decoder ${kb(c.stream.minified).padStart(9)} min ${kb(c.stream.gzip).padStart(8)} gzip`,
      );
    }
    const parts = Object.entries(plain.parts).sort((a, b) => b[1] - a[1]);
    console.log(`  where ${plain.tool}'s minified bytes are: ${parts.map(([p, n]) => `${p} ${kb(n)}`).join(", ")}`);
    console.log(
      `goal: at most ${kb(GOAL_GZIP)} gzipped for load + decode of ${plain.tool}: ${kb(plain.gzip)}, ${plain.gzip <= GOAL_GZIP ? "met" : "NOT met"}`,
    );
    for (const f of failures) console.log(`FAIL ${f}`);
    if (failures.length === 0) console.log("ok");
  }
  process.exitCode = failures.length === 0 ? 0 : 1;
}
