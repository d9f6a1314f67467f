/**
 * Statistics and the interleaved timing loop every speed comparison uses.
 *
 * A comparison runs several rounds. Each round is one tinybench Bench holding
 * every task (warm-up, then a time budget per task), the task order rotating
 * from round to round, so slow drifts of the machine hit every task alike.
 * Each task's median latency in a round is one sample; ratios are taken per
 * round (same round, same conditions) and summarised by their median and
 * quartiles across rounds.
 */
import { Bench } from "tinybench";

export interface Summary {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** Linear-interpolation quantile of already sorted numbers. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (pos - lo);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantileSorted(sorted, 0.5),
    p25: quantileSorted(sorted, 0.25),
    p75: quantileSorted(sorted, 0.75),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    n: sorted.length,
  };
}

export const median = (values: readonly number[]): number => summarize(values).median;

export function geomean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (const v of values) s += Math.log(v);
  return Math.exp(s / values.length);
}

/** "1.23 (1.10–1.31)": median with its interquartile range. */
/**
 * The least-squares slope of log(y) against log(x): the exponent of a power
 * law y = c·x^k (1 for linear growth, 2 for quadratic).
 */
export function logLogSlope(points: readonly (readonly [number, number])[]): number {
  const xs = points.map((p) => Math.log(p[0]));
  const ys = points.map((p) => Math.log(p[1]));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

export function fmtSummary(s: Summary, digits = 2): string {
  return `${s.median.toFixed(digits)} (${s.p25.toFixed(digits)}–${s.p75.toFixed(digits)})`;
}

/** A duration in milliseconds, in the unit that reads best. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(1)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

export interface TimedTask {
  readonly name: string;
  readonly fn: () => unknown;
}

export interface ComparisonOptions {
  readonly rounds: number;
  /** Time budget per task per round, in ms. */
  readonly timeMs: number;
  /** Warm-up budget per task per round, in ms. */
  readonly warmupMs: number;
  /** Each timed iteration runs a task this long at least (ms), batching calls, so timer overhead stays small. */
  readonly minIterationMs?: number;
}

export interface Comparison {
  readonly names: readonly string[];
  /** Per task: milliseconds per call, one sample per round. */
  readonly perCall: Readonly<Record<string, Summary>>;
  /** Per task: its time over the first task's time, one sample per round. */
  readonly ratio: Readonly<Record<string, Summary>>;
  /** Calls batched into one timed iteration, per task. */
  readonly batch: Readonly<Record<string, number>>;
}

// A place results go, so no call can be optimised away.
let sink: unknown;
export const consume = (v: unknown): void => {
  sink = v;
};
export const sunk = (): unknown => sink;

function batchSize(fn: () => unknown, minIterationMs: number): number {
  // A few calls to get past lazy compilation, then size the batch.
  for (let i = 0; i < 3; i++) consume(fn());
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) consume(fn());
    const dt = performance.now() - t0;
    if (dt >= minIterationMs || n >= 1 << 20) return n;
    n = dt <= 0 ? n * 8 : Math.max(n + 1, Math.ceil((n * minIterationMs * 1.2) / dt));
  }
}

export function compareInterleaved(tasks: readonly TimedTask[], options: ComparisonOptions): Comparison {
  const minIter = options.minIterationMs ?? 0.05;
  const batch: Record<string, number> = {};
  for (const t of tasks) batch[t.name] = batchSize(t.fn, minIter);
  const samples: Record<string, number[]> = {};
  const ratios: Record<string, number[]> = {};
  for (const t of tasks) {
    samples[t.name] = [];
    ratios[t.name] = [];
  }
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: options.timeMs,
      iterations: 5,
      warmup: true,
      warmupTime: options.warmupMs,
      warmupIterations: 3,
      throws: true,
    });
    const order = tasks.map((_, i) => tasks[(i + round) % tasks.length]!);
    for (const t of order) {
      const k = batch[t.name]!;
      const fn = t.fn;
      bench.add(t.name, () => {
        for (let i = 0; i < k; i++) consume(fn());
      });
    }
    bench.runSync();
    const perCall: Record<string, number> = {};
    for (const task of bench.tasks) {
      const r = task.result;
      if (r.state !== "completed") throw new Error(`benchmark task ${task.name} did not complete (${r.state})`);
      perCall[task.name] = r.latency.p50 / batch[task.name]!;
    }
    const base = perCall[tasks[0]!.name]!;
    for (const t of tasks) {
      samples[t.name]!.push(perCall[t.name]!);
      ratios[t.name]!.push(perCall[t.name]! / base);
    }
  }
  const perCall: Record<string, Summary> = {};
  const ratio: Record<string, Summary> = {};
  for (const t of tasks) {
    perCall[t.name] = summarize(samples[t.name]!);
    ratio[t.name] = summarize(ratios[t.name]!);
  }
  return { names: tasks.map((t) => t.name), perCall, ratio, batch };
}
