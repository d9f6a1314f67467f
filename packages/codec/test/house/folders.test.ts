/**
 * Run time and build time apart by folder, read off the import graph of
 * packages/codec/src (type imports count: a type is a dependency of the
 * design). The folders a decode, an encode, a bundle's load and an error's
 * words run in import nothing of build time; the leaves import nothing at
 * all; the run-time entry loads no build-time file; each construct is one
 * name in three halves, its run-time half (constructs/) taking nothing of its
 * compile-time half (constructs/compile/), and the core loading none of its
 * stream half (constructs/stream/, the stream layer's: layers.test.ts holds
 * the imports); what words nothing does not reach the words; schema reading
 * takes nothing of the bundle.
 * (test/runtime/imports.test.ts checks the same entry on the built dist.)
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { type Graph, importsOf, reach, SRC, sourceGraph } from "./graph.js";

type Time = "run time" | "build time" | "leaf";

/**
 * Where each file sits in time, by path under src/ (a folder ends in "/"; the
 * longest entry that matches decides). Only what these rules read is listed:
 * the run-time folders, what they import, and the build-time folders they
 * must not. The entry points and the layers above the core (codec.ts,
 * runtime.ts, stream/, dispatch/) are test/house/layers.test.ts's. A moved
 * file takes its line along (a test holds the table to the tree).
 */
const FOLDERS: Readonly<Record<string, Time>> = {
  // Leaves: names and builders either side takes; they import nothing of the codec.
  "errors.ts": "leaf",
  "json.ts": "leaf",
  "graph.ts": "leaf",
  "dialects.ts": "leaf",
  // The code builder: each construct's compile-time half writes its own decode function with it.
  "code.ts": "leaf",
  // Run time.
  "wire/": "run time", // the envelope and the paths
  "decode/": "run time", // the generated decoder made from its factory
  "constructs/": "run time", // one module per node kind: encode, decode, the plan check, error paths
  "constructs/stream/": "run time", // each node kind's stream half: its partial (the stream layer's, layers.test.ts)
  "parse/": "run time",
  "feedback/": "run time",
  "bundle/": "run time",
  "issues.ts": "run time",
  "value-limits.ts": "run time",
  "ir/nodes.ts": "run time",
  "ir/shape.ts": "run time",
  "ir/children.ts": "run time",
  "ir/inline.ts": "run time",
  "targets/profile.ts": "run time",
  // Build time.
  "wire-schema/": "build time", // the wire schema: assembled, factored, first keys fitted
  "constructs/compile/": "build time", // each node kind's other half: its wire, generateDecode, describe, tsType
  "generate/": "build time", // the generated decoder written
  "emit/": "build time", // the TypeScript types compile --emit writes
  "schema/": "build time",
  "ir/": "build time",
  "targets/": "build time",
  "validate/ajv.ts": "build time",
  "compile.ts": "build time",
  "load.ts": "build time",
  "standalone.ts": "build time",
  "inspect.ts": "build time",
};

/**
 * The run-time entry: what a generated module imports (`@strictwire/codec/runtime/module`);
 * `@strictwire/codec/runtime` is it and loadJsonBundle, which loads build time on its first call.
 */
const RUNTIME_ENTRY = "runtime.ts";

/** What words nothing: it returns typed values, worded by feedback/. parse/json.ts is the public parse, worded. */
const WORDS_NOTHING = ["errors.ts", "value-limits.ts", "parse/"];
const WORDED_PARSE = "parse/json.ts";

function timeOf(file: string, table: Readonly<Record<string, Time>> = FOLDERS): Time | undefined {
  let best: string | undefined;
  for (const entry of Object.keys(table)) {
    const matches = entry.endsWith("/") ? file.startsWith(entry) : file === entry;
    if (matches && (best === undefined || entry.length > best.length)) best = entry;
  }
  return best === undefined ? undefined : table[best];
}

const under = (file: string, entries: readonly string[]) =>
  entries.some((e) => (e.endsWith("/") ? file.startsWith(e) : file === e));

/** Each import breaking the time rule: a leaf imports nothing; run time imports only run time and leaves. */
function timeBreaches(graph: Graph, time: (f: string) => Time | undefined): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    const t = time(from);
    for (const to of imports) {
      const u = time(to);
      if (t === "leaf" || (t === "run time" && u !== "run time" && u !== "leaf")) {
        out.push(`${from} (${t}) -> ${to} (${u ?? "unlisted"})`);
      }
    }
  }
  return out;
}

/** The build-time files a root reaches, each with its chain. */
function buildTimeReached(graph: Graph, root: string, time: (f: string) => Time | undefined): string[] {
  return [...reach(graph, root)].filter(([file]) => time(file) === "build time").map(([, chain]) => chain.join(" -> "));
}

