/**
 * JSONSchemaBench, every subset. Each schema compiles for openai with the
 * default openObjects "close"; when a valid instance is refused with
 * undeclared-member, the schema's instances run against a "preserve" compile
 * instead. Every valid instance must round-trip exactly, every invalid one
 * must be refused by encode. An instance on which the codec's own validator
 * (ajv, on the original schema) disagrees with the corpus label is counted as
 * "validator disagrees", apart from codec failures.
 */
import { join } from "node:path";
import type { Codec } from "@strictwire/codec";
import { type DepthSummary, emptyDepth, mergeDepth, recordDepth } from "./depth.js";
import {
  bump,
  type Crash,
  type Encoded,
  Examples,
  excerpt,
  isCrash,
  type RoundTrip,
  roundTrip,
  type Tally,
  tryCompile,
  tryEncode,
  verdict,
} from "./harness.js";
import { type CaseLog, listFiles, type ProgressSink, readJsonLines } from "./io.js";
import { describe } from "./jsts.js";
import { LIMIT_CODES } from "./limits.js";
import { emptyWireRules, mergeWireRules, recordWireRules, type WireRulesSummary } from "./wire-rules.js";

export interface SubsetSummary {
  schemas: number;
  compiled: number;
  refusedBy: Tally;
  crashed: number;
  withAnyFallback: number;
  preserveUsed: number;
  validInstances: number;
  roundTripped: number;
  invalidInstances: number;
  rejected: number;
  failed: number;
  beyondDecoderLimits: number;
  validatorDisagrees: { validRejected: number; invalidAccepted: number };
  instancesOfRefusedSchemas: number;
  /** Schemas whose valid instances need openObjects "preserve", where the preserve compile is refused. */
  preserveRefusedBy: Tally;
  instancesOfRefusedPreserve: number;
  seconds: number;
}

export interface JsbSummary extends SubsetSummary {
  subsets: Record<string, SubsetSummary>;
  unreadableLines: number;
  failures: unknown[];
  crashes: unknown[];
  refusalExamples: Record<string, unknown[]>;
  disagreementExamples: Record<string, unknown[]>;
  /** Compiled schemas by what sent a position to the any-JSON form: "keyword: reason". */
  anyFallbackCauses: Tally;
  slowestCompiles: { id: string; ms: number }[];
  /** Wire depth against source depth, over the default (close) compiles. */
  depth: DepthSummary;
  /** OpenAI rules beyond the limits (the first-key rule), over the default (close) compiles. */
  wireRules: WireRulesSummary;
}

function emptySubset(): SubsetSummary {
  return {
    schemas: 0,
    compiled: 0,
    refusedBy: {},
    crashed: 0,
    withAnyFallback: 0,
    preserveUsed: 0,
    validInstances: 0,
    roundTripped: 0,
    invalidInstances: 0,
    rejected: 0,
    failed: 0,
    beyondDecoderLimits: 0,
    validatorDisagrees: { validRejected: 0, invalidAccepted: 0 },
    instancesOfRefusedSchemas: 0,
    preserveRefusedBy: {},
    instancesOfRefusedPreserve: 0,
    seconds: 0,
  };
}

interface Line {
  id?: unknown;
  schema?: unknown;
  tests?: { valid?: unknown; data?: unknown; description?: unknown }[];
}

type Instance = { valid: boolean; data: unknown; index: number };

