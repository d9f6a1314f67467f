/**
 * Compile time: per fixture against ajv compiling the same source schema
 * (interleaved), and its growth with schema size over JSONSchemaBench,
 * bucketed by source size: median time per KB of schema in each bucket.
 */
import { type CompileOptions, compile, loadBundle } from "@strictwire/codec";
import { baselineValidator, newAjv } from "../baseline.js";
import { jsonSchemaBenchSubsets, loadFixtures, loadJsonSchemaBench, sample } from "../corpora.js";
import { progress, table } from "../format.js";
import {
  type ComparisonOptions,
  compareInterleaved,
  fmtMs,
  fmtSummary,
  geomean,
  logLogSlope,
  type Summary,
  summarize,
} from "../stats.js";

export interface FixtureCompile {
  readonly id: string;
  readonly bytes: number;
  readonly compileMs: Summary;
  readonly ajvMs: Summary;
  readonly ratio: Summary;
  /** loadBundle of the compiled bundle (JSON text), over ajv compiling the source. */
  readonly loadRatio: Summary;
  /** A fresh ajv (2020, the codec's options) compiling the wire schema, over ajv compiling the source. */
  readonly wireRatio: Summary;
}

export function runFixtureCompile(timing: ComparisonOptions, limit = Number.POSITIVE_INFINITY): FixtureCompile[] {
  const out: FixtureCompile[] = [];
  for (const f of loadFixtures().slice(0, limit)) {
    const options = f.options as CompileOptions;
    const bundle = compile(f.schema, options);
    if (!bundle.ok) continue;
    const text = JSON.stringify(bundle.value);
    const wire = bundle.value.wire;
    const cmp = compareInterleaved(
      [
        { name: "ajv", fn: () => baselineValidator(f.schema) },
        { name: "compile", fn: () => compile(f.schema, options) },
        { name: "load", fn: () => loadBundle(text) },
        { name: "wire", fn: () => newAjv("2020").compile(wire) },
      ],
      { ...timing, minIterationMs: 1 },
    );
    out.push({
      id: f.name,
      bytes: Buffer.byteLength(JSON.stringify(f.schema)),
      compileMs: cmp.perCall.compile!,
      ajvMs: cmp.perCall.ajv!,
      ratio: cmp.ratio.compile!,
      loadRatio: cmp.ratio.load!,
      wireRatio: cmp.ratio.wire!,
    });
  }
  return out;
}

export const BUCKETS: readonly [string, number, number][] = [
  ["< 1 KB", 0, 1024],
  ["1-4 KB", 1024, 4096],
  ["4-16 KB", 4096, 16384],
  ["16-64 KB", 16384, 65536],
  ["64-256 KB", 65536, 262144],
  [">= 256 KB", 262144, Number.POSITIVE_INFINITY],
];

export interface GrowthBucket {
  readonly bucket: string;
  readonly schemas: number;
  readonly refused: number;
  readonly medianKb: number;
  /** Milliseconds per KB of source schema, over the bucket's compiled schemas. */
  readonly msPerKb: Summary;
  readonly msPerCompile: Summary;
}

export interface Growth {
  readonly buckets: readonly GrowthBucket[];
  readonly sampled: number;
  readonly total: number;
  /** Least-squares slope of log(time) on log(size) over every compiled schema: 1 is linear. */
  readonly exponent: number;
  readonly width: Width;
}

export interface WidthPoint {
  readonly properties: number;
  readonly compileMs: number;
  readonly ajvMs: number;
}

export interface Width {
  readonly points: readonly WidthPoint[];
  /** Log-log slope of compile time on the number of properties: 1 is linear. */
  readonly exponent: number;
  readonly ajvExponent: number;
}

/**
 * One wide object, every property optional (each a presence-tagged member on
 * the wire): the shape of an MCP tool with many settings, compiled at request
 * time by the proxy. ajv compiling the same source is the baseline.
 */
export function runWidth(sizes: readonly number[], repeats: number): Width {
  const points: WidthPoint[] = [];
  for (const n of sizes) {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) properties[`setting_${i}`] = { type: "string", maxLength: 40 };
    const schema = { type: "object", properties, additionalProperties: false };
    const codec: number[] = [];
    const ajv: number[] = [];
    for (let r = 0; r < repeats; r++) {
      let t0 = performance.now();
      if (!compile(schema, { name: "wide" }).ok) throw new Error(`the ${n}-property object did not compile`);
      codec.push(performance.now() - t0);
      t0 = performance.now();
      baselineValidator(schema);
      ajv.push(performance.now() - t0);
    }
    points.push({ properties: n, compileMs: summarize(codec).median, ajvMs: summarize(ajv).median });
  }
  return {
    points,
    exponent: logLogSlope(points.map((p) => [p.properties, p.compileMs])),
    ajvExponent: logLogSlope(points.map((p) => [p.properties, p.ajvMs])),
  };
}