/** The files under feedback/ that a file of `quiet` (but the worded parse) reaches. */
function wordsReached(graph: Graph, quiet: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of graph.keys()) {
    if (!under(file, quiet) || file === WORDED_PARSE) continue;
    for (const [to, chain] of reach(graph, file)) if (to.startsWith("feedback/")) out.push(chain.join(" -> "));
  }
  return out;
}

/** The constructs' stream halves a root loads, each with its chain. */
function streamHalvesReached(graph: Graph, root: string): string[] {
  return [...reach(graph, root)]
    .filter(([file]) => file.startsWith("constructs/stream/"))
    .map(([, chain]) => chain.join(" -> "));
}

/** Imports from schema/ of bundle/, reached through anything. */
function bundleFromSchema(graph: Graph): string[] {
  const out: string[] = [];
  for (const file of graph.keys()) {
    if (!file.startsWith("schema/")) continue;
    for (const [to, chain] of reach(graph, file)) if (to.startsWith("bundle/")) out.push(chain.join(" -> "));
  }
  return out;
}

describe("the rules themselves, on a made-up source tree: each can fail, type imports included", () => {
  const root = mkdtempSync(join(tmpdir(), "strictwire-folders-"));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write("runtime.ts", 'export { decode } from "./decode/compiled.js";\n');
  write("decode/compiled.ts", 'import { paths } from "../wire/paths.js";\nexport const decode = paths;\n');
  write(
    "wire/paths.ts",
    'import { wireSchema } from "../wire-schema/assemble.js";\nexport const paths = wireSchema;\n',
  );
  write("wire-schema/assemble.ts", "export const wireSchema = 1;\n");
  write("constructs/scalar.ts", 'import type { Rendered } from "../emit/types.js";\nexport type T = Rendered;\n');
  write("emit/types.ts", "export interface Rendered { readonly text: string }\n");
  // A construct's run-time half taking a type of its compile-time half; the other way is allowed.
  write("constructs/union.ts", 'import type { U } from "./compile/union.js";\nexport const union: U = 1;\n');
  write("constructs/compile/union.ts", 'import { union } from "../union.js";\nexport type U = typeof union;\n');
  // The core loading a construct's stream half (what the stream decoder alone should load).
  write("codec.ts", 'import { map } from "./constructs/map.js";\nexport const codec = map;\n');
  write("constructs/map.ts", 'import { mapStreamer } from "./stream/map.js";\nexport const map = mapStreamer;\n');
  write("constructs/stream/map.ts", 'import type { M } from "../map.js";\nexport const mapStreamer: M = 1;\n');
  write("value-limits.ts", 'import type { CodecError } from "./feedback/format.js";\nexport type B = CodecError;\n');
  write("feedback/format.ts", "export interface CodecError { readonly code: string }\n");
  write(
    "schema/adapters.ts",
    'import type { InputDialect } from "../bundle/bundle.js";\nexport type D = InputDialect;\n',
  );
  write("bundle/bundle.ts", 'export type InputDialect = "bfcl";\n');
  write("errors.ts", 'import type { B } from "./value-limits.js";\nexport type E = B;\n');
  const all = sourceGraph({ root });
  const loading = sourceGraph({ root, loading: true });
  rmSync(root, { recursive: true, force: true });

  test("type-only imports are in the whole graph and out of the loading one", () => {
    expect(all.get("constructs/scalar.ts")).toEqual(["emit/types.ts"]);
    expect(loading.get("constructs/scalar.ts")).toEqual([]);
    expect(loading.get("runtime.ts")).toEqual(["decode/compiled.ts"]);
    expect(importsOf("a/b.ts", 'import { type X, y } from "../c.js";\nexport type { Z } from "./z.js";', true)).toEqual(
      ["c.ts"],
    );
  });

  test("each rule finds its breach", () => {
    expect(timeBreaches(all, (f) => timeOf(f)).sort()).toEqual([
      "constructs/scalar.ts (run time) -> emit/types.ts (build time)",
      "constructs/union.ts (run time) -> constructs/compile/union.ts (build time)",
      "errors.ts (leaf) -> value-limits.ts (run time)",
      "wire/paths.ts (run time) -> wire-schema/assemble.ts (build time)",
    ]);
    expect(buildTimeReached(loading, RUNTIME_ENTRY, (f) => timeOf(f))).toEqual([
      "runtime.ts -> decode/compiled.ts -> wire/paths.ts -> wire-schema/assemble.ts",
    ]);
    expect(wordsReached(all, ["value-limits.ts"])).toEqual(["value-limits.ts -> feedback/format.ts"]);
    expect(bundleFromSchema(all)).toEqual(["schema/adapters.ts -> bundle/bundle.ts"]);
    expect(streamHalvesReached(loading, "codec.ts")).toEqual([
      "codec.ts -> constructs/map.ts -> constructs/stream/map.ts",
    ]);
  });
});

