/**
 * The house's layers, read off the import graph of packages/codec/src: the
 * codec core imports no layer above it (streaming, dispatch, the provider
 * APIs, the adapters, build time; a construct's run-time half takes neither
 * its compile-time half nor its stream half), and no import cycle joins the core to a
 * layer above. Every import counts: `import`, `import type`, `export … from`,
 * a dynamic `import()` (a type is a dependency of the design, and a type-only
 * cycle still means the two can only be read together). The imports are read
 * by TypeScript's own scanner (graph.ts). Run time and build time by folder
 * are test/house/folders.test.ts's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type Graph, importsOf, reach, SRC, sourceGraph } from "./graph.js";

/**
 * Where each source file sits, by path under src/ (a folder ends in "/"); the
 * longest entry that matches a file decides. Every file must match one, so a
 * new file or folder takes a line here, and a line that names nothing fails
 * (a moved file takes its line along).
 */
const HOUSE: Readonly<Record<string, Layer>> = {
  // The core: the codec and what it is made of, all run time.
  "codec.ts": "core",
  "errors.ts": "core",
  "dialects.ts": "core",
  "code.ts": "core",
  "issues.ts": "core",
  "json.ts": "core",
  "graph.ts": "core",
  "value-limits.ts": "core",
  "bundle/": "core",
  "constructs/": "core",
  "decode/": "core",
  "feedback/": "core",
  "parse/": "core",
  "ir/nodes.ts": "core",
  "ir/inline.ts": "core",
  "ir/shape.ts": "core",
  "ir/children.ts": "core",
  "wire/": "core",
  // The target names a bundle records and loading checks (types and name lists only), though in targets/.
  "targets/profile.ts": "core",
  // Build time: reading schemas, building the IR and the wire, generating code, the target tables.
  "compile.ts": "build time",
  "load.ts": "build time",
  "standalone.ts": "build time",
  "inspect.ts": "build time",
  "schema/": "build time",
  "ir/": "build time",
  "wire-schema/": "build time",
  // Each construct's compile-time half (its run-time half, constructs/<kind>.ts, is the core's).
  "constructs/compile/": "build time",
  "generate/": "build time",
  "validate/ajv.ts": "build time",
  "emit/": "build time",
  "targets/": "build time",
  // The layers above the core, at run time.
  "stream/": "stream",
  // Each construct's stream half, its partial (its run-time half, constructs/<kind>.ts, is the core's).
  "constructs/stream/": "stream",
  "dispatch/": "dispatch",
  "providers/": "providers",
  "validate/": "validators",
  // ajv-formats behind a file of the package's own, so that a bundle without a format leaves it out.
  "validate/formats.ts": "validators",
  "agents.ts": "adapter",
  "answer/": "adapter",
  "input/": "adapter",
  "kit/": "adapter",
  "dispatch/ai-sdk.ts": "adapter",
  "dispatch/agents.ts": "adapter",
  "stream/ai-sdk.ts": "adapter",
  // The package's entry points and the Codec they hand out (the core with the layers' conveniences).
  "index.ts": "entry",
  "runtime.ts": "entry",
  "runtime-entry.ts": "entry",
  "cjs.ts": "entry",
  "public-codec.ts": "entry",
};

type Layer = "core" | "build time" | "stream" | "dispatch" | "providers" | "validators" | "adapter" | "entry";

/** The core's entry: the core is what it reaches, and all of that must be classified core. */
const CORE_ROOT = "codec.ts";

/** A file's layer by the longest matching entry of `house`; undefined if none matches. */
function layerOf(file: string, house: Readonly<Record<string, Layer>> = HOUSE): Layer | undefined {
  let best: string | undefined;
  for (const entry of Object.keys(house)) {
    const matches = entry.endsWith("/") ? file.startsWith(entry) : file === entry;
    if (matches && (best === undefined || entry.length > best.length)) best = entry;
  }
  return best === undefined ? undefined : house[best];
}

