/**
 * strictwire benchmarks.
 *
 *   pnpm bench                      every section, tables on stdout (progress on stderr)
 *   pnpm bench --quick              a reduced set (well under two minutes)
 *   pnpm bench --quick --json       the reduced set, ONE JSON object on stdout
 *   pnpm bench --only parse,decode  some sections (decode, encode, parse, streaming, stream-scaling,
 *                                   stream-pipeline, compile,
 *                                   growth, coldstart, memory, expansion, arguments, comparison,
 *                                   classify, bundle, wire-check, hostile)
 *   pnpm bench --only classify      classify at log scale: 10 MB, 100 MB and 1 GB of generated
 *                                   logs (--quick: 10 MB only), one worker and every CPU
 *   pnpm bench --out FILE           also write every figure as JSON to FILE (bench/results/ is git-ignored)
 *   pnpm bench --jsb N              JSONSchemaBench schemas sampled for the comparison (default 1500)
 *
 * Speed figures are ratios measured in one process, interleaved (see stats.ts);
 * absolute times are printed beside them for orientation only.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { type FileError, writeFileAtomic, writeTarget } from "@strictwire/codec/files";
import { FULL_CASES, loadCases, QUICK_CASES } from "./cases.js";
import { progress, setQuiet } from "./format.js";
import { preparePeers } from "./peers.js";
import { renderAiSdkStream, runAiSdkStream } from "./sections/ai-sdk-stream.js";
import { argumentsJson, renderArguments, runArguments } from "./sections/arguments.js";
import { renderBundleSizes, runBundleSizes } from "./sections/bundle.js";
import { CLASSIFY_GOALS, CLASSIFY_SIZES, renderClassify, runClassifyScale } from "./sections/classify.js";
import {
  comparisonJson,
  loadBenchCorpus,
  loadBfclCorpus,
  loadMcpCorpus,
  renderComparison,
  runComparison,
} from "./sections/comparison.js";
import { renderCompile, runFixtureCompile, runGrowth } from "./sections/compile.js";
import { renderDecode, renderEncode, runDecode, runEncode } from "./sections/decode.js";
import { expansionInputs, MODES, renderExpansion, runExpansion } from "./sections/expansion.js";
import { HOSTILE_GOAL, renderHostile, runHostile } from "./sections/hostile.js";
import { PARSE_SIZES, renderParse, runParse } from "./sections/parse.js";
import { renderColdStart, renderMemory, runColdStart, runMemory } from "./sections/process.js";
import { renderStreamPipeline, runStreamPipeline } from "./sections/stream-pipeline.js";
import { renderStreamScaling, runStreamScaling, SCALING_GOAL } from "./sections/stream-scaling.js";
import {
  FLOOR_GOALS,
  renderStreamDecoder,
  renderStreaming,
  runStreamDecoder,
  runStreaming,
} from "./sections/streaming.js";
import { renderWireCheck, runWireCheck } from "./sections/wire-check.js";
import type { ComparisonOptions } from "./stats.js";

export const GOALS = {
  decodeVsBaseline: 1.5,
  parseVsJsonParse1MB: 2.5,
  taggedTokens: 3.5,
  compactTokens: 2.0,
  // Issue 19: decode over the floor (JSON.parse of the wire text + the same validation), geomeans over the calls.
  decodeVsFloor: 1.25,
  // Issue 19: the tokens the model writes, BFCL ground-truth calls, ratio of means to the source.
  taggedArgumentTokens: 1.7,
  compactArgumentTokens: 1.25,
  // Issue 28: streaming a call in deltas of 1-8 characters over one parse of the whole text.
  streamingVsParse: 2.0,
  // Issue 42: total time of a stream in one-character deltas against its length, log-log slope.
  streamScalingSlope: SCALING_GOAL,
  // Issue 9: a hostile input's refusal, its time at two sizes, log-log slope (the tests check only the codes).
  hostileSlope: HOSTILE_GOAL,
};

const SECTIONS = [
  "decode",
  "encode",
  "parse",
  "streaming",
  "stream-scaling",
  "stream-pipeline",
  "compile",
  "growth",
  "coldstart",
  "memory",
  "expansion",
  "arguments",
  "comparison",
  "classify",
  "bundle",
  "wire-check",
  "hostile",
];
const QUICK_SECTIONS = [
  "decode",
  "parse",
  "streaming",
  "stream-scaling",
  "compile",
  "coldstart",
  "expansion",
  "arguments",
  "classify",
  "bundle",
];

interface Args {
  quick: boolean;
  json: boolean;
  only: string[] | undefined;
  out: string | undefined;
  jsb: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { quick: false, json: false, only: undefined, out: undefined, jsb: 1500 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--quick") args.quick = true;
    else if (flag === "--json") args.json = true;
    else if (flag === "--only") args.only = value().split(",");
    else if (flag === "--out") args.out = value();
    else if (flag === "--jsb") args.jsb = Number(value());
    else if (flag === "--") continue;
    else throw new Error(`unknown argument ${a} (see bench/src/main.ts)`);
  }
  for (const s of args.only ?? []) if (!SECTIONS.includes(s)) throw new Error(`unknown section ${s}`);
  return args;
}

export function machine(): Record<string, string | number> {
  let cpu = "unknown";
  try {
    cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpu;
  } catch {}
  return {
    nproc: availableParallelism(),
    cpu,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.json) {
    // Stdout carries exactly one JSON object: anything a library logs goes to stderr.
    console.log = console.error;
    console.info = console.error;
    console.warn = console.error;
    setQuiet(true);
  }
  if (args.out !== undefined) {
    // Refused before the run, not after it: the file is replaced only if it is a regular one (or absent).
    const target = writeTarget(args.out);
    if (!target.ok) return refuseOutput(target.error);
  }
  const sections = new Set(args.only ?? (args.quick ? QUICK_SECTIONS : SECTIONS));
  const timing: ComparisonOptions = args.quick
    ? { rounds: 3, timeMs: 40, warmupMs: 10 }
    : { rounds: 7, timeMs: 120, warmupMs: 40 };
  const out: Record<string, unknown> = {
    machine: machine(),
    quick: args.quick,
    command: process.argv.slice(2).join(" "),
  };
  const print = (text: string): void => {
    if (!args.json) process.stdout.write(`${text}\n\n`);
  };
  const m = out.machine as Record<string, unknown>;
  print(
    `# strictwire bench${args.quick ? " (quick)" : ""}\n\n${m.date} · node ${m.node} · ${m.nproc} CPUs (${m.cpu}) · ${m.memoryGiB} GiB`,
  );

  let loaded: ReturnType<typeof loadCases> | undefined;
  const benchCases = (): ReturnType<typeof loadCases> => {
    loaded ??= loadCases(args.quick ? QUICK_CASES : FULL_CASES);
    return loaded;
  };

  if (sections.has("decode") || sections.has("encode")) {
    const cases = benchCases();
    if (sections.has("decode")) {
      progress(`decode: ${cases.length} schemas...`);
      const r = runDecode(cases, timing, await preparePeers(cases));
      print(renderDecode(r));
      const all = r.tagged.find((s) => s.set === "all")!;
      const allCompact = r.compact.find((s) => s.set === "all")!;
      out.decodeVsBaseline = all.geomean;
      out.decodeVsBaselineCompact = allCompact.geomean;
      out.decodeReferences = {
        sameValidator: r.sameValidator.find((s) => s.set === "all")!.geomean,
        floor: r.floor.find((s) => s.set === "all")!.geomean,
        strictFloor: r.strictFloor.find((s) => s.set === "all")!.geomean,
      };
      if (r.peers !== undefined) {
        // Ratios to the same baseline as decodeVsBaseline, each over the calls the peer represents.
        out.decodePeers = { agentsCore: r.peers.agentsCore.geomean, mastra: r.peers.mastra.geomean };
        out.decodePeersDetail = r.peers;
      }
      out.decode = {
        cases: r.cases.length,
        tagged: r.tagged,
        compact: r.compact,
        perCase: r.cases.map((c) => ({
          set: c.set,
          id: c.id,
          bytes: c.bytes,
          tagged: c.tagged,
          compact: c.compact,
          sameValidator: c.sameValidator.median,
          floor: c.floor.median,
          strictFloor: c.strictFloor.median,
          baselineMs: c.baselineMs.median,
          peers: Object.fromEntries(Object.entries(c.peers).map(([p, r]) => [p, r.median])),
        })),
      };
    }
    if (sections.has("encode")) {
      progress("encode...");
      const e = runEncode(cases, timing);
      print(renderEncode(e));
      out.encode = e.map((x) => ({ set: x.set, id: x.id, ratio: x.ratio, encodeMs: x.encodeMs.median }));
    }
  }

  if (sections.has("parse")) {
    progress("parse...");
    const r = runParse(args.quick ? PARSE_SIZES.filter(([label]) => label !== "64 KB") : PARSE_SIZES, timing);
    print(renderParse(r));
    out.parseVsJsonParse = r.bySize["1 MB"];
    out.parseVsJsonParseBySize = r.bySize;
    out.parse = r.rows.map((x) => ({
      size: x.label,
      shape: x.shape,
      bytes: x.bytes,
      ratio: x.ratio,
      secure: x.secureRatio,
    }));
  }

  if (sections.has("streaming")) {
    progress("streaming...");
    const r = runStreaming(benchCases(), timing);
    print(renderStreaming(r));
    out.streaming = {
      calls: r.calls.stream.median,
      callsPushOnly: r.calls.pushOnly.median,
      large: r.largeStream,
      largePushOnly: r.largePushOnly,
      callsFloor: r.calls.floor.median,
      largeFloor: r.largeFloor,
      rows: [r.calls, ...r.large].map((x) => ({
        texts: x.label,
        count: x.texts,
        bytes: x.bytes,
        deltas: x.deltas,
        parseJsonMs: x.parseJson.median,
        stream: x.stream,
        pushOnly: x.pushOnly,
        floor: x.floor,
      })),
    };
    const d = await runStreamDecoder(benchCases(), timing);
    print(renderStreamDecoder(d));
    out.streamDecoder = {
      calls: d.calls.stream.median,
      callsPushOnly: d.calls.pushOnly.median,
      large: d.largeStream,
      largePushOnly: d.largePushOnly,
      rows: [d.calls, ...d.large].map((x) => ({
        texts: x.label,
        count: x.texts,
        bytes: x.bytes,
        deltas: x.deltas,
        decodeMs: x.decode.median,
        stream: x.stream,
        pushOnly: x.pushOnly,
        parserOnly: x.parserOnly,
        jsScan: x.jsScan,
        perPushMs: x.perPush,
        floor: x.floor,
      })),
      largeFloor: d.largeFloor,
      callsVsFloor: d.callsVsFloor,
      largeVsFloor: d.largeVsFloor,
      anyJsonVsFloor: d.anyJsonVsFloor,
      callsAiSdkPartial: d.callsAiSdkPartial.median,
    };
    const a = runAiSdkStream(benchCases(), timing);
    print(renderAiSdkStream(a));
    out.aiSdkStream = a.map((x) => ({
      texts: x.label,
      count: x.texts,
      bytes: x.bytes,
      deltas: x.deltas,
      decodeMs: x.decode.median,
      transform: x.transform,
      decoder: x.decoder,
    }));
  }

  if (sections.has("compile") || sections.has("growth")) {
    progress("compile...");
    const fixtures = sections.has("compile")
      ? runFixtureCompile(
          args.quick ? { rounds: 3, timeMs: 30, warmupMs: 10 } : { rounds: 5, timeMs: 150, warmupMs: 30 },
          args.quick ? 6 : Number.POSITIVE_INFINITY,
        )
      : [];
    const growth = sections.has("growth")
      ? runGrowth(
          args.quick ? 200 : 2000,
          args.quick ? 1 : 3,
          args.quick ? [25, 50, 100] : [25, 50, 100, 200, 400, 800],
        )
      : undefined;
    print(renderCompile(fixtures, growth));
    out.compile = {
      fixtures: fixtures.map((f) => ({
        id: f.id,
        bytes: f.bytes,
        ms: f.compileMs.median,
        vsAjv: f.ratio,
        loadVsAjv: f.loadRatio,
        wireVsAjv: f.wireRatio,
      })),
      ...(growth !== undefined ? { growth } : {}),
    };
  }

  if (sections.has("coldstart")) {
    progress("cold start...");
    const r = runColdStart(
      args.quick ? 3 : 15,
      args.quick
        ? ["github-create-issue-mcp"]
        : ["github-create-issue-mcp", "create-shipment-refs", "book-delivery-relaxed-objects"],
    );
    print(renderColdStart(r));
    out.coldStart = {
      dist: r.dist,
      moduleVariant: r.moduleVariant,
      rows: r.rows.map((x) => ({ schema: x.schema, codec: x.codec, baseline: x.baseline, ratio: x.ratio })),
    };
  }

  if (sections.has("memory")) {
    progress("memory...");
    const r = runMemory(args.quick ? 2 : 5);
    print(renderMemory(r));
    out.memory = r;
  }

  if (sections.has("expansion")) {
    progress("expansion...");
    const inputs = expansionInputs(
      args.quick
        ? { fixtures: true, bfcl: 40, mcp: 20 }
        : { fixtures: true, bfcl: Number.POSITIVE_INFINITY, mcp: Number.POSITIVE_INFINITY },
    );
    const r = runExpansion(inputs, !args.quick);
    print(renderExpansion(r));
    const headline: Record<string, { bytes: number; tokens: number }> = {};
    const medians: Record<string, { bytes: number; tokens: number }> = {};
    for (const mode of MODES) {
      headline[mode] = { bytes: r.all[mode].bytes.aggregate, tokens: r.all[mode].tokens.aggregate };
      medians[mode] = { bytes: r.all[mode].bytes.perSchema.median, tokens: r.all[mode].tokens.perSchema.median };
    }
    out.expansion = headline;
    out.expansionMedian = medians;
    out.expansionDetail = {
      schemas: r.run.items.length,
      refused: r.run.refused,
      bySet: r.bySet,
      ...(r.attribution !== undefined ? { attribution: r.attribution, proposals: r.proposals } : {}),
    };
  }

  if (sections.has("arguments")) {
    progress("argument tokens...");
    const r = runArguments(
      args.quick ? { bfcl: 400, mcp: 20 } : { bfcl: Number.POSITIVE_INFINITY, mcp: Number.POSITIVE_INFINITY },
      true,
    );
    print(renderArguments(r));
    Object.assign(out, argumentsJson(r));
  }

  if (sections.has("comparison")) {
    progress("comparison: loading corpora...");
    const corpora = [
      loadBfclCorpus(args.quick ? 40 : Number.POSITIVE_INFINITY),
      loadMcpCorpus(args.quick ? 30 : Number.POSITIVE_INFINITY),
      loadBenchCorpus(args.quick ? 60 : args.jsb),
    ];
    const r = await runComparison(corpora);
    print(renderComparison(r));
    out.comparison = comparisonJson(r);
  }

  if (sections.has("classify")) {
    progress("classify at log scale...");
    const r = runClassifyScale(args.quick ? CLASSIFY_SIZES.slice(0, 1) : CLASSIFY_SIZES);
    print(renderClassify(r));
    out.classify = r;
  }

  if (sections.has("bundle")) {
    progress("browser bundle sizes...");
    const r = runBundleSizes();
    print(renderBundleSizes(r));
    out.bundleSize = r;
  }

  if (sections.has("wire-check")) {
    progress("a module's wire check, interpreted vs generated...");
    // --quick: the fixture the browser bundle measures, alone.
    const r = runWireCheck(timing, args.quick ? ["create-event-recurrence"] : undefined);
    print(renderWireCheck(r));
    out.wireCheck = r;
  }

  if (sections.has("stream-scaling")) {
    progress("stream-scaling...");
    // Fifteen rounds: the least of fewer still caught a shared host's load on the longest texts (slopes moved by ±0.1).
    const r = runStreamScaling(args.quick ? 3 : 15);
    print(renderStreamScaling(r));
    out.streamScaling = {
      goal: r.goal,
      slopes: Object.fromEntries(r.rows.map((row) => [row.key, row.slope])),
      overFloorGoal: r.overFloorGoal,
      overFloor: Object.fromEntries(r.rows.map((row) => [row.key, row.overFloor])),
      rows: r.rows.map((row) => ({
        texts: row.label,
        slope: row.slope,
        points: row.points,
        floorSlope: row.floorSlope,
        floorPoints: row.floorPoints,
        overFloor: row.overFloor,
      })),
    };
  }

  if (sections.has("stream-pipeline")) {
    progress("stream-pipeline...");
    const r = runStreamPipeline(benchCases(), timing);
    print(renderStreamPipeline(r));
    out.streamPipeline = {
      decodeMs: r.decode.median,
      rows: r.rows.map((x) => ({
        api: x.api,
        events: x.events,
        bytes: x.bytes,
        floor: x.floor,
        decoder: x.decoder,
        streamCalls: x.streamCalls,
        vsFloor: x.vsFloor,
        addedPerEventMs: x.addedPerEvent,
      })),
    };
  }

  if (sections.has("hostile")) {
    progress("hostile inputs, each at two sizes...");
    const r = runHostile(timing);
    print(renderHostile(r));
    out.hostile = {
      goal: r.goal,
      slopes: Object.fromEntries(r.rows.map((row) => [row.key, row.slope])),
      rows: r.rows.map((row) => ({
        group: row.group,
        key: row.key,
        label: row.label,
        code: row.code,
        unit: row.unit,
        sizes: row.sizes,
        ms: row.ms.map((s) => s.median),
        ratio: row.ratio,
        slope: row.slope,
      })),
    };
  }

  const goals: Record<string, boolean> = {};
  if (typeof out.decodeVsBaseline === "number") goals.decode = out.decodeVsBaseline <= GOALS.decodeVsBaseline;
  const references = out.decodeReferences as { floor: number } | undefined;
  if (typeof out.decodeVsBaseline === "number" && references !== undefined) {
    goals.decodeVsFloorTagged = out.decodeVsBaseline / references.floor <= GOALS.decodeVsFloor;
    goals.decodeVsFloorCompact = (out.decodeVsBaselineCompact as number) / references.floor <= GOALS.decodeVsFloor;
  }
  if (typeof out.parseVsJsonParse === "number") goals.parse1MB = out.parseVsJsonParse <= GOALS.parseVsJsonParse1MB;
  const streaming = out.streaming as { calls: number; large: number } | undefined;
  if (streaming !== undefined) {
    goals.streamingCalls = streaming.calls <= GOALS.streamingVsParse;
    goals.streaming100KB = streaming.large <= GOALS.streamingVsParse;
  }
  const streamDecoder = out.streamDecoder as
    | { callsVsFloor: number; largeVsFloor: number; anyJsonVsFloor: number }
    | undefined;
  if (streamDecoder !== undefined) {
    // Issue 42: against the floor (receive the deltas, then decode once), not one decode.
    goals.streamDecoderCallsVsFloor = streamDecoder.callsVsFloor <= FLOOR_GOALS.calls;
    goals.streamDecoder100KBVsFloor = streamDecoder.largeVsFloor <= FLOOR_GOALS.large;
    goals.streamDecoderAnyJsonVsFloor = streamDecoder.anyJsonVsFloor <= FLOOR_GOALS.anyJson;
  }
  const scaling = out.streamScaling as
    | { slopes: Record<string, number>; overFloor: Record<string, number>; overFloorGoal: number }
    | undefined;
  if (scaling !== undefined) {
    for (const [key, slope] of Object.entries(scaling.slopes))
      goals[`streamScaling${key[0]!.toUpperCase()}${key.slice(1)}`] = slope <= GOALS.streamScalingSlope;
    // Beside the issue's goal, not in its place: the slope of stream / floor in the same rounds.
    goals.streamScalingOverFloor = Object.values(scaling.overFloor).every((x) => x <= scaling.overFloorGoal);
  }
  const hostile = out.hostile as { slopes: Record<string, number> } | undefined;
  if (hostile !== undefined)
    goals.hostileLinear = Object.values(hostile.slopes).every((slope) => slope <= GOALS.hostileSlope);
  const exp = out.expansion as Record<string, { tokens: number }> | undefined;
  if (exp !== undefined) {
    goals.taggedTokens = exp.tagged!.tokens <= GOALS.taggedTokens;
    goals.compactTokens = exp.compact!.tokens <= GOALS.compactTokens;
  }
  const argumentTokens = out.argumentTokens as Record<string, number> | undefined;
  if (argumentTokens !== undefined) {
    goals.taggedArgumentTokens = argumentTokens.tagged! <= GOALS.taggedArgumentTokens;
    goals.compactArgumentTokens = argumentTokens.compact! <= GOALS.compactArgumentTokens;
  }
  const classify = out.classify as ReturnType<typeof runClassifyScale> | undefined;
  if (classify !== undefined) {
    goals.classifyPeakRss = classify.peakRssMB < CLASSIFY_GOALS.peakRssMB;
    // Per core: calls per CPU-second on one worker, which other work on the machine does not change.
    goals.classifyPerCore = classify.callsPerCpuSecondOneWorker >= CLASSIFY_GOALS.callsPerSecondPerCore;
    if (classify.cores > 1) goals.classifyScaling = classify.scaling >= CLASSIFY_GOALS.scaling;
  }
  const bundleSize = out.bundleSize as ReturnType<typeof runBundleSizes> | undefined;
  if (bundleSize !== undefined) goals.browserBundle = bundleSize.noPattern.gzip <= bundleSize.goal;
  out.goals = { targets: { ...GOALS, classify: CLASSIFY_GOALS }, met: goals };
  print(
    `## Goals\n\n${Object.entries(goals)
      .map(([k, v]) => `- ${k}: ${v ? "met" : "NOT met"}`)
      .join("\n")}`,
  );
  if (args.out !== undefined) {
    const written = writeFileAtomic(args.out, `${JSON.stringify(out, null, 2)}\n`);
    if (!written.ok) return refuseOutput(written.error);
  }
  if (args.json) process.stdout.write(`${JSON.stringify(out)}\n`);
}

function refuseOutput(error: FileError): void {
  process.stderr.write(`bench: ${error.path}: ${error.code}: ${error.message}\n`);
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
