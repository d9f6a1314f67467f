/**
 * One shard of the JSONSchemaBench run, in its own process (forked by
 * parallel.ts): argv is corpora root, shard index, shard count, cases file.
 * Sends progress and, at the end, its summary over IPC.
 */
import { CaseLog, type ProgressSink } from "./io.js";
import { runJsb } from "./jsb.js";

const [corpora, index, count, casesPath] = process.argv.slice(2);
if (corpora === undefined || index === undefined || count === undefined || casesPath === undefined || !process.send) {
  process.stderr.write("jsb-worker: expects corpora, shard index, shard count, cases file, and an IPC channel\n");
  process.exit(2);
}
const send = process.send.bind(process);
let last = 0;
const progress: ProgressSink = {
  update(label, done, total) {
    const now = Date.now();
    if (now - last < 250) return;
    last = now;
    send({ type: "progress", label, done, total });
  },
  clear() {},
};
const log = new CaseLog(casesPath);
const summary = await runJsb(corpora, log, progress, { index: Number(index), count: Number(count) });
log.close();
const cpu = process.cpuUsage();
send({ type: "summary", summary, cpuSeconds: (cpu.user + cpu.system) / 1e6 }, () => process.disconnect());
