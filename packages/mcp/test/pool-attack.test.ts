/**
 * The compile pool attacked, with real MCP servers (the SDK over stdio, child
 * processes) upstream: a worker stopped mid-compile, a compile past its time
 * budget, a storm of tools/list_changed while calls are in flight, and a
 * decode past its own time budget. Every call is answered and nothing hangs;
 * the timeouts here only guard against a hang, they time nothing.
 */
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { connectProxy, HOSTILE_SERVER, until } from "./support/proxy.js";

const CATALOGUE_SWAP = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/catalogue-swap.mjs");
const hostile = (...args: string[]): string[] => [process.execPath, HOSTILE_SERVER, ...args];
const ECHO_ABSENT = (text: string) => ({ text, times: { state: "absent" } });

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

/** The wire arguments of the storm server's "moving" tool at one version (its schema names the version). */
function movingArgs(version: number, value: string): string {
  const codec = compileCodec(
    { type: "object", properties: { [`v${version}`]: { type: "string" } } },
    { name: "moving", description: `Version ${version}.` },
  );
  if (!codec.ok) throw new Error(codec.error.message);
  const wire = codec.value.encode({ [`v${version}`]: value });
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}

describe("the compile pool under attack", () => {
  it("answers a compile whose worker is stopped mid-compile (its memory budget), and serves on with a new one", async () => {
    // One worker, a memory budget the wide tool's compile passes and a time budget it does not reach first.
    const proxy = await connectProxy(
      ["--compile-memory", "40", "--compile-timeout", "120000", "--compile-workers", "1"],
      hostile("wide", "400"),
    );
    try {
      const { tools } = await proxy.client.listTools();
      // The listing is answered: the wide tool as the upstream lists it, echo strict.
      expect(tools.find((t) => t.name === "wide")?.inputSchema.additionalProperties).toBeUndefined();
      expect(tools.find((t) => t.name === "echo")?.inputSchema.properties).toHaveProperty("times.anyOf");
      await until(() => proxy.stderr().includes('tool "wide" passes through'), 10_000);
      expect(proxy.stderr()).toMatch(
        /tool "wide" passes through unchanged: schema-too-large: .*its compile worker stopped while compiling it: .*memory limit/,
      );
      // echo's codec was on the stopped worker: compiled again on a new one, and its calls decoded there.
      const call = await proxy.client.callTool({ name: "echo", arguments: ECHO_ABSENT("ok") });
      expect(call.structuredContent).toEqual({ received: { text: "ok" } });
      const refused = await proxy.client.callTool({ name: "echo", arguments: { text: "ok" } });
      expect(refused.isError).toBe(true);
      // The passed-through tool goes to the upstream as it came.
      const wide = await proxy.client.callTool({ name: "wide", arguments: { field_1: "x" } });
      expect(wide.structuredContent).toEqual({ received: { field_1: "x" } });
    } finally {
      await proxy.client.close();
    }
    expect(await proxy.exited).toBe(0);
  }, 180_000);

  it("passes every tool through when no worker can start (a memory budget too small to load the codec)", async () => {
    // Before the bound on restarts, each compile started a new worker after each one that died, forever.
    const proxy = await connectProxy(["--compile-memory", "1", "--compile-workers", "1"], hostile("wide", "2"));
    try {
      const { tools } = await proxy.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo", "wide"]);
      await until(() => proxy.stderr().includes("0 of 2 tools strict"), 60_000);
      expect(proxy.stderr()).toMatch(/tool "echo" passes through unchanged: .*no compile worker could start/);
      // Passed through: the upstream judges the call.
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "direct" } });
      expect(call.structuredContent).toEqual({ received: { text: "direct" } });
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("answers a call queued behind a compile past its time budget, on a new worker", async () => {
    // The wide tool takes about 2.7 s to compile on an idle machine (see hostile-upstream.test.ts): over the budget.
    const proxy = await connectProxy(["--compile-timeout", "1000", "--compile-workers", "1"], hostile("wide", "1600"));
    try {
      // Asked at once: echo's call waits for the listing, then for the worker busy with the wide tool.
      const [listed, call] = await Promise.all([
        proxy.client.listTools(),
        proxy.client.callTool({ name: "echo", arguments: ECHO_ABSENT("queued") }),
      ]);
      expect(listed.tools.map((t) => t.name)).toEqual(["echo", "wide"]);
      expect(call.structuredContent).toEqual({ received: { text: "queued" } });
      expect(proxy.stderr()).toMatch(/tool "wide" passes through unchanged: .*took longer than the budget of 1000 ms/);
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("answers every call made during a storm of tools/list_changed; an unchanged tool's calls all go through", async () => {
    const proxy = await connectProxy(["--compile-workers", "2"], hostile("storm", "200"));
    try {
      await proxy.client.listTools();
      const storm = proxy.client.callTool({ name: "storm", arguments: {} });
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        calls.push(
          proxy.client.callTool({ name: "echo", arguments: ECHO_ABSENT(`c${i}`) }).then((r) => {
            // echo never changes: the storm must not cost any of its calls.
            expect(r.structuredContent, JSON.stringify(r)).toEqual({ received: { text: `c${i}` } });
          }),
        );
        // "moving" changes with every notification: a call is checked against the tool as listed when it is
        // decoded, so one encoded for version 0 is refused once a later version is listed, with feedback.
        calls.push(
          proxy.client.callTool({ name: "moving", arguments: JSON.parse(movingArgs(0, `m${i}`)) }).then((r) => {
            if (r.isError === true) expect(textOf(r)).toMatch(/v0/);
            else expect(r.structuredContent).toEqual({ received: { v0: `m${i}` } });
          }),
        );
        if (i % 10 === 9) await new Promise((r) => setTimeout(r, 20));
      }
      await Promise.all(calls);
      expect(textOf(await storm)).toBe("version 200");
      for (;;) {
        const { tools } = await proxy.client.listTools();
        if (tools.find((t) => t.name === "moving")?.description === "Version 200.") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // Once the last version is listed, a call for version 0 is refused and one for version 200 goes through.
      const stale = await proxy.client.callTool({ name: "moving", arguments: JSON.parse(movingArgs(0, "late")) });
      expect(stale.isError).toBe(true);
      const fresh = await proxy.client.callTool({ name: "moving", arguments: JSON.parse(movingArgs(200, "late")) });
      expect(fresh.structuredContent).toEqual({ received: { v200: "late" } });
    } finally {
      await proxy.client.close();
    }
    expect(await proxy.exited).toBe(0);
  }, 180_000);

  it("refuses a call whose decode passes its time budget, replaces the worker, and decodes the next call", async () => {
    // A budget of 1 ms against a decode of nearly a megabyte of text: the budget is what is attacked, not the codec.
    const proxy = await connectProxy(["--decode-timeout", "1", "--compile-workers", "1"], hostile("wide", "2"));
    try {
      await proxy.client.listTools();
      const big = await proxy.client.callTool({ name: "echo", arguments: ECHO_ABSENT("x".repeat(990_000)) });
      expect(big.isError).toBe(true);
      expect(textOf(big)).toMatch(
        /could not check these arguments .*decoding them took longer than the budget of 1 ms/,
      );
      expect(big.structuredContent).toBeUndefined();
      // A small call on the worker that replaced it: compiled again, decoded (or, on a very slow turn, refused
      // the same way): answered either way, and never forwarded unchecked.
      const small = await proxy.client.callTool({ name: "echo", arguments: ECHO_ABSENT("small") });
      if (small.isError === true) expect(textOf(small)).toMatch(/budget of 1 ms/);
      else expect(small.structuredContent).toEqual({ received: { text: "small" } });
    } finally {
      await proxy.client.close();
    }
    expect(await proxy.exited).toBe(0);
  }, 120_000);
});

describe("the tool catalogue when a listing replaces a tool", () => {
  it("decodes a call found before the change with the tool as now listed, never the codec let go", async () => {
    const run = await new Promise<{ code: number | null; out: string; err: string }>((done, failed) => {
      const child = spawn(process.execPath, [
        CATALOGUE_SWAP,
        HOSTILE_SERVER,
        movingArgs(0, "old"),
        movingArgs(1, "new"),
      ]);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", failed);
      child.on("close", (code) =>
        done({ code, out: Buffer.concat(out).toString("utf8"), err: Buffer.concat(err).toString("utf8") }),
      );
    });
    expect(run.code, run.err).toBe(0);
    const { stale, fresh } = JSON.parse(run.out) as {
      stale: { ok: boolean; error?: { message: string } };
      fresh: unknown;
    };
    // Before: the codec let go was compiled again from the old tool, and version 0's call accepted.
    expect(stale.ok).toBe(false);
    expect(stale.error?.message).toMatch(/v0/);
    expect(fresh).toEqual({ ok: true, value: { v1: "new" } });
  }, 60_000);
});