/** One compile per schema after a warm-up of the compiler; each schema's time is the median of `repeats` compiles. */
export function runGrowth(maxSchemas: number, repeats: number, widths: readonly number[]): Growth {
  const all = jsonSchemaBenchSubsets().flatMap((s) => loadJsonSchemaBench(s));
  const chosen = sample(all, maxSchemas, 21);
  // Warm the compiler (and ajv) on a few schemas first.
  for (const s of chosen.slice(0, 10)) safeCompile(s.schema);
  const points: { bytes: number; ms: number; ok: boolean }[] = [];
  let n = 0;
  for (const s of chosen) {
    const bytes = Buffer.byteLength(JSON.stringify(s.schema));
    const times: number[] = [];
    let ok = false;
    for (let r = 0; r < repeats; r++) {
      const t0 = performance.now();
      ok = safeCompile(s.schema);
      times.push(performance.now() - t0);
    }
    points.push({ bytes, ms: summarize(times).median, ok });
    if (++n % 250 === 0) progress(`  compile growth: ${n}/${chosen.length}`);
  }
  const buckets: GrowthBucket[] = [];
  for (const [label, lo, hi] of BUCKETS) {
    const inBucket = points.filter((p) => p.bytes >= lo && p.bytes < hi);
    const compiled = inBucket.filter((p) => p.ok);
    if (inBucket.length === 0) continue;
    buckets.push({
      bucket: label,
      schemas: compiled.length,
      refused: inBucket.length - compiled.length,
      medianKb: summarize(inBucket.map((p) => p.bytes / 1024)).median,
      msPerKb: summarize(compiled.map((p) => p.ms / (p.bytes / 1024))),
      msPerCompile: summarize(compiled.map((p) => p.ms)),
    });
  }
  const ok = points.filter((p) => p.ok);
  return {
    buckets,
    sampled: chosen.length,
    total: all.length,
    exponent: logLogSlope(ok.map((p) => [p.bytes, p.ms])),
    width: runWidth(widths, repeats),
  };
}

function safeCompile(schema: unknown): boolean {
  try {
    return compile(schema).ok;
  } catch {
    return false;
  }
}

export function renderCompile(fixtures: readonly FixtureCompile[], growth: Growth | undefined): string {
  const parts = [
    "## Compile",
    "",
    "Per fixture: compile (tagged) against ajv compiling the same source schema, interleaved; median over rounds (p25–p75).",
    "",
    table(
      [
        "fixture",
        "bytes",
        "ajv compile (source)",
        "strictwire compile",
        "compile ratio",
        "loadBundle ratio",
        "ajv compile of the wire, ratio",
      ],
      fixtures.map((f) => [
        f.id,
        f.bytes,
        fmtMs(f.ajvMs.median),
        fmtMs(f.compileMs.median),
        fmtSummary(f.ratio, 1),
        fmtSummary(f.loadRatio, 1),
        fmtSummary(f.wireRatio, 1),
      ]),
    ),
    "",
    `Over ajv compiling the source schema, geomean over ${fixtures.length} fixtures: compile ${geomean(fixtures.map((f) => f.ratio.median)).toFixed(1)}, loadBundle ${geomean(fixtures.map((f) => f.loadRatio.median)).toFixed(1)}, ajv compiling the wire schema alone ${geomean(fixtures.map((f) => f.wireRatio.median)).toFixed(1)}.`,
  ];
  if (growth !== undefined) {
    parts.push(
      "",
      `### Growth with schema size (JSONSchemaBench, ${growth.sampled} of ${growth.total} schemas, seeded sample)`,
      "",
      table(
        ["source size", "compiled", "refused", "median size", "ms per KB: median (p25–p75)", "ms per compile: median"],
        growth.buckets.map((b) => [
          b.bucket,
          b.schemas,
          b.refused,
          `${b.medianKb.toFixed(1)} KB`,
          fmtSummary(b.msPerKb, 2),
          b.msPerCompile.median.toFixed(2),
        ]),
      ),
      "",
      `Fitted exponent of time on size (log-log least squares over compiled schemas; 1 = linear): ${growth.exponent.toFixed(2)}.`,
      "",
      "### Growth with width (one object, every property optional)",
      "",
      table(
        ["properties", "strictwire compile", "ajv compile (source)"],
        growth.width.points.map((p) => [p.properties, fmtMs(p.compileMs), fmtMs(p.ajvMs)]),
      ),
      "",
      `Log-log slope of compile time on properties: strictwire ${growth.width.exponent.toFixed(2)}, ajv ${growth.width.ajvExponent.toFixed(2)} (1 = linear).`,
    );
  }
  return parts.join("\n");
}
