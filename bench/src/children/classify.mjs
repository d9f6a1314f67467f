// One classify run of the built CLI, as a user runs it, in this process; at
// exit, the process's peak resident set (getrusage: the main thread and every
// worker thread) and the run's wall time as one JSON line on fd 3.
//
//   node classify.mjs <cli dist main.js> classify --responses FILE --workers N
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [mainFile, ...argv] = process.argv.slice(2);
const { main } = await import(pathToFileURL(mainFile).href);
const started = performance.now();
const code = await main(argv);
const wallMs = performance.now() - started;
writeSync(3, `${JSON.stringify({ code, wallMs, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
process.exitCode = code;