/** Each import from a core file of a file outside the core, as "from -> to (layer)". */
function coreViolations(graph: Graph, layer: (file: string) => Layer | undefined): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    if (layer(from) !== "core") continue;
    for (const to of imports) if (layer(to) !== "core") out.push(`${from} -> ${to} (${layer(to) ?? "unclassified"})`);
  }
  return out;
}

/** What `root` reaches that is not core, each with the chain of imports that first reaches it. */
function reachedOutside(graph: Graph, root: string, layer: (file: string) => Layer | undefined): string[] {
  const out: string[] = [];
  // Only through the core: past the first file outside it, the chain is that file's layer's business.
  const core: Graph = new Map([...graph].map(([f, imports]) => [f, layer(f) === "core" ? imports : []]));
  for (const [file, chain] of reach(core, root)) {
    if (layer(file) !== "core") out.push(`${chain.join(" -> ")} (${layer(file) ?? "unclassified"})`);
  }
  return out;
}

/** The import cycles (strongly connected components, Tarjan's) that hold a core file and a file outside the core. */
function mixedCycles(graph: Graph, layer: (file: string) => Layer | undefined): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const cores = component.filter((f) => layer(f) === "core").length;
    if (cores > 0 && cores < component.length) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out;
}

describe("the checks themselves, on made-up graphs: each can fail", () => {
  const house: Record<string, Layer> = {
    "codec.ts": "core",
    "parse/": "core",
    "stream/": "stream",
    "emit/": "build time",
  };
  const layer = (f: string) => layerOf(f, house);

  test("the scanner reads every kind of import, type-only and re-exports included", () => {
    const text = [
      'import type { A } from "./a.js";',
      'import { type B, c } from "../b.js";',
      'export { d } from "./d.js";',
      'export type { E } from "./e.js";',
      'export * from "./f.js";',
      'import "./g.js";',
      'const h = await import("./h.js");',
      "// import { x } from './comment.js';",
      'import ts from "typescript";',
    ].join("\n");
    expect(importsOf("stream/decoder.ts", text)).toEqual([
      "stream/a.ts",
      "b.ts",
      "stream/d.ts",
      "stream/e.ts",
      "stream/f.ts",
      "stream/g.ts",
      "stream/h.ts",
    ]);
  });

  test("the longest entry decides a file's layer; a file no entry matches has none", () => {
    expect(layerOf("ir/build.ts")).toBe("build time");
    expect(layerOf("ir/nodes.ts")).toBe("core");
    expect(layerOf("constructs/union.ts")).toBe("core");
    expect(layerOf("constructs/compile/union.ts")).toBe("build time");
    expect(layerOf("constructs/stream/union.ts")).toBe("stream");
    expect(layerOf("dispatch/ai-sdk.ts")).toBe("adapter");
    expect(layerOf("dispatch/guard.ts")).toBe("dispatch");
    expect(layerOf("nowhere.ts")).toBeUndefined();
  });

  test("a core file importing a layer above, even a type, is found, with the chain from the root", () => {
    const graph: Graph = new Map([
      ["codec.ts", ["parse/parser.ts"]],
      ["parse/parser.ts", ["emit/types.ts"]],
      ["emit/types.ts", []],
      ["stream/decoder.ts", ["codec.ts"]],
    ]);
    expect(coreViolations(graph, layer)).toEqual(["parse/parser.ts -> emit/types.ts (build time)"]);
    expect(reachedOutside(graph, "codec.ts", layer)).toEqual([
      "codec.ts -> parse/parser.ts -> emit/types.ts (build time)",
    ]);
    // A layer above importing the core is the direction allowed.
    const upward: Graph = new Map([
      ["codec.ts", []],
      ["stream/decoder.ts", ["codec.ts"]],
    ]);
    expect(coreViolations(upward, layer)).toEqual([]);
    expect(reachedOutside(upward, "codec.ts", layer)).toEqual([]);
  });

  test("a construct's run-time half taking its stream half, even a type, is found by the house's own table", () => {
    const graph: Graph = new Map([
      ["codec.ts", ["constructs/registry.ts"]],
      ["constructs/registry.ts", ["constructs/union.ts"]],
      ["constructs/union.ts", ["constructs/stream/context.ts"]],
      ["constructs/stream/context.ts", []],
      ["constructs/stream/union.ts", ["constructs/union.ts"]],
    ]);
    expect(coreViolations(graph, (f) => layerOf(f))).toEqual([
      "constructs/union.ts -> constructs/stream/context.ts (stream)",
    ]);
    expect(reachedOutside(graph, "codec.ts", (f) => layerOf(f))).toEqual([
      "codec.ts -> constructs/registry.ts -> constructs/union.ts -> constructs/stream/context.ts (stream)",
    ]);
    // The stream half taking its run-time half is the direction allowed.
    const upward: Graph = new Map([
      ["codec.ts", ["constructs/union.ts"]],
      ["constructs/union.ts", []],
      ["constructs/stream/union.ts", ["constructs/union.ts"]],
    ]);
    expect(coreViolations(upward, (f) => layerOf(f))).toEqual([]);
  });

  test("a cycle through the core and a layer above is found; one inside a layer is not the core's", () => {
    const graph: Graph = new Map([
      ["codec.ts", ["parse/parser.ts"]],
      ["parse/parser.ts", ["stream/decoder.ts"]],
      ["stream/decoder.ts", ["codec.ts", "stream/refusal.ts"]],
      ["stream/refusal.ts", ["stream/decoder.ts"]],
    ]);
    expect(mixedCycles(graph, layer)).toEqual([
      ["codec.ts", "parse/parser.ts", "stream/decoder.ts", "stream/refusal.ts"],
    ]);
    const inside: Graph = new Map([
      ["codec.ts", []],
      ["stream/decoder.ts", ["codec.ts", "stream/refusal.ts"]],
      ["stream/refusal.ts", ["stream/decoder.ts"]],
    ]);
    expect(mixedCycles(inside, layer)).toEqual([]);
  });
});

