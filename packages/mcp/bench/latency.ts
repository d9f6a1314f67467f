/**
 * The proxy's added latency per tools/call, as a ratio against calling the
 * same server directly, in one run: two official-SDK clients, one on the
 * reference server-everything and one on `strictwire mcp-proxy` in front of
 * another instance of it, calling its cheap `echo` tool in turn (which goes
 * first alternates), after a warm-up. Medians and 95th percentiles per call.
 *
 *   pnpm --filter @strictwire/mcp bench              500 calls each
 *   pnpm --filter @strictwire/mcp bench -- --calls 2000 --json
 *
 * Uses the built CLI (packages/cli/bin/strictwire.js): run `pnpm build` first.
 */
import { cpus, platform, release } from "node:os";
import { performance } from "node:perf_hooks";
import { compileCodec } from "@strictwire/codec";
import { type Connected, connect, connectProxy, serverBin } from "../test/support/proxy.js";

const EVERYTHING = serverBin("@modelcontextprotocol/server-everything");
const WARM_UP = 50;

interface Figures {
  readonly calls: number;
  readonly directMedianMs: number;
  readonly proxyMedianMs: number;
  readonly ratio: number;
  readonly addedMedianMs: number;
  readonly directP95Ms: number;
  readonly proxyP95Ms: number;
  /** The proxy's own work per call, in process: JSON text of the arguments, then decode. */
  readonly decodeMedianMs: number;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const callsAt = argv.indexOf("--calls");
  const calls = callsAt >= 0 ? Number(argv[callsAt + 1]) : 500;
  if (!Number.isInteger(calls) || calls < 1) throw new Error("--calls needs a positive integer");
  const json = argv.includes("--json");

  const direct = await connect(process.execPath, [EVERYTHING, "stdio"]);
  const proxied = await connectProxy([], [process.execPath, EVERYTHING, "stdio"]);
  try {
    const echo = (await direct.client.listTools()).tools.find((t) => t.name === "echo");
    if (echo === undefined) throw new Error("server-everything has no echo tool");
    const codec = compileCodec(echo.inputSchema, { name: "echo" });
    if (!codec.ok) throw new Error(codec.error.message);
    const plain = { message: "strictwire" };
    const wire = codec.value.encode(plain);
    if (!wire.ok) throw new Error(wire.error.message);

    const callDirect = (): Promise<number> => timed(direct, plain);
    const callProxied = (): Promise<number> => timed(proxied, wire.value);
    for (let i = 0; i < WARM_UP; i++) await Promise.all([callDirect(), callProxied()]);

    const d: number[] = [];
    const p: number[] = [];
    for (let i = 0; i < calls; i++) {
      // One at a time, alternating which goes first, so neither side always meets a colder machine.
      if (i % 2 === 0) {
        d.push(await callDirect());
        p.push(await callProxied());
      } else {
        p.push(await callProxied());
        d.push(await callDirect());
      }
    }
    const figures: Figures = {
      calls,
      directMedianMs: quantile(d, 0.5),
      proxyMedianMs: quantile(p, 0.5),
      ratio: quantile(p, 0.5) / quantile(d, 0.5),
      addedMedianMs: quantile(p, 0.5) - quantile(d, 0.5),
      directP95Ms: quantile(d, 0.95),
      proxyP95Ms: quantile(p, 0.95),
      decodeMedianMs: decodeTime(() => codec.value.decode(JSON.stringify(wire.value))),
    };
    const machine = `${cpus()[0]?.model ?? "unknown CPU"} ×${cpus().length}, ${platform()} ${release()}, Node ${process.version}`;
    if (json) process.stdout.write(`${JSON.stringify({ machine, date: new Date().toISOString(), ...figures })}\n`);
    else process.stdout.write(render(figures, machine));
  } finally {
    await Promise.all([direct.client.close(), proxied.client.close()]);
  }
}

async function timed(side: Connected, args: unknown): Promise<number> {
  const start = performance.now();
  const result = await side.client.callTool({ name: "echo", arguments: args as Record<string, unknown> });
  const elapsed = performance.now() - start;
  // A refused or failed call would measure the wrong thing.
  if (result.isError === true) throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
  return elapsed;
}

/** Median over 50 batches of 100 decodes, per decode. */
function decodeTime(decode: () => { ok: boolean }): number {
  const batches: number[] = [];
  for (let b = 0; b < 50; b++) {
    const start = performance.now();
    for (let i = 0; i < 100; i++) if (!decode().ok) throw new Error("decode refused the encoded arguments");
    batches.push((performance.now() - start) / 100);
  }
  return quantile(batches, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function render(f: Figures, machine: string): string {
  const ms = (n: number): string => `${n.toFixed(3)} ms`;
  return [
    `mcp-proxy added latency: ${f.calls} echo calls each, interleaved (${machine})`,
    "",
    "| path | median | p95 |",
    "| --- | --- | --- |",
    `| client → server-everything | ${ms(f.directMedianMs)} | ${ms(f.directP95Ms)} |`,
    `| client → strictwire mcp-proxy → server-everything | ${ms(f.proxyMedianMs)} | ${ms(f.proxyP95Ms)} |`,
    "",
    `ratio of medians: ${f.ratio.toFixed(2)}×  (added per call: ${ms(f.addedMedianMs)}, of which decoding ${ms(f.decodeMedianMs)})`,
    "",
  ].join("\n");
}

await main();