/** Which lines this run takes: line i of every subset when i % count === index. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export async function runJsb(
  corpora: string,
  log: CaseLog,
  progress: ProgressSink,
  shard: Shard = { index: 0, count: 1 },
): Promise<JsbSummary> {
  const dir = join(corpora, "jsonschemabench");
  const files = listFiles(dir, ".jsonl.gz");
  const total = emptySubset();
  const out = emptySummary();
  const refusals = new Examples<unknown>(5);
  const disagreements = new Examples<unknown>(5);
  const slow: { id: string; ms: number }[] = [];

  // The codec returning while a promise of its own rejects later is a bug too: counted as a crash of the schema at hand.
  let current: { id: string; subset: SubsetSummary; rejected?: boolean } | undefined;
  const onRejection = (reason: unknown): void => {
    const message = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    // One crashed schema however many promises it left behind; every message is kept.
    if (current !== undefined && current.rejected !== true) {
      current.subset.crashed++;
      current.rejected = true;
    }
    out.crashes.push({ id: current?.id, stage: "unhandled promise rejection", message });
    process.stderr.write(`conformance: CRASH (unhandled promise rejection) at ${current?.id}: ${message}\n`);
  };
  process.on("unhandledRejection", onRejection);

  for (const file of files) {
    const subset = file.replace(/\.jsonl\.gz$/, "");
    const started = performance.now();
    const s = emptySubset();
    out.subsets[subset] = s;
    const lines = readJsonLines(join(dir, file));
    const one = (entry: (typeof lines)[number], lineIndex: number): void => {
      progress.update(`JSONSchemaBench ${subset}`, lineIndex, lines.length);
      if (!entry.ok) {
        out.unreadableLines++;
        log.write({ corpus: "jsb", subset, line: entry.line, outcome: "unreadable", error: entry.error });
        return;
      }
      const line = entry.value as Line;
      const id = typeof line.id === "string" ? line.id : `${subset}#${lineIndex}`;
      current = { id, subset: s };
      const instances: Instance[] = (Array.isArray(line.tests) ? line.tests : []).map((t, index) => ({
        valid: t.valid === true,
        data: t.data,
        index,
      }));
      s.schemas++;

      const crashed = (where: Record<string, unknown>, crash: Crash): void => {
        s.crashed++;
        out.crashes.push({ id, ...where, ...crash });
        process.stderr.write(
          `conformance: CRASH in ${crash.stage} at ${id} ${JSON.stringify(where)}: ${crash.message}\n`,
        );
      };

      const close = tryCompile(line.schema, {});
      slow.push({ id, ms: close.ms });
      recordDepth(out.depth, id, line.schema, close);
      recordWireRules(out.wireRules, id, close);
      if (close.kind === "refused") {
        bump(s.refusedBy, close.code);
        s.instancesOfRefusedSchemas += instances.length;
        refusals.add(close.code, { id, path: close.path, message: excerpt(close.message, 300) });
        log.write({
          corpus: "jsb",
          subset,
          id,
          outcome: "refused",
          code: close.code,
          path: close.path,
          message: close.message,
        });
        return;
      }
      if (close.kind === "crashed") {
        crashed({ stage: "compile" }, close.crash);
        log.write({ corpus: "jsb", subset, id, outcome: "crashed", crash: close.crash });
        return;
      }
      s.compiled++;
      if (close.anyFallbacks.length > 0) {
        s.withAnyFallback++;
        const causes = close.anyFallbacks.filter((f) => f.cause !== undefined).map((f) => `${f.keyword}: ${f.cause}`);
        for (const k of new Set(causes)) bump(out.anyFallbackCauses, k);
      }
      log.write({
        corpus: "jsb",
        subset,
        id,
        outcome: "compiled",
        anyFallbacks: close.anyFallbacks.length,
        ms: close.ms,
      });

      // Verdicts first: they decide which instances the codec is held to.
      const considered: Instance[] = [];
      for (const inst of instances) {
        const v = verdict(close.codec, inst.data);
        if (isCrash(v)) {
          crashed({ instance: inst.index }, v);
          s.failed++;
          continue;
        }
        if (v !== inst.valid) {
          if (inst.valid) s.validatorDisagrees.validRejected++;
          else s.validatorDisagrees.invalidAccepted++;
          disagreements.add(inst.valid ? "validRejected" : "invalidAccepted", {
            id,
            instance: inst.index,
            data: excerpt(inst.data, 160),
          });
          log.write({
            corpus: "jsb",
            subset,
            id,
            instance: inst.index,
            valid: inst.valid,
            outcome: "validator-disagrees",
          });
          continue;
        }
        considered.push(inst);
      }

      type Result = { inst: Instance; rt?: RoundTrip; enc?: Encoded };
      const attempt = (codec: Codec): Result[] =>
        considered.map((inst) =>
          inst.valid ? { inst, rt: roundTrip(codec, inst.data) } : { inst, enc: tryEncode(codec, inst.data) },
        );
      let mode = "close";
      let results = attempt(close.codec);
      if (results.some((r) => r.rt?.kind === "refused" && r.rt.code === "undeclared-member")) {
        const preserve = tryCompile(line.schema, { openObjects: "preserve" });
        if (preserve.kind === "compiled") {
          mode = "preserve";
          s.preserveUsed++;
          results = attempt(preserve.codec);
        } else if (preserve.kind === "crashed") {
          crashed({ stage: "compile", openObjects: "preserve" }, preserve.crash);
        } else {
          // The schema cannot be carried under the policy its instances need: like a refused schema,
          // its instances are not held to either compile, and are counted apart.
          bump(s.preserveRefusedBy, preserve.code);
          s.instancesOfRefusedPreserve += results.length;
          refusals.add(`preserve: ${preserve.code}`, {
            id,
            path: preserve.path,
            message: excerpt(preserve.message, 300),
          });
          log.write({
            corpus: "jsb",
            subset,
            id,
            outcome: "preserve-refused",
            code: preserve.code,
            message: preserve.message,
          });
          return;
        }
      }

      for (const { inst, rt, enc } of results) {
        const at = { id, instance: inst.index, valid: inst.valid, mode };
        if (rt !== undefined) {
          if (rt.kind === "refused" && LIMIT_CODES.has(rt.code)) {
            // Refused cleanly at encode because the decoder could not read it back: a limit, listed apart.
            s.beyondDecoderLimits++;
            log.write({ corpus: "jsb", subset, ...at, outcome: "beyond-decoder-limits", code: rt.code });
            continue;
          }
          s.validInstances++;
          if (rt.kind === "round-tripped") {
            s.roundTripped++;
            log.write({ corpus: "jsb", subset, ...at, outcome: "round-tripped" });
            continue;
          }
          if (rt.kind === "crashed") crashed({ instance: inst.index }, rt.crash);
          s.failed++;
          const failure = { subset, ...at, data: excerpt(inst.data, 300), ...describe(rt) };
          out.failures.push(failure);
          log.write({ corpus: "jsb", ...failure, outcome: "failed" });
          continue;
        }
        s.invalidInstances++;
        if (enc?.kind === "refused") {
          s.rejected++;
          log.write({ corpus: "jsb", subset, ...at, outcome: "rejected", code: enc.code });
          continue;
        }
        if (enc?.kind === "crashed") crashed({ instance: inst.index }, enc.crash);
        s.failed++;
        const failure = { subset, ...at, data: excerpt(inst.data, 300), result: "encode accepted an invalid instance" };
        out.failures.push(failure);
        log.write({ corpus: "jsb", ...failure, outcome: "failed" });
      }
    };
    for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
      if (lineIndex % shard.count !== shard.index) continue;
      one(lines[lineIndex]!, lineIndex);
      // A turn of the event loop per schema, so a promise the codec left rejected surfaces here, for this schema.
      await new Promise((resume) => setImmediate(resume));
    }
    progress.clear();
    s.seconds = Math.round((performance.now() - started) / 100) / 10;
    addInto(total, s);
  }
  process.off("unhandledRejection", onRejection);
  Object.assign(out, total);
  out.refusalExamples = refusals.toJSON();
  out.disagreementExamples = disagreements.toJSON();
  out.slowestCompiles = slow
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .map((x) => ({ id: x.id, ms: Math.round(x.ms) }));
  return out;
}

function addInto(total: SubsetSummary, s: SubsetSummary): void {
  for (const key of Object.keys(s) as (keyof SubsetSummary)[]) {
    const v = s[key];
    if (typeof v === "number") (total[key] as number) += v;
  }
  for (const [code, n] of Object.entries(s.refusedBy)) bump(total.refusedBy, code, n);
  for (const [code, n] of Object.entries(s.preserveRefusedBy)) bump(total.preserveRefusedBy, code, n);
  total.validatorDisagrees.validRejected += s.validatorDisagrees.validRejected;
  total.validatorDisagrees.invalidAccepted += s.validatorDisagrees.invalidAccepted;
}

function emptySummary(): JsbSummary {
  return {
    ...emptySubset(),
    subsets: {},
    unreadableLines: 0,
    failures: [],
    crashes: [],
    refusalExamples: {},
    disagreementExamples: {},
    anyFallbackCauses: {},
    slowestCompiles: [],
    depth: emptyDepth(),
    wireRules: emptyWireRules(),
  };
}

/** Add up the summaries of shards of one run. */
export function mergeJsb(parts: readonly JsbSummary[]): JsbSummary {
  const out = emptySummary();
  for (const part of parts) {
    addInto(out, part);
    for (const [name, sub] of Object.entries(part.subsets)) {
      out.subsets[name] ??= emptySubset();
      addInto(out.subsets[name], sub);
    }
    out.unreadableLines += part.unreadableLines;
    out.failures.push(...part.failures);
    out.crashes.push(...part.crashes);
    for (const [k, n] of Object.entries(part.anyFallbackCauses)) bump(out.anyFallbackCauses, k, n);
    for (const key of ["refusalExamples", "disagreementExamples"] as const) {
      for (const [kind, list] of Object.entries(part[key]))
        out[key][kind] = [...(out[key][kind] ?? []), ...list].slice(0, 5);
    }
    out.slowestCompiles.push(...part.slowestCompiles);
    mergeDepth(out.depth, part.depth);
    mergeWireRules(out.wireRules, part.wireRules);
  }
  out.subsets = Object.fromEntries(Object.entries(out.subsets).sort(([a], [b]) => a.localeCompare(b)));
  out.slowestCompiles = out.slowestCompiles.sort((a, b) => b.ms - a.ms).slice(0, 10);
  return out;
}
