// One classify run of the built CLI, as a user runs it, in this process; at
// exit, the process's peak resident set and CPU time (getrusage: the main
// thread and every worker thread) and the run's wall time as one JSON line on
// fd 3. CPU time is what a shared machine cannot take away from a run.
//
//   node classify.mjs <cli dist main.js> classify --responses FILE --workers N
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [mainFile, ...argv] = process.argv.slice(2);
const { main } = await import(pathToFileURL(mainFile).href);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const code = await main(argv);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
writeSync(3, `${JSON.stringify({ code, wallMs, cpuMs, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
process.exitCode = code;
