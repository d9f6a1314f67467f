/**
 * Conformance: run the codec over externally authored corpora (see
 * docs/conformance.md). `pnpm conformance` prints tables; `--json` prints one
 * JSON object on stdout. Full per-case results go to conformance/cases.jsonl.
 * Exit 1 when a floor in scripts/conformance/floors.json is crossed, 2 when
 * the corpora cannot be found or the arguments are wrong.
 *
 *   --json            one JSON object on stdout instead of tables
 *   --only=a,b        run some corpora only: jsts, jsb, bfcl, mcp (floors of the others are not checked)
 *   --workers=N       processes for JSONSchemaBench (default: available cores, at most 4)
 */
import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "@strictwire/codec/files";
import { runBfcl } from "./conformance/bfcl.js";
import { CaseLog, locateCorpora, Progress, REPO_ROOT } from "./conformance/io.js";
import { runJsts } from "./conformance/jsts.js";
import { runMcp } from "./conformance/mcp.js";
import { runJsbParallel } from "./conformance/parallel.js";
import { checkFloors, readFloors, renderText, type Summary } from "./conformance/report.js";

const CORPORA = ["jsts", "jsb", "bfcl", "mcp"] as const;
type CorpusName = (typeof CORPORA)[number];

function usage(message: string): never {
  process.stderr.write(
    `conformance: ${message}\nusage: conformance [--json] [--only=jsts,jsb,bfcl,mcp] [--workers=N]\n`,
  );
  process.exit(2);
}

async function main(): Promise<number> {
  let json = false;
  let workers = Math.max(1, Math.min(availableParallelism(), 4));
  let only: Set<CorpusName> = new Set(CORPORA);
  for (const arg of process.argv.slice(2)) {
    if (arg === "--json") json = true;
    else if (arg.startsWith("--only=")) {
      const names = arg.slice("--only=".length).split(",");
      for (const n of names) if (!CORPORA.includes(n as CorpusName)) usage(`unknown corpus ${JSON.stringify(n)}`);
      only = new Set(names as CorpusName[]);
    } else if (arg.startsWith("--workers=")) {
      workers = Number(arg.slice("--workers=".length));
      if (!Number.isInteger(workers) || workers < 1 || workers > 64) usage("--workers takes an integer from 1 to 64");
    } else usage(`unknown argument ${JSON.stringify(arg)}`);
  }

  const located = locateCorpora();
  if (!located.ok) {
    process.stderr.write(`${located.message}\n`);
    return 2;
  }
  // A promise the codec leaves rejected must not end the run: it is recorded and fails it.
  const rejections: string[] = [];
  process.on("unhandledRejection", (reason: unknown) => {
    const message = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    rejections.push(message);
    process.stderr.write(`conformance: CRASH (unhandled promise rejection, main process): ${message}\n`);
  });

  const outDir = join(REPO_ROOT, "conformance");
  mkdirSync(outDir, { recursive: true });
  const log = new CaseLog(join(outDir, "cases.jsonl"));
  const progress = new Progress();
  const started = performance.now();
  const seconds: Record<string, number> = {};
  const since = (t: number): number => Math.round((performance.now() - t) / 100) / 10;
  const timed = <T>(name: string, run: () => T): T => {
    const t = performance.now();
    const r = run();
    seconds[name] = since(t);
    return r;
  };

  // JSONSchemaBench runs in worker processes while this one does the smaller corpora.
  const jsbStarted = performance.now();
  const jsb = only.has("jsb") ? runJsbParallel(located.root, outDir, workers, log, progress) : undefined;
  // A rejection is handled when awaited below; do not let it count as unhandled meanwhile.
  jsb?.catch(() => {});
  const jsts = only.has("jsts") ? timed("jsts", () => runJsts(located.root, log, progress)) : undefined;
  const bfcl = only.has("bfcl") ? timed("bfcl", () => runBfcl(located.root, log, progress)) : undefined;
  const mcp = only.has("mcp") ? timed("mcp", () => runMcp(located.root, log, progress)) : undefined;
  const jsbResult = await jsb;
  const jsonSchemaBench = jsbResult?.summary;
  if (jsb !== undefined) seconds.jsb = since(jsbStarted);
  const cpu = process.cpuUsage();
  // CPU time says more than wall time on a busy machine.
  const cpuSeconds = {
    main: Math.round((cpu.user + cpu.system) / 1e5) / 10,
    jsbWorkers: Math.round((jsbResult?.cpuSeconds ?? 0) * 10) / 10,
  };
  log.close();

  const summary: Summary = {
    ...(jsts !== undefined ? { jsonSchemaTestSuite: jsts } : {}),
    ...(jsonSchemaBench !== undefined ? { jsonSchemaBench } : {}),
    ...(bfcl !== undefined ? { bfcl } : {}),
    ...(mcp !== undefined ? { mcp } : {}),
  };

  const floorsPath = join(REPO_ROOT, "scripts/conformance/floors.json");
  const violations = checkFloors(summary, readFloors(floorsPath));
  if (rejections.length > 0) violations.push(`${rejections.length} unhandled promise rejections in the main process`);
  const result = {
    ...summary,
    run: {
      corpora: located.root,
      ran: [...only],
      workers,
      seconds: { ...seconds, total: since(started) },
      cpuSeconds,
      // Which codec ran: the sources under the strictwire-source condition, else the built dist.
      codec: fileURLToPath(import.meta.resolve("@strictwire/codec")),
      casesFile: log.path,
      unhandledRejections: rejections,
      floors: { file: floorsPath, violations },
    },
  };
  // Renamed into place, like the cases file, so a concurrent run cannot leave half of one.
  const summaryPath = join(outDir, "summary.json");
  const written = writeFileAtomic(summaryPath, `${JSON.stringify(result, null, 2)}\n`);
  if (!written.ok) throw new Error(`${summaryPath}: ${written.error.code}: ${written.error.message}`);

  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(renderText(summary));
    process.stdout.write(
      `\nrun time ${result.run.seconds.total} s (CPU: ${cpuSeconds.main} s here${jsb !== undefined ? `, ${cpuSeconds.jsbWorkers} s in ${workers} JSONSchemaBench workers` : ""}); per-case results in ${log.path}\n`,
    );
    process.stdout.write(violations.length === 0 ? "floors: all held\n" : "");
  }
  for (const v of violations) process.stderr.write(`conformance: floor crossed: ${v}\n`);
  return violations.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
