/**
 * classify at log scale (issue 33): calls per second and peak resident
 * memory of the built CLI classifying generated logs of 10 MB, 100 MB and
 * 1 GB of JSON lines, on one worker and on every CPU. The log is generated
 * to a temporary file and streamed; each run is a child process, whose peak
 * RSS (getrusage, every thread included) it reports itself.
 *
 * A log of fewer records than the classifier's WORKERS_AFTER (the 10 MB
 * log) starts no workers, so its two rows differ only by noise.
 *
 * The generated calls are like a service's: Responses-API responses, three
 * strict tools declared, one call each and now and then two, mostly
 * dispatchable, with a share of schema violations, unparseable arguments,
 * unknown tools and cut-off responses.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("../children/classify.mjs", import.meta.url));
const CLI_MAIN = fileURLToPath(new URL("../../../packages/cli/dist/main.js", import.meta.url));

export const CLASSIFY_SIZES: readonly (readonly [string, number])[] = [
  ["10 MB", 10 * 1000 * 1000],
  ["100 MB", 100 * 1000 * 1000],
  ["1 GB", 1000 * 1000 * 1000],
];

export const CLASSIFY_GOALS = {
  /** Peak RSS at the largest log, MB. */
  peakRssMB: 300,
  callsPerSecondPerCore: 30_000,
  /** Every CPU over one worker, calls per second, at the largest log. */
  scaling: 1.5,
};

const TOOLS = [
  {
    type: "function",
    name: "charge",
    strict: true,
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["account_id", "amount_cents", "currency", "memo"],
      properties: {
        account_id: { type: "string" },
        amount_cents: { type: "integer" },
        currency: { type: "string", enum: ["usd", "eur", "gbp"] },
        memo: { type: ["string", "null"] },
      },
    },
  },
  {
    type: "function",
    name: "search_orders",
    strict: true,
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["query", "limit", "status"],
      properties: {
        query: { type: "string" },
        limit: { type: "integer" },
        status: { type: "array", items: { type: "string", enum: ["open", "shipped", "returned"] } },
      },
    },
  },
  {
    type: "function",
    name: "get_weather",
    strict: true,
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["city", "unit"],
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
    },
  },
];