describe("the codec's source", () => {
  const all = sourceGraph();
  const loading = sourceGraph({ loading: true });
  const time = (f: string) => timeOf(f);

  test("every entry of the table names files that exist", () => {
    const files = [...all.keys()];
    expect(Object.keys(FOLDERS).filter((e) => !files.some((f) => under(f, [e])))).toEqual([]);
    // The wire and decode folders hold run time only: the build-time files left them.
    expect(readdirSync(join(SRC, "wire")).sort()).toEqual(["envelope.ts", "paths.ts"]);
    expect(readdirSync(join(SRC, "decode")).sort()).toEqual(["compiled.ts"]);
  });

  test("run time imports nothing of build time, and the leaves nothing at all (constructs take no build-time type)", () => {
    expect(timeBreaches(all, time)).toEqual([]);
    // The reading sees the real graph: the compile-time halves import the code builder and their contexts,
    // type-only ones too, and their run-time halves; the run-time interface takes none of them.
    expect(all.get("constructs/compile/construct.ts")).toEqual(
      expect.arrayContaining(["code.ts", "constructs/compile/context.ts", "constructs/compile/decode-generator.ts"]),
    );
    expect(all.get("constructs/compile/union.ts")).toContain("constructs/union.ts");
    expect(all.get("constructs/construct.ts")).not.toContain("code.ts");
    expect(all.get("emit/types.ts")).toContain("constructs/compile/context.ts");
  });

  test("each construct is one name in three halves: constructs/<kind>.ts (run time), compile/<kind>.ts, stream/<kind>.ts", () => {
    const shared = ["construct.ts", "context.ts", "registry.ts", "decode-generator.ts"];
    const halves = (dir: string) =>
      readdirSync(join(SRC, dir))
        .filter((f) => f.endsWith(".ts") && !shared.includes(f))
        .sort();
    const run = halves("constructs");
    expect(run.length).toBeGreaterThan(10);
    expect(halves(join("constructs", "compile"))).toEqual(run);
    expect(halves(join("constructs", "stream"))).toEqual(run);
    // The run-time entry loads no compile-time half, nor the code builder they write decode functions with;
    // compile loads every one.
    const reached = reach(loading, RUNTIME_ENTRY);
    expect([...reached.keys()].filter((f) => f.startsWith("constructs/compile/") || f === "code.ts")).toEqual([]);
    expect(reached.has("constructs/union.ts")).toBe(true);
    const compiled = reach(loading, "compile.ts");
    expect(run.filter((f) => !compiled.has(`constructs/compile/${f}`))).toEqual([]);
    // The stream decoder loads every stream half; the core and the run-time halves (what a decode-only bundle
    // holds) load none.
    const streamed = reach(loading, "stream/decoder.ts");
    expect(run.filter((f) => !streamed.has(`constructs/stream/${f}`))).toEqual([]);
    for (const root of ["codec.ts", "constructs/registry.ts", ...run.map((f) => `constructs/${f}`)]) {
      expect(streamHalvesReached(loading, root), root).toEqual([]);
    }
  });

  test("the run-time entry loads nothing of build time", () => {
    expect(buildTimeReached(loading, RUNTIME_ENTRY, time)).toEqual([]);
    // It does reach the run-time homes of the envelope, the paths and the decoder.
    const reached = reach(loading, RUNTIME_ENTRY);
    for (const f of ["wire/envelope.ts", "wire/paths.ts", "decode/compiled.ts", "value-limits.ts"]) {
      expect(reached.has(f), f).toBe(true);
    }
    // And the build side does reach what the entry must not.
    expect(buildTimeReached(loading, "compile.ts", time).length).toBeGreaterThan(0);
  });

  test("errors.ts, value-limits.ts and the parser word nothing: feedback/ words their typed values", () => {
    expect(wordsReached(all, WORDS_NOTHING)).toEqual([]);
    expect(all.get("feedback/value.ts")).toContain("value-limits.ts");
    expect(all.get(WORDED_PARSE)).toContain("feedback/parse.ts");
  });

  test("schema reading takes nothing of the bundle, types included", () => {
    expect(bundleFromSchema(all)).toEqual([]);
    expect(all.get("schema/adapters.ts")).toContain("dialects.ts");
  });
});
