/**
 * Measurements that need a fresh process: cold start (import, bundle load,
 * first decode) and peak heap while decoding a 1 MB input. Children run the
 * codec's built dist (what an application imports), from bench/src/children.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CompileOptions, compile, compileCodec, standaloneModule } from "@strictwire/codec";
import { isPlainObject } from "@strictwire/codec/schema";
import { loadFixtures, REPO_ROOT } from "../corpora.js";
import { kb, table } from "../format.js";
import { fmtMs, fmtSummary, type Summary, summarize } from "../stats.js";

const CHILDREN = fileURLToPath(new URL("../children/", import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether the codec's dist is older than its sources (children would measure stale code). */
export function distStatus(): { present: boolean; stale: boolean } {
  const info = join(REPO_ROOT, "packages/codec/dist/.tsbuildinfo");
  try {
    const built = statSync(info).mtimeMs;
    return { present: true, stale: newestMtime(join(REPO_ROOT, "packages/codec/src")) > built };
  } catch {
    return { present: false, stale: true };
  }
}

function child(script: string, args: readonly string[], flags: readonly string[] = []): Record<string, unknown> {
  const out = execFileSync(process.execPath, [...flags, join(CHILDREN, script), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const line = out.trim().split("\n").pop() ?? "{}";
  return JSON.parse(line) as Record<string, unknown>;
}

function writeCase(
  dir: string,
  schema: unknown,
  options: CompileOptions,
  value: unknown,
  limits?: CompileOptions["limits"],
): void {
  const opts: CompileOptions = limits === undefined ? options : { ...options, limits };
  const bundle = compile(schema, opts);
  const codec = compileCodec(schema, opts);
  if (!bundle.ok || !codec.ok) throw new Error("cold start schema does not compile");
  const wire = codec.value.encode(value);
  if (!wire.ok) throw new Error(`cold start value does not encode: ${wire.error.message}`);
  writeFileSync(join(dir, "bundle.json"), JSON.stringify(bundle.value));
  writeFileSync(join(dir, "wire.txt"), JSON.stringify(wire.value));
  writeFileSync(join(dir, "schema.json"), JSON.stringify(schema));
  writeFileSync(join(dir, "original.txt"), JSON.stringify(value));
  const module = standaloneModule(bundle.value);
  if (module.ok) writeFileSync(join(dir, "tool.bundle.mjs"), module.value);
}

/**
 * A scratch directory under bench/results/ (git-ignored): a generated module
 * imports @strictwire/codec/standalone, which resolves from inside bench/.
 */
function scratchDir(prefix: string): string {
  const base = join(REPO_ROOT, "bench/results");
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

// ---------------------------------------------------------------------------
// Cold start

type Phases = Readonly<Record<"import" | "load" | "first" | "second" | "total", Summary>>;

export interface ColdStartRow {
  readonly schema: string;
  readonly bundleBytes: number;
  readonly moduleBytes: number | undefined;
  /** Per phase, ms, over runs: the JSON bundle, the --emit module form, the ajv baseline. */
  readonly codec: Phases;
  readonly module: Phases | undefined;
  readonly baseline: Phases;
  /** Time to first result over the baseline's, per interleaved set of runs. */
  readonly ratio: Summary;
  readonly moduleRatio: Summary | undefined;
}

export interface ColdStartResult {
  readonly rows: readonly ColdStartRow[];
  readonly moduleVariant: string;
  readonly dist: { present: boolean; stale: boolean };
}

const PHASES = ["import", "load", "first", "second", "total"] as const;

export function runColdStart(runs: number, fixtureNames: readonly string[]): ColdStartResult {
  const dist = distStatus();
  const rows: ColdStartRow[] = [];
  let moduleVariant = "measured: `compile --emit module` output (standaloneModule), imported and load()ed";
  if (!dist.present) return { rows, moduleVariant: "not measured (no dist)", dist };
  for (const name of fixtureNames) {
    const f = loadFixtures().find((x) => x.name === name);
    if (f === undefined) continue;
    const value = [...f.valid].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length)[0];
    const dir = scratchDir("cold-");
    try {
      writeCase(dir, f.schema, f.options as CompileOptions, value);
      let hasModule = true;
      try {
        statSync(join(dir, "tool.bundle.mjs"));
      } catch {
        hasModule = false;
        moduleVariant = "not measured: standaloneModule refused this bundle";
      }
      const modes = hasModule ? ["codec", "module", "baseline"] : ["codec", "baseline"];
      const samples: Record<string, Record<string, number[]>> = {};
      for (const mode of modes) samples[mode] = Object.fromEntries(PHASES.map((p) => [p, [] as number[]]));
      const ratios: number[] = [];
      const moduleRatios: number[] = [];
      // One unmeasured run of each warms the file system cache.
      for (const mode of modes) child("coldstart.mjs", [mode, dir]);
      for (let i = 0; i < runs; i++) {
        const order = modes.map((_, k) => modes[(k + i) % modes.length]!);
        const got: Record<string, Record<string, unknown>> = {};
        for (const mode of order) got[mode] = child("coldstart.mjs", [mode, dir]);
        for (const mode of modes) for (const p of PHASES) samples[mode]![p]!.push(got[mode]![p] as number);
        const base = got.baseline!.total as number;
        ratios.push((got.codec!.total as number) / base);
        if (hasModule) moduleRatios.push((got.module!.total as number) / base);
      }
      const phases = (mode: string): Phases =>
        Object.fromEntries(PHASES.map((p) => [p, summarize(samples[mode]![p]!)])) as Phases;
      rows.push({
        schema: name,
        bundleBytes: statSync(join(dir, "bundle.json")).size,
        moduleBytes: hasModule ? statSync(join(dir, "tool.bundle.mjs")).size : undefined,
        codec: phases("codec"),
        module: hasModule ? phases("module") : undefined,
        baseline: phases("baseline"),
        ratio: summarize(ratios),
        moduleRatio: hasModule ? summarize(moduleRatios) : undefined,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { rows, moduleVariant, dist };
}

export function renderColdStart(r: ColdStartResult): string {
  const parts = ["## Cold start: bundle load and first decode, in a fresh process", ""];
  if (!r.dist.present) {
    parts.push("Not measured: packages/codec/dist is missing (run `pnpm build`).");
    return parts.join("\n");
  }
  if (r.dist.stale)
    parts.push("**Warning: packages/codec/dist is older than its sources; run `pnpm build` first.**", "");
  const line = (schema: string, size: string, who: string, p: Phases): string[] => [
    schema,
    size,
    who,
    fmtMs(p.import.median),
    fmtMs(p.load.median),
    fmtMs(p.first.median),
    fmtMs(p.second.median),
    fmtMs(p.total.median),
  ];
  parts.push(
    "Times are ms since the child process started (node's performance.now origin), medians over runs. Children run the built dist. JSON bundle: import @strictwire/codec, loadBundle (checks the bundle, compiles both validators with ajv). Module: import the `compile --emit module` file (every validator already code; it imports only @strictwire/codec/runtime, which loads no ajv compiler), load(). Baseline: require ajv + ajv-formats, compile the source schema, JSON.parse + validate. The order of the children rotates from run to run.",
    "",
    table(
      ["schema", "file", "who", "import", "load/compile", "first call", "second call", "ready + first call"],
      r.rows.flatMap((row) => [
        line(row.schema, kb(row.bundleBytes), "strictwire, JSON bundle", row.codec),
        ...(row.module !== undefined
          ? [line("", kb(row.moduleBytes ?? 0), "strictwire, --emit module", row.module)]
          : []),
        line("", "", "baseline (ajv)", row.baseline),
      ]),
    ),
    "",
    ...r.rows.map(
      (row) =>
        `- ${row.schema}: time to first result over the baseline's: JSON bundle ${fmtSummary(row.ratio)}${row.moduleRatio !== undefined ? `, module ${fmtSummary(row.moduleRatio)}` : ""}`,
    ),
    "",
    `Precompiled standalone validators (--emit module): ${r.moduleVariant}.`,
  );
  return parts.join("\n");
}

// ---------------------------------------------------------------------------
// Memory

/** A bulk tool: a list of records with optional members, the shape 1 MB tool calls take. */
export const BULK_SCHEMA = {
  type: "object",
  properties: {
    records: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer" },
          name: { type: "string" },
          email: { type: "string", format: "email" },
          tags: { type: "array", items: { type: "string" } },
          score: { type: "number" },
          note: { type: "string" },
          address: {
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" }, zip: { type: "string" } },
            required: ["street", "city"],
            additionalProperties: false,
          },
        },
        required: ["id", "name", "email", "tags"],
        additionalProperties: false,
      },
    },
  },
  required: ["records"],
  additionalProperties: false,
} as const;

export function bulkValue(bytes: number): unknown {
  const records: unknown[] = [];
  let size = 20;
  for (let i = 0; size < bytes; i++) {
    const r: Record<string, unknown> = {
      id: i,
      name: `Customer ${i} ${["Zoë", "Ada", "東京 office", "O'Brien"][i % 4]}`,
      email: `customer${i}@example.com`,
      tags: ["priority", "eu", "renewal"].slice(0, i % 4),
    };
    if (i % 2 === 0) r.score = (i * 7.31) % 100;
    if (i % 3 === 0) r.note = "Prefers e-mail contact; invoice quarterly, net 30.";
    if (i % 5 !== 4)
      r.address = { street: `${i} Main Street`, city: "Springfield", ...(i % 2 ? { zip: "12345" } : {}) };
    size += JSON.stringify(r).length + 1;
    records.push(r);
  }
  return { records };
}

export interface MemoryRow {
  readonly who: string;
  readonly inputBytes: number;
  readonly allocated: Summary;
  readonly retained: Summary;
  readonly gcs: number;
}

const MEMORY_FLAGS = ["--expose-gc", "--min-semi-space-size=128", "--max-semi-space-size=128"];

export function runMemory(runs: number): {
  rows: MemoryRow[];
  originalBytes: number;
  dist: { present: boolean; stale: boolean };
} {
  const dist = distStatus();
  const value = bulkValue(1_000_000);
  const originalBytes = Buffer.byteLength(JSON.stringify(value));
  if (!dist.present) return { rows: [], originalBytes, dist };
  const dir = scratchDir("mem-");
  const limits = { maxBytes: 4_000_000, maxNodes: 1_000_000, maxDepth: 64 };
  try {
    writeCase(dir, BULK_SCHEMA, { presence: "tagged" }, value, limits);
    const compact = compile(BULK_SCHEMA, { presence: "compact", limits });
    const compactCodec = compileCodec(BULK_SCHEMA, { presence: "compact", limits });
    if (!compact.ok || !compactCodec.ok) throw new Error("bulk schema does not compile");
    const cw = compactCodec.value.encode(value);
    if (!cw.ok || !isPlainObject(cw.value)) throw new Error("bulk value does not encode");
    writeFileSync(join(dir, "bundle-compact.json"), JSON.stringify(compact.value));
    writeFileSync(join(dir, "wire-compact.txt"), JSON.stringify(cw.value));
    const who: [string, string[]][] = [
      ["JSON.parse + ajv (original text)", ["baseline", dir]],
      ["strictwire decode, tagged wire", ["codec", dir, "bundle.json", "wire.txt"]],
      ["strictwire decode, compact wire", ["codec", dir, "bundle-compact.json", "wire-compact.txt"]],
    ];
    const samples = new Map<string, { inputBytes: number; allocated: number[]; retained: number[]; gcs: number }>();
    for (let i = 0; i < runs; i++) {
      for (const [name, args] of i % 2 === 0 ? who : [...who].reverse()) {
        const r = child("memory.mjs", args, MEMORY_FLAGS);
        const s = samples.get(name) ?? { inputBytes: r.inputBytes as number, allocated: [], retained: [], gcs: 0 };
        s.allocated.push(r.allocated as number);
        s.retained.push(r.retained as number);
        s.gcs += r.gcsDuringCall as number;
        samples.set(name, s);
      }
    }
    const rows = who.map(([name]) => {
      const s = samples.get(name)!;
      return {
        who: name,
        inputBytes: s.inputBytes,
        allocated: summarize(s.allocated),
        retained: summarize(s.retained),
        gcs: s.gcs,
      };
    });
    return { rows, originalBytes, dist };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderMemory(r: ReturnType<typeof runMemory>): string {
  const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const base = r.rows[0];
  return [
    `## Memory: heap while decoding a ${mb(r.originalBytes)} tool call (bulk records, optional members)`,
    "",
    "Method: a fresh child per measurement (node --expose-gc --min-semi-space-size=128 --max-semi-space-size=128); gc() twice, v8.getHeapStatistics().used_heap_size before and right after one call (a young generation that large lets the call run without any collection, so the difference is every byte it allocated, which bounds its peak); then gc() with the result still held (retained). GC events during the call are counted with a PerformanceObserver. Medians over runs (p25–p75).",
    "",
    table(
      ["who", "input", "heap allocated by the call", "retained (result)", "GCs during call", "allocated / baseline"],
      r.rows.map((row) => [
        row.who,
        mb(row.inputBytes),
        `${mb(row.allocated.median)} (${mb(row.allocated.p25)}–${mb(row.allocated.p75)})`,
        mb(row.retained.median),
        row.gcs,
        base === undefined ? "" : (row.allocated.median / base.allocated.median).toFixed(2),
      ]),
    ),
  ].join("\n");
}
