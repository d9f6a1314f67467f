/** JSONSchemaBench is most of the run's work: it is split by line over worker processes. */
import { fork } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaseLog, Progress } from "./io.js";
import { type JsbSummary, mergeJsb } from "./jsb.js";

type Message =
  | { type: "progress"; label: string; done: number; total: number }
  | { type: "summary"; summary: JsbSummary; cpuSeconds: number };

/** Fork `workers` shards (they inherit this process's loader flags), merge their summaries and case files. */
export async function runJsbParallel(
  corpora: string,
  outDir: string,
  workers: number,
  log: CaseLog,
  progress: Progress,
): Promise<{ summary: JsbSummary; cpuSeconds: number }> {
  const script = fileURLToPath(new URL("./jsb-worker.ts", import.meta.url));
  const status: string[] = new Array(workers).fill("starting");
  const parts = Array.from({ length: workers }, (_, k) => join(outDir, `cases.jsb-${process.pid}-${k}.jsonl`));
  const summaries = await Promise.all(
    parts.map(
      (part, k) =>
        new Promise<{ summary: JsbSummary; cpuSeconds: number }>((resolve, reject) => {
          let summary: { summary: JsbSummary; cpuSeconds: number } | undefined;
          const child = fork(script, [corpora, String(k), String(workers), part], {
            stdio: ["ignore", "inherit", "inherit", "ipc"],
          });
          child.on("message", (m: Message) => {
            if (m.type === "summary") summary = { summary: m.summary, cpuSeconds: m.cpuSeconds };
            else {
              status[k] = `${m.label.replace(/^JSONSchemaBench /, "")} ${m.done}/${m.total}`;
              progress.line(`JSONSchemaBench: ${status.join(" | ")}`);
            }
          });
          child.on("error", reject);
          child.on("exit", (code, signal) => {
            if (summary !== undefined) resolve(summary);
            else reject(new Error(`JSONSchemaBench shard ${k} ended (${signal ?? `exit ${code}`}) without a summary`));
          });
        }),
    ),
  );
  progress.clear();
  for (const part of parts) {
    log.append(part);
    rmSync(part);
  }
  return {
    summary: mergeJsb(summaries.map((x) => x.summary)),
    cpuSeconds: summaries.reduce((sum, x) => sum + x.cpuSeconds, 0),
  };
}