/** A small deterministic generator, so every run classifies the same log. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function argumentsFor(name: string, n: number, roll: number): string {
  if (roll < 0.01) return '{"account_id": "acct_1", "amount_cents": 12'; // cut off or malformed
  if (name === "charge") {
    const amount = roll < 0.05 ? `"${n}"` : String(n % 100000);
    return `{"account_id":"acct_${n}","amount_cents":${amount},"currency":"usd","memo":${n % 3 === 0 ? "null" : `"order ${n}"`}}`;
  }
  if (name === "search_orders") return `{"query":"customer ${n} order","limit":${n % 50},"status":["open","shipped"]}`;
  return `{"city":"City ${n % 997}","unit":"${n % 2 === 0 ? "c" : "f"}"}`;
}

/** One stored response as a JSON line, and the calls it holds. */
function responseLine(n: number, next: () => number): [string, number] {
  const calls = next() < 0.1 ? 2 : 1;
  const cut = next() < 0.005;
  const output = [];
  for (let c = 0; c < calls; c++) {
    const roll = next();
    const name = roll > 0.995 ? "refund" : TOOLS[Math.floor(next() * TOOLS.length)]!.name;
    output.push({
      type: "function_call",
      id: `fc_${n}_${c}`,
      call_id: `call_${n}_${c}`,
      name,
      arguments: argumentsFor(name, n, next()),
      status: "completed",
    });
  }
  // Cut off by the output ceiling: the last call's arguments stop mid-write.
  const last = output.at(-1)!;
  if (cut) last.arguments = last.arguments.slice(0, Math.floor(last.arguments.length / 2));
  const response = {
    id: `resp_${n.toString(16).padStart(12, "0")}`,
    object: "response",
    created_at: 1764806400 + n,
    status: cut ? "incomplete" : "completed",
    ...(cut ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
    model: "gpt-4.1-2025-04-14",
    output,
    tools: TOOLS,
    usage: { input_tokens: 812, output_tokens: 41, total_tokens: 853 },
  };
  return [JSON.stringify(response), calls];
}

/** Writes about `bytes` of JSON lines to `file`; returns the calls written. */
export function generateLog(file: string, bytes: number): { calls: number; records: number; bytes: number } {
  const next = random(33);
  const fd = openSync(file, "w");
  let written = 0;
  let calls = 0;
  let records = 0;
  let chunk: string[] = [];
  let chunkLength = 0;
  try {
    while (written + chunkLength < bytes) {
      const [line, n] = responseLine(records, next);
      chunk.push(line);
      chunkLength += line.length + 1;
      calls += n;
      records += 1;
      if (chunkLength >= 1 << 20) {
        written += writeSync(fd, `${chunk.join("\n")}\n`);
        chunk = [];
        chunkLength = 0;
      }
    }
    if (chunk.length > 0) written += writeSync(fd, `${chunk.join("\n")}\n`);
  } finally {
    closeSync(fd);
  }
  return { calls, records, bytes: statSync(file).size };
}

export interface ClassifyRow {
  readonly size: string;
  readonly bytes: number;
  readonly records: number;
  readonly calls: number;
  readonly workers: number;
  readonly seconds: number;
  readonly callsPerSecond: number;
  /** CPU time of the run, every thread: on a shared machine, what the run itself cost. */
  readonly cpuSeconds: number;
  readonly callsPerCpuSecond: number;
  readonly peakRssMB: number;
  readonly exit: number;
}

export interface ClassifyResult {
  readonly rows: readonly ClassifyRow[];
  readonly cores: number;
  /** All workers over one worker, calls per second, at the largest size run. */
  readonly scaling: number;
  /** Peak RSS at the largest size run, on all workers, MB. */
  readonly peakRssMB: number;
  /** The best one-worker calls per second of wall time (one worker: the main thread does it all). */
  readonly callsPerSecondOneWorker: number;
  /** The best one-worker calls per CPU-second: calls per second per core, whatever else the machine runs. */
  readonly callsPerCpuSecondOneWorker: number;
}

function runOnce(
  file: string,
  workers: number,
): { seconds: number; cpuSeconds: number; peakRssMB: number; exit: number } {
  const child = spawnSync(
    process.execPath,
    [CHILD, CLI_MAIN, "classify", "--responses", file, "--workers", String(workers)],
    { stdio: ["ignore", "ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
  );
  const report = String(child.output[3] ?? "").trim();
  if (report === "") throw new Error(`the classify child reported nothing: ${String(child.stderr).slice(0, 500)}`);
  const { code, wallMs, cpuMs, maxRssKiB } = JSON.parse(report) as {
    code: number;
    wallMs: number;
    cpuMs: number;
    maxRssKiB: number;
  };
  return { seconds: wallMs / 1000, cpuSeconds: cpuMs / 1000, peakRssMB: (maxRssKiB * 1024) / 1e6, exit: code };
}

export function runClassifyScale(sizes: readonly (readonly [string, number])[]): ClassifyResult {
  const cores = availableParallelism();
  const dir = mkdtempSync(join(tmpdir(), "strictwire-bench-classify-"));
  const rows: ClassifyRow[] = [];
  try {
    for (const [label, bytes] of sizes) {
      const file = join(dir, "log.jsonl");
      const log = generateLog(file, bytes);
      for (const workers of [...new Set([1, cores])]) {
        const run = runOnce(file, workers);
        rows.push({
          size: label,
          bytes: log.bytes,
          records: log.records,
          calls: log.calls,
          workers,
          seconds: run.seconds,
          callsPerSecond: log.calls / run.seconds,
          cpuSeconds: run.cpuSeconds,
          callsPerCpuSecond: log.calls / run.cpuSeconds,
          peakRssMB: run.peakRssMB,
          exit: run.exit,
        });
      }
      rmSync(file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const largest = rows.at(-1)!.size;
  const at = rows.filter((r) => r.size === largest);
  const one = at.find((r) => r.workers === 1)!;
  const all = at.find((r) => r.workers === cores) ?? one;
  return {
    rows,
    cores,
    scaling: all.callsPerSecond / one.callsPerSecond,
    peakRssMB: Math.max(...at.map((r) => r.peakRssMB)),
    callsPerSecondOneWorker: Math.max(...rows.filter((r) => r.workers === 1).map((r) => r.callsPerSecond)),
    callsPerCpuSecondOneWorker: Math.max(...rows.filter((r) => r.workers === 1).map((r) => r.callsPerCpuSecond)),
  };
}

const mb = (n: number): string => n.toFixed(0);

export function renderClassify(r: ClassifyResult): string {
  const lines = [
    "## classify at log scale",
    "",
    `The built CLI, \`strictwire classify --responses FILE --workers N\` (human output, discarded), on generated JSON lines; one child process per row; peak RSS and CPU time by getrusage (all threads). ${r.cores} CPUs. Workers start only after the classifier's first WORKERS_AFTER records, so the 10 MB log starts none.`,
    "",
    "| log | records | calls | workers | wall s | calls/s | CPU s | calls/CPU-s | peak RSS MB | exit |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...r.rows.map(
      (x) =>
        `| ${x.size} | ${x.records} | ${x.calls} | ${x.workers} | ${x.seconds.toFixed(2)} | ${Math.round(x.callsPerSecond)} | ${x.cpuSeconds.toFixed(2)} | ${Math.round(x.callsPerCpuSecond)} | ${mb(x.peakRssMB)} | ${x.exit} |`,
    ),
    "",
    `All workers over one: ${r.scaling.toFixed(2)}x at the largest log (goal ${CLASSIFY_GOALS.scaling}x). Goals: peak RSS under ${CLASSIFY_GOALS.peakRssMB} MB at the largest log (${mb(r.peakRssMB)}), ${CLASSIFY_GOALS.callsPerSecondPerCore} calls/s per core (one worker: ${Math.round(r.callsPerCpuSecondOneWorker)} calls per CPU-second, ${Math.round(r.callsPerSecondOneWorker)} per wall second). Wall-clock rates and the scaling depend on what else the machine runs (load average at the end: ${loadavg()[0]!.toFixed(1)} on ${r.cores} CPUs); calls per CPU-second do not.`,
  ];
  return lines.join("\n");
}
