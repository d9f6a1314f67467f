/**
 * The proxy's start-up against upstreams of several sizes: how long until the
 * client's initialize is answered, how long until the first tools/list is
 * (every tool compiled or passed through), and the longest ping while that
 * listing was under way, which shows whether the proxy stayed responsive.
 * The baseline, in the same run, is a client listing the same upstream
 * directly (start the server, initialize, list every page: no compile).
 * The upstream is the hostile-upstream test fixture (a real SDK server).
 *
 *   pnpm --filter @strictwire/mcp bench:startup
 *   pnpm --filter @strictwire/mcp bench:startup -- --cases many:99,wide:1000 [--cli path/to/strictwire.js] [--json]
 *
 * --cli runs another build of the CLI (an older checkout, for before/after).
 * Uses the built CLI: run `pnpm build` first.
 */
import { cpus, platform, release } from "node:os";
import { performance } from "node:perf_hooks";
import { CLI, type Connected, connect, HOSTILE_SERVER } from "../test/support/proxy.js";

interface Case {
  readonly label: string;
  /** The fixture's mode and argument. */
  readonly upstream: readonly [string, string];
  readonly flags: readonly string[];
}

/** Tool counts include the fixture's own echo tool: "many N" lists N + 1 tools. */
const CASES: Record<string, Case> = {
  "many:0": { label: "1 tool", upstream: ["many", "0"], flags: [] },
  "many:99": { label: "100 tools", upstream: ["many", "99"], flags: [] },
  "many:9999": { label: "10,000 tools", upstream: ["many", "9999"], flags: [] },
  "wide:1000": { label: "1,000-property tool (openai)", upstream: ["wide", "1000"], flags: [] },
  // Tagged, 3,000 optional members make 9,001 wire properties: refused by OpenAI's 5,000 before any ajv compile.
  "wide:3000": { label: "3,000-property tool (openai)", upstream: ["wide", "3000"], flags: [] },
};

interface Figures {
  readonly label: string;
  readonly directListMs: number;
  readonly initializeMs: number;
  readonly listedMs: number;
  readonly ratio: number;
  readonly tools: number;
  readonly upstreamTools: number;
  readonly strict: string;
  /** Longest ping round trip while the first listing was under way (null: none answered before it). */
  readonly maxPingMs: number | null;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const cli = at("--cli") ?? CLI;
  const names = (at("--cases") ?? Object.keys(CASES).join(",")).split(",");
  const limitMs = Number(at("--limit-ms") ?? 300_000);
  const json = argv.includes("--json");
  const rows: Figures[] = [];
  for (const name of names) {
    const c = CASES[name];
    if (c === undefined) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(", ")}`);
    rows.push(await measure(c, cli, limitMs));
    if (!json) process.stderr.write(`${name}: done\n`);
  }
  const machine = `${cpus()[0]?.model ?? "unknown CPU"} ×${cpus().length}, ${platform()} ${release()}, Node ${process.version}`;
  if (json) process.stdout.write(`${JSON.stringify({ machine, date: new Date().toISOString(), cli, rows })}\n`);
  else process.stdout.write(render(rows, machine, cli));
}

async function measure(c: Case, cli: string, limitMs: number): Promise<Figures> {
  const upstream = [HOSTILE_SERVER, ...c.upstream];
  const directStart = performance.now();
  const direct = await connect(process.execPath, upstream);
  let tools = 0;
  try {
    let cursor: string | undefined;
    do {
      const page = await direct.client.listTools(cursor === undefined ? {} : { cursor });
      tools += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } finally {
    await direct.client.close();
  }
  const directListMs = performance.now() - directStart;

  const start = performance.now();
  // An older proxy answers initialize only once every tool is compiled: wait as long as the listing may take.
  const proxy = await connect(process.execPath, [cli, "mcp-proxy", ...c.flags, "--", process.execPath, ...upstream], {
    timeout: limitMs,
  }).catch(() => undefined);
  const initializeMs = performance.now() - start;
  if (proxy === undefined) {
    // Not even initialize was answered within the limit (the proxy before issue 30 on a large upstream).
    const over = Number.POSITIVE_INFINITY;
    return {
      label: c.label,
      directListMs,
      initializeMs: over,
      listedMs: over,
      ratio: over,
      tools: 0,
      upstreamTools: tools,
      strict: "?",
      maxPingMs: null,
    };
  }
  try {
    let listed = false;
    const pings: number[] = [];
    const pinging = (async () => {
      while (!listed) {
        const sent = performance.now();
        await proxy.client.ping();
        if (!listed) pings.push(performance.now() - sent);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const answer = await proxy.client.listTools(undefined, { timeout: limitMs }).catch(() => ({ tools: [] }));
    const listedMs = performance.now() - start;
    listed = true;
    await pinging.catch(() => undefined);
    return {
      label: c.label,
      directListMs,
      initializeMs,
      listedMs,
      ratio: listedMs / directListMs,
      tools: answer.tools.length,
      upstreamTools: tools,
      strict: strictLine(proxy),
      maxPingMs: pings.length === 0 ? null : Math.max(...pings),
    };
  } finally {
    await proxy.client.close();
  }
}

/** The proxy's own count of strict tools, from its stderr (it may come just after the listing). */
function strictLine(proxy: Connected): string {
  return /(\d+ of \d+) tools strict/.exec(proxy.stderr())?.[1] ?? "?";
}

function render(rows: readonly Figures[], machine: string, cli: string): string {
  const s = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "over the limit");
  return [
    `mcp-proxy start-up (${machine}; CLI ${cli})`,
    "",
    "| upstream | direct listing | initialize answered | first tools/list answered | ratio to direct | listed | strict | longest ping meanwhile |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${s(r.directListMs)} | ${s(r.initializeMs)} | ${s(r.listedMs)} | ${r.ratio.toFixed(1)}× | ${r.tools} of ${r.upstreamTools} | ${r.strict} | ${r.maxPingMs === null ? "none answered" : `${r.maxPingMs.toFixed(1)} ms`} |`,
    ),
    "",
  ].join("\n");
}

await main();
