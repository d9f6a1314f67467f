/**
 * Runs fuzz targets for a number of cases or a time budget, shared among the
 * targets by weight, and reports what each ran and what it found.
 */
import fc from "fast-check";
import { Findings, repro } from "./findings.js";
import { buildPool, type PoolOptions } from "./pool.js";
import { type Runnable, TARGETS, type TargetContext } from "./targets.js";

export interface FuzzOptions {
  /** Total cases across the targets; ignored when timeMs is set. */
  readonly count?: number;
  /** Total time budget in milliseconds, shared by weight. */
  readonly timeMs?: number;
  readonly seed: number;
  /** Only these targets (by name); all when absent. */
  readonly targets?: readonly string[];
  /** A case slower than this is itself a finding (a hang in the making). */
  readonly slowMs: number;
  readonly pool: Omit<PoolOptions, "seed">;
  readonly log?: (line: string) => void;
}

export interface TargetRun {
  readonly name: string;
  readonly cases: number;
  readonly ms: number;
  readonly slowestMs: number;
}

export interface FuzzReport {
  readonly seed: number;
  readonly poolSize: number;
  readonly poolMs: number;
  readonly runs: readonly TargetRun[];
  readonly cases: number;
  readonly ms: number;
  readonly findings: Findings;
}

export function selectTargets(names?: readonly string[]): Runnable[] {
  if (names === undefined || names.length === 0) return [...TARGETS];
  const unknown = names.filter((n) => !TARGETS.some((t) => t.name === n));
  if (unknown.length > 0) throw new Error(`unknown fuzz target(s): ${unknown.join(", ")}`);
  return TARGETS.filter((t) => names.includes(t.name));
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const pool = buildPool({ ...options.pool, seed: options.seed });
  const poolMs = performance.now() - started;
  log(`pool: ${pool.length} codecs in ${(poolMs / 1000).toFixed(1)} s`);
  const findings = new Findings();
  const ctx: TargetContext = { pool, findings };
  const targets = selectTargets(options.targets);
  const totalWeight = targets.reduce((n, t) => n + t.weight, 0);
  const runs: TargetRun[] = [];

  for (const [index, target] of targets.entries()) {
    const share = target.weight / totalWeight;
    const numRuns =
      options.timeMs === undefined ? Math.max(1, Math.round((options.count ?? 1000) * share)) : 2 ** 31 - 1;
    let cases = 0;
    let slowestMs = 0;
    const t0 = performance.now();
    const property = target.property(ctx, (ms, input) => {
      cases++;
      if (ms > slowestMs) slowestMs = ms;
      if (ms > options.slowMs) {
        findings.record({
          target: target.name,
          signature: `a case took more than ${options.slowMs} ms`,
          detail: `${Math.round(ms)} ms`,
          repro: repro({ input: JSON.stringify(input)?.slice(0, 2000) }),
        });
      }
    });
    await fc.check(property, {
      numRuns,
      seed: options.seed + index,
      ...(options.timeMs !== undefined
        ? { interruptAfterTimeLimit: Math.max(1, Math.round(options.timeMs * share)), markInterruptAsFailure: false }
        : {}),
    });
    const ms = performance.now() - t0;
    runs.push({ name: target.name, cases, ms, slowestMs });
    log(`${target.name}: ${cases} cases in ${(ms / 1000).toFixed(1)} s (slowest ${slowestMs.toFixed(0)} ms)`);
  }

  const cases = runs.reduce((n, r) => n + r.cases, 0);
  return { seed: options.seed, poolSize: pool.length, poolMs, runs, cases, ms: performance.now() - started, findings };
}