describe("the codec's source", () => {
  const graph = sourceGraph();

  test("every source file has its place in the table", () => {
    expect([...graph.keys()].filter((f) => layerOf(f) === undefined)).toEqual([]);
    // And every entry of the table still names something (a moved file takes its line along).
    const files = [...graph.keys()];
    const stale = Object.keys(HOUSE).filter((e) => !files.some((f) => (e.endsWith("/") ? f.startsWith(e) : f === e)));
    expect(stale).toEqual([]);
  });

  test("the core imports no layer above it: not streaming, dispatch, a provider API, an adapter or build time", () => {
    expect(coreViolations(graph, (f) => layerOf(f))).toEqual([]);
    expect(reachedOutside(graph, CORE_ROOT, (f) => layerOf(f))).toEqual([]);
    // The reading sees the real graph: the layers do import the core, type-only imports included.
    expect(graph.get("stream/decoder.ts")).toContain("codec.ts");
    expect(graph.get("dispatch/standard.ts")).toContain("codec.ts");
    // The constructs' stream halves are read: they take their run-time halves, and the stream decoder takes their table.
    expect(graph.get("constructs/stream/union.ts")).toContain("constructs/union.ts");
    expect(graph.get("stream/decoder.ts")).toContain("constructs/stream/registry.ts");
    expect(readFileSync(join(SRC, "dispatch", "standard.ts"), "utf8")).toMatch(
      /import type \{[^}]*\} from "\.\.\/codec\.js"/,
    );
  });

  test("no import cycle joins the core to a layer above it", () => {
    expect(mixedCycles(graph, (f) => layerOf(f))).toEqual([]);
  });
});
