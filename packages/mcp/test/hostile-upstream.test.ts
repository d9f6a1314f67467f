/**
 * Hostile upstreams, as real MCP servers (the SDK over stdio, in a child
 * process) behind the built CLI: endless and looping pagination, a huge tool
 * list, a wide tool, a storm of tools/list_changed, and a `__proto__`
 * argument member. The proxy must answer, report, and stop when asked,
 * whatever the upstream does. Timeouts here only guard against a hang.
 */
import { spawn } from "node:child_process";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CreateMessageRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { startProxy, strictMcpTools } from "../src/index.js";
import { childDepths, tooDeepToStringify } from "./support/depth.js";
import { alive, CLI, connect, connectProxy, HOSTILE_SERVER, runCli, until, upstreamPid } from "./support/proxy.js";

const hostile = (...args: string[]): string[] => [process.execPath, HOSTILE_SERVER, ...args];

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

describe("mcp-proxy in front of a hostile upstream", () => {
  it("stops an endless pagination at the page limit, reports it, and serves what it read", async () => {
    const proxy = await connectProxy(["--max-pages", "200"], hostile("endless"));
    try {
      const { tools } = await proxy.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo"]);
      await until(() => proxy.stderr().includes("too-many-pages"));
      expect(proxy.stderr()).toMatch(/tool list stopped early: too-many-pages: .*after 200 pages/);
      // The tool read before the stop is strict and callable.
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "hi", times: { state: "absent" } } });
      expect(call.isError).not.toBe(true);
      expect(call.structuredContent).toEqual({ received: { text: "hi" } });
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("refuses a repeated cursor", async () => {
    const proxy = await connectProxy([], hostile("repeat"));
    try {
      expect((await proxy.client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      await until(() => proxy.stderr().includes("repeated-cursor"));
      expect(proxy.stderr()).toMatch(/repeated-cursor: page 3 gave a cursor already followed \("a"\)/);
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("stops a listing the upstream never finishes at --list-timeout, names the upstream, and keeps serving", async () => {
    // Never answers tools/list: the client's first tools/list is answered (with no tools) once the deadline passes.
    const silent = await connectProxy(["--list-timeout", "1000"], hostile("silent"));
    try {
      expect((await silent.client.listTools()).tools).toEqual([]);
      await until(() => silent.stderr().includes("0 of 0 tools strict"));
      expect(silent.stderr()).toMatch(
        /list-timeout: the upstream server "hostile-silent" did not finish listing its tools within 1000 ms \(the limit\): tools\/list page 1 was not answered/,
      );
    } finally {
      await silent.client.close();
    }
    // Answers the first page with a next cursor, then never the next page: the page read is served.
    const stall = await connectProxy(["--list-timeout", "1000"], hostile("stall"));
    try {
      expect((await stall.client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      await until(() => stall.stderr().includes("list-timeout"));
      expect(stall.stderr()).toMatch(/"hostile-stall" .* page 2 was not answered in time \(1 tools read\)/);
      const call = await stall.client.callTool({ name: "echo", arguments: { text: "hi", times: { state: "absent" } } });
      expect(call.structuredContent).toEqual({ received: { text: "hi" } });
    } finally {
      await stall.client.close();
    }
  }, 60_000);

  it("writes what the upstream names with its control characters escaped: nothing reaches the terminal raw", async () => {
    // ESC and the C1 CSI both start a terminal escape sequence; JSON quoting escapes the first only.
    const named = await connectProxy(
      ["--list-timeout", "500"],
      hostile("named", "evil\u001b]0;x\u0007\u009b2J\nforged line"),
    );
    try {
      await named.client.listTools();
      await until(() => named.stderr().includes("list-timeout"));
      expect(named.stderr()).toContain("evil\\u001b]0;x\\u0007\\u009b2J\\nforged line");
      expect(named.stderr()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    } finally {
      await named.client.close();
    }
  }, 60_000);

  it("answers initialize and stops at once when its client closes, while the upstream is still paging", async () => {
    // 50 ms a page and 1,000 pages: the listing would take nearly a minute.
    const proxy = await connectProxy([], hostile("endless", "50"));
    // connectProxy returned: initialize was answered while the listing runs.
    const listing = proxy.client.listTools().catch((error: unknown) => error);
    await proxy.client.close();
    expect(await proxy.exited).toBe(0);
    await listing;
    // It stopped before the listing had run its course.
    expect(proxy.stderr()).not.toMatch(/too-many-pages/);
  }, 60_000);

  it("keeps the first --max-tools tools of a huge list, and stops a list over --max-list-bytes", async () => {
    const capped = await connectProxy(["--max-tools", "150"], hostile("many", "400"));
    try {
      const { tools } = await capped.client.listTools();
      expect(tools).toHaveLength(150);
      expect(tools[0]?.name).toBe("echo");
      expect(tools[149]?.name).toBe("tool_148");
      await until(() => capped.stderr().includes("too-many-tools"));
      await until(() => capped.stderr().includes("150 of 150 tools strict"));
    } finally {
      await capped.client.close();
    }
    const bytes = await connectProxy(["--max-list-bytes", "30000"], hostile("many", "400"));
    try {
      const { tools } = await bytes.client.listTools();
      // Each page of 100 tools is about 20 KB: the second passes the limit, the first is served.
      expect(tools).toHaveLength(101);
      await until(() => bytes.stderr().includes("list-too-large"));
      expect(bytes.stderr()).toMatch(/list-too-large: the tool list passed 30000 bytes of JSON at page 2/);
    } finally {
      await bytes.client.close();
    }
  }, 120_000);

  it("lists 1,000 tools, all strict, from pages of 100", async () => {
    const proxy = await connectProxy([], hostile("many", "1000"));
    try {
      const { tools } = await proxy.client.listTools();
      expect(tools).toHaveLength(1001);
      await until(() => proxy.stderr().includes("1001 of 1001 tools strict"));
      const codec = compileCodec(
        {
          type: "object",
          properties: { id_999: { type: "string" }, count: { type: "integer", minimum: 0 }, note: { type: "string" } },
          required: ["id_999"],
        },
        { name: "tool_999" },
      );
      if (!codec.ok) throw new Error(codec.error.message);
      expect(tools.find((t) => t.name === "tool_999")?.inputSchema).toEqual(codec.value.wire);
      const args = codec.value.encode({ id_999: "x", count: 2 });
      if (!args.ok) throw new Error(args.error.message);
      const call = await proxy.client.callTool({ name: "tool_999", arguments: args.value as Record<string, unknown> });
      expect(call.structuredContent).toEqual({ received: { id_999: "x", count: 2 } });
    } finally {
      await proxy.client.close();
    }
  }, 300_000);

  it("passes a tool over the compile time budget through, reported, and serves the others meanwhile", async () => {
    // 1,600 optional properties (4,801 on the wire, under OpenAI's 5,000) take about 2.7 s to compile on an
    // idle two-core machine: well over the 1 s budget, which a small tool meets by far.
    const proxy = await connectProxy(["--compile-timeout", "1000", "--compile-workers", "1"], hostile("wide", "1600"));
    try {
      const { tools } = await proxy.client.listTools();
      const wide = tools.find((t) => t.name === "wide");
      // Passed through unchanged: the upstream's own schema, all 1,600 properties.
      expect(Object.keys((wide?.inputSchema.properties ?? {}) as object)).toHaveLength(1600);
      expect(wide?.inputSchema.additionalProperties).toBeUndefined();
      await until(() => proxy.stderr().includes('tool "wide" passes through'));
      expect(proxy.stderr()).toMatch(
        /tool "wide" passes through unchanged: schema-too-large: .*took longer than the budget of 1000 ms/,
      );
      // One worker: it held echo's codec when it was stopped, so echo is compiled again for its call, and decoded.
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(call.structuredContent).toEqual({ received: { text: "ok" } });
      const refused = await proxy.client.callTool({ name: "echo", arguments: { text: "ok" } });
      expect(refused.isError).toBe(true);
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("passes a tool over the schema size budget through without compiling it", async () => {
    const proxy = await connectProxy(["--max-schema-bytes", "2000"], hostile("wide", "200"));
    try {
      const { tools } = await proxy.client.listTools();
      expect(tools.find((t) => t.name === "wide")?.inputSchema.additionalProperties).toBeUndefined();
      await until(() => proxy.stderr().includes('tool "wide" passes through'));
      expect(proxy.stderr()).toMatch(/schema-too-large: .*bytes of JSON, over the budget of 2000/);
      expect(tools.find((t) => t.name === "echo")?.inputSchema.properties).toHaveProperty("times.anyOf");
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("survives a storm of tools/list_changed, recompiling only the tool that changed", async () => {
    const proxy = await connectProxy([], hostile("storm", "300"));
    try {
      await proxy.client.listTools();
      const stormed = await proxy.client.callTool({ name: "storm", arguments: {} });
      expect(textOf(stormed)).toBe("version 300");
      // The last listing the storm causes has version 300; until it is done, an earlier one is served.
      for (;;) {
        const { tools } = await proxy.client.listTools();
        if (tools.find((t) => t.name === "moving")?.description === "Version 300.") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const relists = proxy
        .stderr()
        .split("\n")
        .filter((l) => l.includes("relisted"));
      expect(relists.length).toBeGreaterThan(0);
      // Only "moving" changes from one listing to the next: the other two come from the cache.
      for (const line of relists) expect(line).toMatch(/relisted 3 tools: [01] compiled, [23] unchanged/);
      const call = await proxy.client.callTool({
        name: "echo",
        arguments: { text: "after", times: { state: "absent" } },
      });
      expect(call.structuredContent).toEqual({ received: { text: "after" } });
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("answers a call whose upstream result nests too deep to be written again, and keeps the tools read", async () => {
    // JSON.parse reads any depth; JSON.stringify (the proxy writing its answer) overflows its stack on this one.
    const proxy = await connectProxy([], hostile("deep", String(tooDeepToStringify())));
    try {
      // The page holding the deep tool stops the listing; the page before it is served.
      expect((await proxy.client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      await until(() => proxy.stderr().includes("upstream-failed"));
      expect(proxy.stderr()).toMatch(/tool list stopped early: upstream-failed: tools\/list page 2 .*nests too deep/);
      // A name not listed is forwarded as it came; its answer cannot be written, so the client gets an error.
      const outcome = await proxy.client.callTool({ name: "deep", arguments: {} }).then(
        (result) => ({ answered: result }),
        (error: unknown) => ({ failed: String(error) }),
      );
      expect(outcome).toEqual({ failed: expect.stringMatching(/the answer could not be written as JSON/) });
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(call.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("passes through a tool nested too deep to hand to a compile worker, and serves the others", async () => {
    // A depth JSON.stringify writes and a worker's structured clone cannot copy (on Node 20 about 4,100 and
    // 3,250): halfway between, as measured for this Node, so that the proxy's own frames do not matter.
    const { stringify, clone } = childDepths();
    expect(clone).toBeLessThan(stringify);
    const proxy = await connectProxy([], hostile("deep", String(Math.floor((stringify + clone) / 2))));
    try {
      expect((await proxy.client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "deep"]);
      await until(() => proxy.stderr().includes('tool "deep" passes through'));
      expect(proxy.stderr()).toMatch(/tool "deep" passes through unchanged: schema-too-large: .*compile worker/);
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(call.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
  }, 120_000);

  it("answers a call the upstream never answers with an error at --request-timeout, and serves on", async () => {
    const proxy = await connectProxy(["--request-timeout", "1000"], hostile("wide", "2"));
    try {
      // The client would wait far longer: the proxy's deadline answers it.
      const outcome = await proxy.client
        .callTool({ name: "hang", arguments: {} }, undefined, { timeout: 100_000 })
        .then(
          (result) => ({ answered: result }),
          (error: unknown) => ({ failed: String(error) }),
        );
      expect(outcome).toEqual({
        failed:
          'McpError: MCP error -32001: the upstream server "hostile-wide" did not answer tools/call within 1000 ms (the limit); the request was cancelled upstream',
      });
      const call = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(call.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("takes an upstream that closes its stdout and lives on as gone: the call in flight is answered, exit 2", async () => {
    const proxy = await connectProxy([], hostile("mute"));
    const pid = upstreamPid(proxy.stderr());
    await proxy.client.listTools();
    // The upstream ends its output and never answers; the client would wait far longer than the proxy takes.
    const outcome = await proxy.client.callTool({ name: "mute", arguments: {} }, undefined, { timeout: 100_000 }).then(
      (result) => ({ answered: result }),
      (error: unknown) => ({ failed: String(error) }),
    );
    expect(outcome).toEqual({
      failed:
        'McpError: MCP error -32000: the upstream server "hostile-mute" is gone: it closed before answering tools/call',
    });
    // As when the upstream exits: the proxy closes, shuts the still running child down, and exits 2.
    expect(await proxy.exited).toBe(2);
    expect(proxy.stderr()).toMatch(/the upstream server closed; closing the proxy/);
    expect(alive(pid)).toBe(false);
  }, 60_000);

  it("gives up on an upstream that never answers initialize at --init-timeout: exit 2, the reason typed", async () => {
    const run = await runCli(["mcp-proxy", "--init-timeout", "500", "--", ...hostile("deaf")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "init-timeout: the upstream server did not answer initialize within 500 ms (the limit)",
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("bounds a flood of upstream notifications at --max-notifications, says so once, and keeps the last resource update", async () => {
    const proxy = await connectProxy(["--max-notifications", "50"], hostile("chatty", "5000"));
    try {
      const logs: unknown[] = [];
      const updated: unknown[] = [];
      proxy.client.fallbackNotificationHandler = async (notification) => {
        if (notification.method === "notifications/message") logs.push(notification.params?.data);
        if (notification.method === "notifications/resources/updated") updated.push(notification.params?.uri);
      };
      const call = await proxy.client.callTool({ name: "chatty", arguments: {} });
      expect(textOf(call)).toBe("sent 5000");
      // The update sent after the flood is held past the rate, not dropped: it comes once the rate allows.
      await until(() => updated.length > 0);
      expect(updated).toEqual(["file:///after"]);
      // 50 a second: 5,000 would take 100 s to pass; the flood is over far sooner, and the first 50 went through.
      expect(logs.length).toBeLessThan(5000);
      expect(logs.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
      const said = proxy
        .stderr()
        .split("\n")
        .filter((line) => line.includes("faster than 50 a second"));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/first held back: notifications\/message\): past that rate they are dropped/);
      // The session goes on.
      const echo = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(echo.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("writes the SDK's reports of stray progress at most ten a second, each clipped, the rest counted, and keeps serving", async () => {
    const proxy = await connectProxy([], hostile("stray", "2000"));
    try {
      const call = await proxy.client.callTool({ name: "stray", arguments: {} });
      expect(textOf(call)).toBe("sent 2000");
      const echo = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(echo.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
    const lines = () => proxy.stderr().split("\n");
    const reports = () => lines().filter((line) => line.includes("unknown token"));
    const counted = () =>
      lines()
        .map((line) => /(\d+) more error reports were not written \(at most 10 a second\)/.exec(line)?.[1])
        .reduce((sum, n) => sum + (n === undefined ? 0 : Number(n)), 0);
    // Every report is written or counted, the count said by the close at the latest.
    await until(() => reports().length + counted() === 2000, 20_000);
    // 2,000 reports, each naming a 2 KB message, were one line each, as long as the message.
    expect(reports().length).toBeGreaterThan(0);
    expect(reports().length).toBeLessThan(200);
    for (const line of reports()) expect(line.length).toBeLessThan(700);
  }, 60_000);

  it("passes at most --max-client-requests of the upstream's requests of a kind to the client at once, refuses the rest at once, and says so once", async () => {
    // The client holds each sampling request until it holds three (or a second has passed), then answers them all.
    let holding = 0;
    let most = 0;
    let asked = 0;
    const held: (() => void)[] = [];
    const release = (): void => {
      for (const answer of held.splice(0)) answer();
    };
    const proxy = await connectProxy(["--max-client-requests", "3"], hostile("asks", "12"), {
      capabilities: { sampling: {}, roots: {} },
      setUp: (client) => {
        // Counted apart from the prompts: listed while three samplings are held.
        client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work" }] }));
        client.setRequestHandler(CreateMessageRequestSchema, async () => {
          asked++;
          most = Math.max(most, ++holding);
          await new Promise<void>((done) => {
            held.push(done);
            if (held.length >= 3) release();
            else setTimeout(release, 1000);
          });
          holding--;
          return { role: "assistant", content: { type: "text", text: "sampled" }, model: "scripted" };
        });
      },
    });
    try {
      const outcome = JSON.parse(textOf(await proxy.client.callTool({ name: "asks", arguments: {} }))) as {
        answered: number;
        errors: string[];
        roots: string[];
      };
      expect(outcome.roots).toEqual(["file:///work"]);
      expect(most).toBe(3);
      expect(outcome.answered).toBe(asked);
      expect(outcome.answered).toBeGreaterThanOrEqual(3);
      expect(outcome.answered).toBeLessThan(12);
      expect(outcome.errors).toEqual([
        "MCP error -32603: the proxy's client has 3 sampling requests from this server unanswered (the limit): refused, ask again once one is answered",
      ]);
      await until(() => proxy.stderr().includes("(the limit)"));
      const said = proxy
        .stderr()
        .split("\n")
        .filter((line) => line.includes("at once (the limit)"));
      expect(said).toEqual([
        expect.stringContaining(
          "the upstream asks the client more than 3 things of a kind at once (the limit): the rest are refused",
        ),
      ]);
      // Once answered, the upstream may ask again.
      const again = JSON.parse(textOf(await proxy.client.callTool({ name: "asks", arguments: {} }))) as {
        answered: number;
      };
      expect(again.answered).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("bounds a flood of the client's notifications at --max-notifications on their way up, says so once, and keeps serving", async () => {
    const proxy = await connectProxy(["--max-notifications", "50"], hostile("wide", "2"));
    try {
      // Notifications the proxy has no use for of its own go upstream as they came, within the rate.
      for (let n = 0; n < 5000; n++) await proxy.client.notification({ method: "notifications/flood", params: { n } });
      // Written after the flood on the same stdio: the upstream has read every notification that passed by then.
      const heard = JSON.parse(textOf(await proxy.client.callTool({ name: "heard", arguments: {} }))) as unknown[];
      expect(heard.length).toBeGreaterThanOrEqual(50);
      expect(heard.length).toBeLessThan(5000);
      expect(heard.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, n) => n));
      const said = proxy
        .stderr()
        .split("\n")
        .filter((line) => line.includes("faster than 50 a second"));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        /the client sends notifications faster than 50 a second, or faster than the upstream reads them \(first held back: notifications\/flood\)/,
      );
      // The session goes on.
      const echo = await proxy.client.callTool({ name: "echo", arguments: { text: "ok", times: { state: "absent" } } });
      expect(echo.structuredContent).toEqual({ received: { text: "ok" } });
    } finally {
      await proxy.client.close();
    }
  }, 60_000);

  it("refuses a __proto__ member the closed wire object does not declare, and never calls the upstream", async () => {
    const proxy = await connectProxy([], hostile("wide", "2"));
    try {
      await proxy.client.listTools();
      // JSON.parse makes __proto__ an own member, so the client writes it on the wire.
      const args = JSON.parse('{"text":"x","times":{"state":"absent"},"__proto__":{"state":"absent"}}');
      const result = await proxy.client.callTool({ name: "echo", arguments: args });
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(textOf(result)).toMatch(/__proto__/);
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await proxy.client.close();
    }
  }, 60_000);
});

describe("mcp-proxy limit flags", () => {
  it("refuses a limit that is not a positive integer as a usage error", async () => {
    for (const [flag, value] of [
      ["--max-pages", "0"],
      ["--max-tools", "-1"],
      ["--list-timeout", "0"],
      ["--request-timeout", "x"],
      ["--init-timeout", "-5"],
      ["--max-notifications", "0"],
      ["--max-client-requests", "-2"],
      ["--compile-timeout", "1.5"],
      ["--compile-workers", "many"],
    ]) {
      const run = await runCli(["mcp-proxy", flag!, value!, "--", process.execPath, HOSTILE_SERVER, "repeat"]);
      expect(run.code, flag).toBe(2);
      expect(run.stderr).toContain(`${flag} must be an integer `);
      expect(run.stderr).toContain(` in decimal digits, not ${JSON.stringify(value)}`);
    }
  }, 60_000);

  it("refuses a timeout no Node timer holds (it would fire at once), and more workers than threads worth starting", async () => {
    for (const [flag, value, most] of [
      ["--compile-timeout", "99999999999", "2147483647"],
      ["--decode-timeout", "2147483648", "2147483647"],
      ["--init-timeout", "2147483648", "2147483647"],
      ["--compile-workers", "100000", "64"],
    ]) {
      const run = await runCli(["mcp-proxy", flag!, value!, "--", process.execPath, HOSTILE_SERVER, "repeat"]);
      expect(run.code, flag).toBe(2);
      expect(run.stderr).toContain(`${flag} must be an integer from 1 to ${most} in decimal digits, not "${value}"`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});

describe("startProxy in front of a hostile upstream", () => {
  it("returns init-timeout as a value, not a throw, when initialize is not answered by initTimeoutMs, and closes the upstream", async () => {
    const upstream = new StdioClientTransport({ command: process.execPath, args: [HOSTILE_SERVER, "deaf"] });
    const [downstream] = InMemoryTransport.createLinkedPair();
    const starting = startProxy({ upstream, downstream, initTimeoutMs: 300 });
    // The child is spawned before startProxy's first wait.
    const pid = upstream.pid;
    if (pid === null) throw new Error("the upstream was not started");
    expect(await starting).toEqual({
      ok: false,
      error: {
        code: "init-timeout",
        path: "",
        message: "the upstream server did not answer initialize within 300 ms (the limit)",
      },
    });
    await until(() => !alive(pid));
  }, 60_000);

  it("returns init-failed as a value, not a throw, for an upstream that ends before it answers initialize", async () => {
    // A real process that exits at once: its output ends with initialize unanswered.
    const upstream = new StdioClientTransport({ command: process.execPath, args: ["-e", "process.exit(3)"] });
    const [downstream] = InMemoryTransport.createLinkedPair();
    const started = await startProxy({ upstream, downstream, initTimeoutMs: 30_000 });
    expect(started).toMatchObject({ ok: false, error: { code: "init-failed", path: "" } });
    expect(started.ok ? "" : started.error.message).toMatch(/^initialize failed: /);
  }, 60_000);

  it("returns the proxy as a value once the upstream answers initialize", async () => {
    const upstream = new StdioClientTransport({ command: process.execPath, args: [HOSTILE_SERVER, "wide", "2"] });
    const [downstream] = InMemoryTransport.createLinkedPair();
    const started = await startProxy({ upstream, downstream });
    if (!started.ok) throw new Error(`not started: ${started.error.message}`);
    await started.value.ready;
    expect(started.value.tools().map((t) => t.tool.name)).toContain("echo");
    await started.value.close();
  }, 60_000);
});

describe("strictMcpTools in front of a hostile upstream", () => {
  it("stops an endless or looping listing with a typed reason and keeps the tools read", async () => {
    const endless = await connect(process.execPath, [HOSTILE_SERVER, "endless"]);
    try {
      const { tools, stopped } = await strictMcpTools(endless.client, { api: "openai-chat", list: { maxPages: 20 } });
      expect(tools.map((t) => t.function.name)).toEqual(["echo"]);
      expect(stopped).toEqual({
        code: "too-many-pages",
        path: "",
        message: "the server still had a next page after 20 pages (the limit; 1 tools read)",
      });
    } finally {
      await endless.client.close();
    }
    const looping = await connect(process.execPath, [HOSTILE_SERVER, "repeat"]);
    try {
      const { tools, stopped } = await strictMcpTools(looping.client, { api: "anthropic" });
      expect(tools.map((t) => t.name)).toEqual(["echo"]);
      expect(stopped?.code).toBe("repeated-cursor");
      expect(stopped?.path).toBe("/nextCursor");
    } finally {
      await looping.client.close();
    }
  }, 60_000);

  it("stops a listing past its deadline with a typed reason: a silent server, and an endless one of slow pages", async () => {
    const silent = await connect(process.execPath, [HOSTILE_SERVER, "silent"]);
    try {
      const { tools, stopped } = await strictMcpTools(silent.client, { api: "anthropic", list: { timeoutMs: 500 } });
      expect(tools).toEqual([]);
      expect(stopped).toEqual({
        code: "list-timeout",
        path: "",
        message:
          'the upstream server "hostile-silent" did not finish listing its tools within 500 ms (the limit): tools/list page 1 was not answered in time (0 tools read)',
      });
    } finally {
      await silent.client.close();
    }
    // 100 ms a page under the default 1,000 pages would take 100 s: the deadline ends it, not the page count.
    const slow = await connect(process.execPath, [HOSTILE_SERVER, "endless", "100"]);
    try {
      const { tools, stopped } = await strictMcpTools(slow.client, { api: "openai-chat", list: { timeoutMs: 1500 } });
      expect(tools.map((t) => t.function.name)).toEqual(["echo"]);
      expect(stopped?.code).toBe("list-timeout");
      expect(stopped?.message).toMatch(
        /^the upstream server "hostile-endless" did not finish listing its tools within 1500 ms/,
      );
    } finally {
      await slow.client.close();
    }
  }, 60_000);

  it("stops at a page that nests too deep to be measured, with a typed reason, and keeps the tools read", async () => {
    const deep = await connect(process.execPath, [HOSTILE_SERVER, "deep", String(tooDeepToStringify())]);
    try {
      const { tools, stopped } = await strictMcpTools(deep.client, { api: "openai-chat" });
      expect(tools.map((t) => t.function.name)).toEqual(["echo"]);
      expect(stopped?.code).toBe("upstream-failed");
      expect(stopped?.message).toMatch(/tools\/list page 2 .*nests too deep/);
    } finally {
      await deep.client.close();
    }
  }, 60_000);

  it("skips a schema over maxSchemaBytes, with the reason", async () => {
    const wide = await connect(process.execPath, [HOSTILE_SERVER, "wide", "200"]);
    try {
      const { tools, skipped, stopped } = await strictMcpTools(wide.client, {
        api: "openai-responses",
        maxSchemaBytes: 2000,
      });
      expect(stopped).toBeUndefined();
      expect(tools.map((t) => t.name)).toEqual(["echo"]);
      expect(skipped.map((s) => [s.name, s.reason.code])).toEqual([["wide", "schema-too-large"]]);
    } finally {
      await wide.client.close();
    }
  }, 60_000);
});

describe("mcp-proxy, its client gone from standard output", () => {
  it("keeps its own close: a reply that meets a closed pipe does not end it, the end of its input does, exit 0", async () => {
    const child = spawn(process.execPath, [CLI, "mcp-proxy", "--", ...hostile("repeat")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.on("error", () => undefined);
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("close", (code, signal) => done({ code, signal })),
    );
    const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    const answered = new Promise<void>((done) => child.stdout.once("data", () => done()));
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    await answered;
    // The client stops reading; the reply to its next request meets a closed pipe.
    child.stdout.destroy();
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "ping" });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    child.stdin.end();
    expect(await ended).toEqual({ code: 0, signal: null });
  }, 60_000);
});
