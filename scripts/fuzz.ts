/**
 * pnpm fuzz: fuzz the codec with fast-check, outside the test run.
 *
 *   pnpm fuzz                      # the full run: 100,000 cases
 *   pnpm fuzz --count 5000         # a quick one
 *   pnpm fuzz --time 10m           # as many cases as fit in ten minutes
 *   pnpm fuzz --target structural,limits --seed 42
 *   pnpm fuzz --findings-out findings.json
 *
 * Every case checks that decode returns a typed result and never throws, that
 * an accepted value is valid under the original schema and round-trips, and
 * that nothing beyond the configured limits is accepted (see scripts/fuzz/).
 * Exit status: 0 when nothing new was found, 1 when a finding matches no
 * known issue, 2 for bad arguments.
 */

import { parseArgs } from "node:util";
import { writeFileAtomic } from "@strictwire/codec/files";
import { runFuzz, selectTargets } from "./fuzz/runner.js";
import { TARGETS } from "./fuzz/targets.js";

const USAGE = `usage: pnpm fuzz [--count N | --time DURATION] [--seed N] [--target a,b] [--slow-ms N]
                 [--generated N] [--findings-out FILE] [--list]
  --count N         total cases across the targets (default 100000)
  --time DURATION   time budget instead of a count: 90s, 10m, 1h, or seconds
  --seed N          fast-check seed (default: the time of day)
  --target a,b      only these targets (--list shows them)
  --slow-ms N       a case slower than this is a finding (default 5000)
  --generated N     generated schemas in the codec pool (default 60)
  --findings-out F  write the findings, with reproductions, to F as JSON`;

function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${text}`);
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  return n * (unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" ? 60_000 : 3_600_000);
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

async function main(argv: readonly string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.values.list) {
    for (const t of TARGETS)
      process.stdout.write(`${t.name.padEnd(18)} weight ${String(t.weight).padStart(2)}  ${t.description}\n`);
    return 0;
  }
  let options: Parameters<typeof runFuzz>[0];
  try {
    const targets = args.values.target?.split(",").filter((t) => t.length > 0);
    selectTargets(targets);
    options = {
      ...(args.values.time !== undefined
        ? { timeMs: duration(args.values.time) }
        : { count: positive("count", args.values.count, 100_000) }),
      seed: positive("seed", args.values.seed, Date.now() % 2 ** 31),
      ...(targets !== undefined ? { targets } : {}),
      slowMs: positive("slow-ms", args.values["slow-ms"], 5000),
      pool: { generated: positive("generated", args.values.generated, 60), compact: true },
      log: (line) => process.stderr.write(`${line}\n`),
    };
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }

  process.stderr.write(`fuzz: seed ${options.seed}\n`);
  const report = await runFuzz(options);
  const groups = report.findings.all();
  const unknown = report.findings.unknown();

  const lines = [
    "",
    `fuzz: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s (seed ${report.seed}, ${report.poolSize} codecs, pool built in ${(report.poolMs / 1000).toFixed(1)} s)`,
    ...report.runs.map(
      (r) =>
        `  ${r.name.padEnd(18)} ${String(r.cases).padStart(7)} cases  ${(r.ms / 1000).toFixed(1).padStart(7)} s  slowest ${r.slowestMs.toFixed(0)} ms`,
    ),
    `findings: ${report.findings.count()} in ${groups.length} group(s), ${unknown.length} not matching a known issue`,
  ];
  for (const g of groups) {
    lines.push(
      `  [${g.first.known ?? "NEW"}] ${g.first.target}: ${g.first.signature} (x${g.count})`,
      `    ${g.smallest.detail.split("\n").join("\n    ")}`,
      `    repro: ${g.smallest.repro.slice(0, 600)}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);

  const out = args.values["findings-out"];
  if (out !== undefined) {
    const data = {
      seed: report.seed,
      cases: report.cases,
      ms: Math.round(report.ms),
      runs: report.runs,
      findings: groups.map((g) => ({ count: g.count, ...g.smallest })),
    };
    const written = writeFileAtomic(out, `${JSON.stringify(data, null, 2)}\n`);
    if (!written.ok) {
      process.stderr.write(`fuzz: ${out}: ${written.error.code}: ${written.error.message}\n`);
      return 2;
    }
  }
  return unknown.length > 0 ? 1 : 0;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      count: { type: "string" },
      time: { type: "string" },
      seed: { type: "string" },
      target: { type: "string" },
      "slow-ms": { type: "string" },
      generated: { type: "string" },
      "findings-out": { type: "string" },
      list: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
}

process.exitCode = await main(process.argv.slice(2));
