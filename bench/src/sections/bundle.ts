/**
 * What a precompiled tool weighs in a browser bundle: the runtime entry alone,
 * and with one fixture tool without and with a `pattern` (the RE2 engine comes
 * in only then), esbuild --platform=browser --minify, then gzip -9. Measured by
 * scripts/bundle-size.mjs (CI holds its budget), run here as a child on the
 * built dist, as a user's bundler reads it. Sizes, not timings: the same on
 * any machine.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../corpora.js";
import { kb, table } from "../format.js";

export interface BundleSizes {
  readonly goal: number;
  readonly budget: number;
  readonly runtime: { readonly minified: number; readonly gzip: number };
  readonly noPattern: ToolSize;
  readonly pattern: ToolSize;
}

/** Load + decode (what the goal names), and the same with the stream decoder called. */
interface ToolSize {
  readonly tool: string;
  readonly minified: number;
  readonly gzip: number;
  readonly stream: { readonly minified: number; readonly gzip: number };
}

interface ScriptCase {
  tool: string;
  pattern: boolean;
  module: string;
  minified: number;
  gzip: number;
  stream: { minified: number; gzip: number };
}

export function runBundleSizes(): BundleSizes {
  const out = JSON.parse(
    execFileSync(process.execPath, [join(REPO_ROOT, "scripts", "bundle-size.mjs"), "--json"], { encoding: "utf8" }),
  ) as { goal: number; budget: number; runtime: { minified: number; gzip: number }; cases: ScriptCase[] };
  const pick = (pattern: boolean) => {
    const c = out.cases.find((x) => x.module === "current" && x.pattern === pattern);
    if (c === undefined) throw new Error("bundle-size.mjs gave no current module");
    return {
      tool: c.tool,
      minified: c.minified,
      gzip: c.gzip,
      stream: { minified: c.stream.minified, gzip: c.stream.gzip },
    };
  };
  return {
    goal: out.goal,
    budget: out.budget,
    runtime: { minified: out.runtime.minified, gzip: out.runtime.gzip },
    noPattern: pick(false),
    pattern: pick(true),
  };
}

export function renderBundleSizes(r: BundleSizes): string {
  const rows = [
    ["runtime alone (codecFromModule)", kb(r.runtime.minified), kb(r.runtime.gzip)],
    [`+ ${r.noPattern.tool} (no pattern), load + decode`, kb(r.noPattern.minified), kb(r.noPattern.gzip)],
    ["  + stream decoder", kb(r.noPattern.stream.minified), kb(r.noPattern.stream.gzip)],
    [`+ ${r.pattern.tool} (pattern: RE2 in), load + decode`, kb(r.pattern.minified), kb(r.pattern.gzip)],
    ["  + stream decoder", kb(r.pattern.stream.minified), kb(r.pattern.stream.gzip)],
  ];
  return `## Browser bundle (esbuild --platform=browser --minify, gzip -9)\n\n${table(["bundle", "minified", "gzip"], rows)}\n\nBudget held in CI: ${kb(r.budget)} gzipped without a pattern; the goal of ${kb(r.goal)} is ${r.noPattern.gzip <= r.goal ? "met" : "NOT met"}.`;
}
