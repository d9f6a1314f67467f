/**
 * Nesting depths at which V8 runs out of stack, measured at run time: they
 * follow the stack size, which differs between Node versions (and with
 * --stack-size), so a test that needs a value too deep for JSON.stringify, or
 * one JSON.stringify writes but a structured clone cannot copy, asks here
 * instead of naming a depth that holds on one Node only.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

/** The body of a function of \`require\`: the deepest array nesting each operation still handles where it runs. */
const MEASURE = `
const { MessageChannel } = require("node:worker_threads");
const nest = (n) => { let v = []; for (let i = 1; i < n; i++) v = [v]; return v; };
const fails = (f) => { try { f(); return false; } catch { return true; } };
// Doubling, then bisecting: nest is a loop, so only the operation measured recurses.
const deepest = (f) => {
  let ok = 1, bad = 2;
  while (!fails(() => f(bad))) { ok = bad; bad *= 2; }
  while (bad - ok > 1) { const m = Math.floor((ok + bad) / 2); if (fails(() => f(m))) bad = m; else ok = m; }
  return ok;
};
const { port1 } = new MessageChannel();
const depths = { stringify: deepest((n) => JSON.stringify(nest(n))), clone: deepest((n) => port1.postMessage(nest(n))) };
port1.close();
return depths;
`;

export interface StackDepths {
  /** The deepest array JSON.stringify writes. */
  readonly stringify: number;
  /** The deepest array postMessage (a worker's structured clone) copies. */
  readonly clone: number;
}

/** Measured in a child started as the proxy is (this Node, its flags and NODE_OPTIONS), and so as deep as its stack. */
export function childDepths(): StackDepths {
  const script = `console.log(JSON.stringify((function (require) {${MEASURE}})(require)))`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`measuring the stack depths failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as StackDepths;
}

/** Measured in this process (a strictMcpTools test runs the listing here). */
export function ownDepths(): StackDepths {
  return new Function("require", MEASURE)(createRequire(import.meta.url)) as StackDepths;
}

/** A depth JSON.stringify cannot write in this process nor in the proxy's: twice the deepest either writes. */
export function tooDeepToStringify(): number {
  return 2 * Math.max(childDepths().stringify, ownDepths().stringify);
}
