/**
 * The proxy for real: the built CLI as a child process, the reference MCP
 * servers behind it, an official-SDK client in front of it.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type Codec, compileCodec, TARGET_NAMES, type TargetName } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_RULES } from "../../codec/testkit/strict-rules.js";
import { codecName } from "../src/index.js";
import {
  alive,
  CHANGING_SERVER,
  type Connected,
  connect,
  connectProxy,
  REMOTE_REF_SERVER,
  runCli,
  serverBin,
  until,
  upstreamPid,
} from "./support/proxy.js";

const FILESYSTEM = serverBin("@modelcontextprotocol/server-filesystem");
const EVERYTHING = serverBin("@modelcontextprotocol/server-everything");

/** What the prompts asked of a sampling client were: its answers say "sampled: <prompt>". */
const sampledPrompts: string[] = [];

/**
 * A client that lists roots, samples and elicits, as the proxy declares to its upstream (server-everything offers
 * get-roots-list, trigger-sampling-request and trigger-elicitation-request to such a client only): a scripted
 * sampler (no model here) and an elicitation always accepted with a name.
 */
const askedClient: { capabilities: ClientCapabilities; setUp: (client: Client) => void } = {
  capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } },
  setUp: (client) => {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [] }));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const asked = request.params.messages.map((m) => ("text" in m.content ? m.content.text : "")).join(" ");
      sampledPrompts.push(asked);
      return { model: "scripted", role: "assistant", content: { type: "text", text: `sampled: ${asked}` } };
    });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ana Lima" } }));
  },
};

/** The upstream's own tools, read straight from it (no proxy), by a client that asks what the proxy's asks. */
async function upstreamTools(args: readonly string[]): Promise<Tool[]> {
  const direct = await connect(process.execPath, args, undefined, askedClient);
  try {
    return (await direct.client.listTools()).tools;
  } finally {
    await direct.client.close();
  }
}

function codecFor(tool: Tool, target: TargetName, presence: "tagged" | "compact" = "tagged"): Codec {
  const compiled = compileCodec(tool.inputSchema, { name: codecName(tool.name), target, presence });
  if (!compiled.ok) throw new Error(`${tool.name}: ${compiled.error.message}`);
  return compiled.value;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

describe("mcp-proxy between a client that lists roots and server-filesystem, which serves the roots it is given", () => {
  const dirs: string[] = [];
  let proxy: Connected | undefined;
  afterAll(async () => {
    await proxy?.client.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("gives the upstream the client's roots once the client is there, and the new ones at each roots/list_changed", async () => {
    for (let i = 0; i < 3; i++) dirs.push(await realpath(await mkdtemp(join(tmpdir(), `strictwire-roots-${i}-`))));
    const [started, first, second] = dirs as [string, string, string];
    let roots = [first];
    proxy = await connectProxy([], [process.execPath, FILESYSTEM, started], {
      capabilities: { roots: { listChanged: true } },
      setUp: (client) =>
        client.setRequestHandler(ListRootsRequestSchema, async () => ({
          roots: roots.map((d) => ({ uri: pathToFileURL(d).href, name: basename(d) })),
        })),
    });
    const client = proxy.client;
    const allowed = async () => textOf(await client.callTool({ name: "list_allowed_directories", arguments: {} }));
    // The upstream asked for roots when the proxy initialized it, before this client was there; told of them after.
    await until(async () => (await allowed()).includes(first), 10_000);
    expect(await allowed()).not.toContain(started);
    roots = [second];
    await client.sendRootsListChanged();
    await until(async () => (await allowed()).includes(second), 10_000);
    expect(await allowed()).not.toContain(first);
  }, 60_000);
});

describe("mcp-proxy over server-filesystem", () => {
  let dir: string;
  let proxy: Connected;
  let originals: Map<string, Tool>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "strictwire-mcp-"));
    originals = new Map((await upstreamTools([FILESYSTEM, dir])).map((t) => [t.name, t]));
    proxy = await connectProxy(["--target", "openai"], [process.execPath, FILESYSTEM, dir]);
  });
  afterAll(async () => {
    await proxy?.client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("lists every tool with its wire schema, each within OpenAI's strict rules", async () => {
    const { tools } = await proxy.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...originals.keys()].sort());
    for (const tool of tools) {
      const original = originals.get(tool.name);
      if (original === undefined) throw new Error(`unexpected tool ${tool.name}`);
      expect(tool.inputSchema, tool.name).toEqual(codecFor(original, "openai").wire);
      expect(STRICT_RULES.openai(tool.inputSchema), tool.name).toEqual([]);
      expect(tool.description).toBe(original.description);
    }
  });

  it("writes a real file from encoded wire arguments and reads it back", async () => {
    const path = join(dir, "note.txt");
    const write = codecFor(originals.get("write_file")!, "openai").encode({ path, content: "strict\nwire" });
    if (!write.ok) throw new Error(write.error.message);
    const written = await proxy.client.callTool({ name: "write_file", arguments: write.value });
    expect(written.isError).not.toBe(true);
    expect(await readFile(path, "utf8")).toBe("strict\nwire");

    const read = codecFor(originals.get("read_text_file")!, "openai").encode({ path });
    if (!read.ok) throw new Error(read.error.message);
    const result = await proxy.client.callTool({ name: "read_text_file", arguments: read.value });
    expect(textOf(result)).toBe("strict\nwire");
    // The upstream's result comes back unchanged, structured content included.
    expect(result.structuredContent).toEqual({ content: "strict\nwire" });
  });

  it("answers a malformed call with feedback and never calls the upstream", async () => {
    const path = join(dir, "never.txt");
    // A member the tool does not declare: the closed wire object refuses it.
    const result = await proxy.client.callTool({ name: "write_file", arguments: { path, content: "x", mode: "w" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/do not follow the tool's parameter schema/);
    // An optional member left without its presence tag is refused too.
    const untagged = await proxy.client.callTool({ name: "read_text_file", arguments: { path } });
    expect(untagged.isError).toBe(true);
    expect(textOf(untagged)).toMatch(/head|tail/);
    expect(existsSync(path)).toBe(false);
  });

  it("passes the upstream's own tool errors through unchanged", async () => {
    const read = codecFor(originals.get("read_text_file")!, "openai").encode({ path: "/definitely/outside.txt" });
    if (!read.ok) throw new Error(read.error.message);
    const result = await proxy.client.callTool({ name: "read_text_file", arguments: read.value });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Access denied|outside allowed/i);
  });
});

describe("mcp-proxy over server-everything", () => {
  const tagged = new Map<TargetName, Connected>();
  let originals: Map<string, Tool>;

  beforeAll(async () => {
    originals = new Map((await upstreamTools([EVERYTHING, "stdio"])).map((t) => [t.name, t]));
    await Promise.all(
      TARGET_NAMES.map(async (target) => {
        tagged.set(target, await connectProxy(["--target", target], [process.execPath, EVERYTHING, "stdio"]));
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([...tagged.values()].map((p) => p.client.close()));
  });

  it("lists every tool strictly for each target, within that target's rules", async () => {
    for (const target of TARGET_NAMES) {
      const { tools } = await tagged.get(target)!.client.listTools();
      expect(tools.map((t) => t.name).sort(), target).toEqual([...originals.keys()].sort());
      for (const tool of tools) {
        expect(STRICT_RULES[target](tool.inputSchema), `${target} ${tool.name}`).toEqual([]);
        // An MCP input schema is an object: its wire form is that object itself, never wrapped.
        expect(tool.inputSchema.properties, `${target} ${tool.name}`).not.toHaveProperty("arguments");
      }
      expect(tagged.get(target)!.stderr()).toContain(
        `${originals.size} of ${originals.size} tools strict for ${target}`,
      );
    }
  });

  it("calls a tool with encoded arguments and gets the upstream's real answer", async () => {
    const proxy = tagged.get("anthropic")!;
    const sum = codecFor(originals.get("get-sum")!, "anthropic").encode({ a: 2, b: 3 });
    if (!sum.ok) throw new Error(sum.error.message);
    const result = await proxy.client.callTool({ name: "get-sum", arguments: sum.value });
    expect(textOf(result)).toMatch(/2 and 3 is 5/);
    const wrong = await proxy.client.callTool({ name: "get-sum", arguments: { a: "2", b: 3 } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/\/a/);
  });

  it("brings the upstream's progress notifications back under the client's token", async () => {
    const proxy = tagged.get("openai")!;
    const run = codecFor(originals.get("trigger-long-running-operation")!, "openai").encode({
      duration: 0.2,
      steps: 2,
    });
    if (!run.ok) throw new Error(run.error.message);
    const seen: number[] = [];
    const result = await proxy.client.callTool(
      { name: "trigger-long-running-operation", arguments: run.value },
      undefined,
      {
        onprogress: (p) => seen.push(p.progress),
      },
    );
    expect(result.isError).not.toBe(true);
    // Step 1 comes 100 ms before the answer. Step 2 comes right before it, and the SDK's client
    // drops a progress notification read in the same chunk as its answer, at either hop.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([1, 2].slice(0, seen.length));
  });

  it("passes resources and prompts through", async () => {
    const proxy = tagged.get("openai")!;
    const direct = await connect(process.execPath, [EVERYTHING, "stdio"]);
    try {
      const [viaProxy, straight] = await Promise.all([proxy.client.listResources(), direct.client.listResources()]);
      expect(viaProxy.resources.length).toBeGreaterThan(0);
      expect(viaProxy).toEqual(straight);
      const uri = viaProxy.resources[0]!.uri;
      expect(await proxy.client.readResource({ uri })).toEqual(await direct.client.readResource({ uri }));
      const prompts = await proxy.client.listPrompts();
      expect(prompts).toEqual(await direct.client.listPrompts());
      const simple = prompts.prompts.find((p) => (p.arguments ?? []).every((a) => a.required !== true));
      if (simple === undefined) throw new Error("no prompt without required arguments");
      expect(await proxy.client.getPrompt({ name: simple.name })).toEqual(
        await direct.client.getPrompt({ name: simple.name }),
      );
    } finally {
      await direct.client.close();
    }
  });
});

describe("mcp-proxy passes server-everything's sampling and elicitation requests to its client", () => {
  let originals: Map<string, Tool>;
  let asking: Connected | undefined;
  let plain: Connected | undefined;
  let formOnly: Connected | undefined;
  beforeAll(async () => {
    originals = new Map((await upstreamTools([EVERYTHING, "stdio"])).map((t) => [t.name, t]));
    [asking, plain, formOnly] = await Promise.all([
      connectProxy(["--target", "openai"], [process.execPath, EVERYTHING, "stdio"], askedClient),
      connectProxy(["--target", "openai"], [process.execPath, EVERYTHING, "stdio"]),
      connectProxy(["--target", "openai"], [process.execPath, EVERYTHING, "stdio"], {
        capabilities: { elicitation: {} },
        setUp: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" })),
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([asking?.client.close(), plain?.client.close(), formOnly?.client.close()]);
  });

  const encoded = (name: string, value: object) => {
    const wire = codecFor(originals.get(name)!, "openai").encode(value);
    if (!wire.ok) throw new Error(wire.error.message);
    return wire.value;
  };

  it("a tool that samples gets the client's answer; one that elicits gets what the client gave", async () => {
    const sampled = await asking!.client.callTool({
      name: "trigger-sampling-request",
      arguments: encoded("trigger-sampling-request", { prompt: "strict wire", maxTokens: 20 }),
    });
    expect(sampled.isError).not.toBe(true);
    expect(sampledPrompts.some((p) => p.includes("strict wire"))).toBe(true);
    expect(textOf(sampled)).toContain("sampled: ");
    expect(textOf(sampled)).toContain("strict wire");
    const elicited = await asking!.client.callTool({
      name: "trigger-elicitation-request",
      arguments: encoded("trigger-elicitation-request", {}),
    });
    expect(elicited.isError).not.toBe(true);
    expect(textOf(elicited)).toContain("Ana Lima");
  }, 30_000);

  it("a client that declares neither: the upstream is told so, and the tool says why", async () => {
    // The proxy declared both to the upstream before it knew its client, so the tools are listed.
    const names = (await plain!.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("trigger-sampling-request");
    const sampled = await plain!.client.callTool({
      name: "trigger-sampling-request",
      arguments: encoded("trigger-sampling-request", { prompt: "x", maxTokens: 5 }),
    });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toContain("the proxy's client does not support sampling");
    const elicited = await plain!.client.callTool({
      name: "trigger-elicitation-request",
      arguments: encoded("trigger-elicitation-request", {}),
    });
    expect(elicited.isError).toBe(true);
    expect(textOf(elicited)).toContain("the proxy's client does not support elicitation");
  }, 30_000);

  it("a URL elicitation reaches only a client that declares URL elicitation", async () => {
    const args = encoded("trigger-url-elicitation", { url: "https://example.com/consent", message: "Open it" });
    const refused = await formOnly!.client.callTool({ name: "trigger-url-elicitation", arguments: args });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("the proxy's client does not support URL elicitation");
    const answered = await asking!.client.callTool({ name: "trigger-url-elicitation", arguments: args });
    expect(answered.isError).not.toBe(true);
  }, 30_000);
});

describe("mcp-proxy lifecycle", () => {
  it("recompiles on tools/list_changed and forwards the notification", async () => {
    const proxy = await connectProxy([], [process.execPath, CHANGING_SERVER]);
    try {
      let changed = 0;
      proxy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      expect((await proxy.client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "grow"]);
      const none = {};
      await proxy.client.callTool({ name: "grow", arguments: none });
      await until(() => changed > 0);
      const { tools } = await proxy.client.listTools();
      const late = tools.find((t) => t.name === "late_tool");
      if (late === undefined) throw new Error("late_tool not listed after list_changed");
      expect(STRICT_RULES.openai(late.inputSchema)).toEqual([]);
      // The map travels as entries on the wire and reaches the upstream as the object it declared.
      const call = { labels: { state: "present", value: [{ key: "team", value: "core" }] }, note: { state: "absent" } };
      const result = await proxy.client.callTool({ name: "late_tool", arguments: call });
      expect(result.structuredContent, JSON.stringify(result)).toEqual({ received: { labels: { team: "core" } } });
    } finally {
      await proxy.client.close();
    }
  });

  it("survives the upstream being killed: the client gets errors and the proxy exits", async () => {
    const proxy = await connectProxy([], [process.execPath, CHANGING_SERVER]);
    await proxy.client.listTools();
    const closed = new Promise<void>((done) => {
      proxy.client.onclose = () => done();
    });
    process.kill(upstreamPid(proxy.stderr()), "SIGKILL");
    const call = proxy.client.callTool({
      name: "echo",
      arguments: { text: "x", times: { state: "absent" } },
    });
    await expect(call).rejects.toThrow();
    await closed;
    expect(await proxy.exited).toBe(2);
    expect(proxy.stderr()).toMatch(/upstream server closed/);
  });

  it("shuts the upstream down when its client closes", async () => {
    const proxy = await connectProxy([], [process.execPath, CHANGING_SERVER]);
    await proxy.client.listTools();
    const pid = upstreamPid(proxy.stderr());
    await proxy.client.close();
    expect(await proxy.exited).toBe(0);
    await until(() => !alive(pid));
  });

  it("reports a tool whose schema cannot be compiled once, and passes it through unchanged", async () => {
    const proxy = await connectProxy([], [process.execPath, REMOTE_REF_SERVER]);
    try {
      const tool = (await proxy.client.listTools()).tools.find((t) => t.name === "fetch_remote");
      expect(tool?.inputSchema).toEqual({ type: "object", properties: { x: { $ref: "https://example.com/x.json" } } });
      await proxy.client.listTools();
      const lines = proxy
        .stderr()
        .split("\n")
        .filter((l) => l.includes("fetch_remote"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/passes through unchanged: remote-ref/);
      // Unchanged means the upstream judges its calls: the original form reaches it.
      const result = await proxy.client.callTool({ name: "fetch_remote", arguments: { x: 1 } });
      expect(result.structuredContent).toEqual({ received: { x: 1 } });
    } finally {
      await proxy.client.close();
    }
  });

  it("exits 2 with a message when the upstream cannot start or quits before answering", async () => {
    const missing = await runCli(["mcp-proxy", "--", "/nonexistent/strictwire-mcp-server"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot reach the upstream server \/nonexistent/);
    const quits = await runCli(["mcp-proxy", "--", process.execPath, "-e", "process.exit(3)"]);
    expect(quits.code).toBe(2);
    expect(quits.stderr).toMatch(/cannot reach the upstream server/);
  });

  it("refuses a missing upstream command as a usage error", async () => {
    const run = await runCli(["mcp-proxy"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give the upstream server's command after --/);
  });
});
