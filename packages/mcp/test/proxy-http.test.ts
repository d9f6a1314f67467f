/**
 * mcp-proxy --url: the upstream is a real Streamable HTTP MCP server (the SDK's
 * transport on 127.0.0.1), the proxy the built CLI as a child process.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { compileCodec } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_RULES } from "../../codec/testkit/strict-rules.js";
import { changingServer, ECHO } from "./fixtures/changing-server.mjs";
import { connectProxy, runCli } from "./support/proxy.js";

/** A real MCP server over Streamable HTTP on 127.0.0.1 (one transport serves one session, so one per test). */
async function httpUpstream(options: { json?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const mcp = changingServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    ...(options.json === true ? { enableJsonResponse: true } : {}),
  });
  await mcp.connect(transport);
  const server = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/**
 * A real MCP server over Streamable HTTP on 127.0.0.1 that fails a tools/call of echo whose text names how:
 * "end" ends its event stream mid-event, "break" destroys the socket mid-event, "accept" answers 202 and nothing.
 * Every other request reaches the SDK's transport as it came.
 */
async function cuttingUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const mcp = changingServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body: unknown = text === "" ? undefined : JSON.parse(text);
    const call = body as { id?: number; method?: string; params?: { arguments?: { text?: string } } } | undefined;
    const how = call?.method === "tools/call" ? call.params?.arguments?.text : undefined;
    if (how === "accept") {
      res.writeHead(202).end();
      return;
    }
    if (how === "end" || how === "break") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${call?.id},"result":{"content":[{"type":"te`);
      if (how === "end") res.end();
      else setTimeout(() => res.destroy(), 50);
      return;
    }
    void transport.handleRequest(req, res, body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

describe("mcp-proxy --url over Streamable HTTP", () => {
  let http: HttpServer;
  let url: string;

  beforeAll(async () => {
    const mcp = changingServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await mcp.connect(transport);
    http = createServer((req, res) => void transport.handleRequest(req, res));
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((done) => http.close(done));
  });

  it("lists the server's tools strictly and forwards decoded calls", async () => {
    const proxy = await connectProxy(["--url", url, "--target", "gemini"]);
    try {
      const { tools } = await proxy.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo", "grow"]);
      for (const tool of tools) expect(STRICT_RULES.gemini(tool.inputSchema), tool.name).toEqual([]);
      const echo = compileCodec(ECHO.inputSchema, { name: "echo", target: "gemini" });
      if (!echo.ok) throw new Error(echo.error.message);
      const call = echo.value.encode({ text: "ab", times: 2 });
      if (!call.ok) throw new Error(call.error.message);
      const result = await proxy.client.callTool({ name: "echo", arguments: call.value });
      expect(result.content, JSON.stringify(result)).toEqual([{ type: "text", text: "abab" }]);
      // times is at most 3: the contract is enforced before the upstream sees the call.
      const over = { arguments: { ...(call.value as object), times: 4 } };
      const refused = await proxy.client.callTool({ name: "echo", arguments: over });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/times/);
      expect(await proxy.client.readResource({ uri: "memo://one" })).toEqual({
        contents: [{ uri: "memo://one", mimeType: "text/plain", text: "contents of memo://one" }],
      });
    } finally {
      await proxy.client.close();
    }
    expect(await proxy.exited).toBe(0);
  });

  it("exits 2 with a message when the URL does not answer", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const run = await runCli(["mcp-proxy", "--url", `http://127.0.0.1:${port}/mcp`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot reach the upstream server/);
  });

  it("ends the session, saying why, when the upstream sends an event over --max-message-bytes", async () => {
    const upstream = await httpUpstream();
    const proxy = await connectProxy(["--url", upstream.url, "--max-message-bytes", "65536"]);
    const echo = compileCodec(ECHO.inputSchema, { name: "echo" });
    if (!echo.ok) throw new Error(echo.error.message);
    const call = (text: string) => {
      const encoded = echo.value.encode({ text, times: 3 });
      if (!encoded.ok) throw new Error(encoded.error.message);
      return proxy.client.callTool({ name: "echo", arguments: encoded.value });
    };
    try {
      // Messages within the bound pass as before.
      expect((await call("ab")).content).toEqual([{ type: "text", text: "ababab" }]);
      // The reply repeats the text three times: about 90 KB, over the bound.
      const outcome = await call("x".repeat(30_000)).then(
        (result) => ({ answered: result }),
        (error: unknown) => ({ failed: String(error) }),
      );
      expect(outcome).not.toHaveProperty("answered.content.0.text", "x".repeat(90_000));
    } finally {
      await proxy.client.close();
      await upstream.close();
    }
    expect(await proxy.exited).toBe(2);
    expect(proxy.stderr()).toMatch(
      /the upstream server sent an event over 65536 bytes \(http:\/\/127\.0\.0\.1:\d+\/mcp\); refused/,
    );
    expect(proxy.stderr()).toMatch(/the upstream server closed; closing the proxy/);
  });

  it("refuses a JSON reply over --max-message-bytes from an upstream that answers in JSON", async () => {
    const upstream = await httpUpstream({ json: true });
    try {
      const proxy = await connectProxy(["--url", upstream.url, "--max-message-bytes", "65536"]);
      try {
        expect((await proxy.client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "grow"]);
        const echo = compileCodec(ECHO.inputSchema, { name: "echo" });
        if (!echo.ok) throw new Error(echo.error.message);
        const encoded = echo.value.encode({ text: "x".repeat(30_000), times: 3 });
        if (!encoded.ok) throw new Error(encoded.error.message);
        await proxy.client.callTool({ name: "echo", arguments: encoded.value }).catch(() => undefined);
      } finally {
        await proxy.client.close();
      }
      expect(await proxy.exited).toBe(2);
      expect(proxy.stderr()).toMatch(/the upstream server sent a reply (\(by its Content-Length\) )?over 65536 bytes/);
    } finally {
      await upstream.close();
    }
  });

  it("exits 2 when the upstream's first answer is an event that never ends", async () => {
    const endless = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message\ndata: ");
      const timer = setInterval(() => res.write("w".repeat(8192)), 1);
      res.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((done) => endless.listen(0, "127.0.0.1", done));
    try {
      const port = (endless.address() as AddressInfo).port;
      const run = await runCli(["mcp-proxy", "--url", `http://127.0.0.1:${port}/mcp`, "--max-message-bytes", "100000"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/sent an event over 100000 bytes/);
    } finally {
      endless.closeAllConnections();
      await new Promise((done) => endless.close(done));
    }
  });

  it("holds an error reply typed as an event stream to --max-message-bytes as a whole", async () => {
    // The SDK reads an error reply whole into its error message: small events would otherwise add up without bound.
    const failing = createServer((_req, res) => {
      res.writeHead(500, { "content-type": "text/event-stream" });
      for (let i = 0; i < 2000; i++) res.write(`data: ${"e".repeat(100)}\n\n`);
      res.end();
    });
    await new Promise<void>((done) => failing.listen(0, "127.0.0.1", done));
    try {
      const port = (failing.address() as AddressInfo).port;
      const run = await runCli(["mcp-proxy", "--url", `http://127.0.0.1:${port}/mcp`, "--max-message-bytes", "65536"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/sent a reply over 65536 bytes/);
      expect(run.stderr.length).toBeLessThan(65536);
    } finally {
      failing.closeAllConnections();
      await new Promise((done) => failing.close(done));
    }
  });

  it("answers a call with an error when the upstream's reply stream ends, breaks, or never comes", async () => {
    const upstream = await cuttingUpstream();
    const proxy = await connectProxy(["--url", upstream.url]);
    const echo = compileCodec(ECHO.inputSchema, { name: "echo" });
    if (!echo.ok) throw new Error(echo.error.message);
    const call = (text: string) => {
      const encoded = echo.value.encode({ text, times: 1 });
      if (!encoded.ok) throw new Error(encoded.error.message);
      return proxy.client.callTool({ name: "echo", arguments: encoded.value }).then(
        (result) => ({ answered: result }),
        (error: unknown) => ({ failed: String(error) }),
      );
    };
    try {
      // The SDK resumes only a stream that carried an event id: these left the call pending until the client gave up.
      expect(await call("end")).toEqual({
        failed: expect.stringMatching(/the upstream server's reply stream ended before its answer to request \d+/),
      });
      expect(await call("break")).toEqual({
        failed: expect.stringMatching(
          /the upstream server's reply stream broke \(.*\) before its answer to request \d+/,
        ),
      });
      expect(await call("accept")).toEqual({
        failed: expect.stringMatching(/the upstream server accepted request \d+ \(202\) without answering it/),
      });
      // The session goes on.
      expect(await call("ok")).toEqual({
        answered: expect.objectContaining({ content: [{ type: "text", text: "ok" }] }),
      });
    } finally {
      await proxy.client.close();
      await upstream.close();
    }
    expect(await proxy.exited).toBe(0);
  }, 240_000);

  it("refuses a --max-message-bytes that is not a positive integer", async () => {
    const run = await runCli(["mcp-proxy", "--url", url, "--max-message-bytes", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-message-bytes must be an integer of at least 1 in decimal digits, not "0"/);
  });

  it("refuses both a URL and a command", async () => {
    const run = await runCli(["mcp-proxy", "--url", url, "--", "node", "server.js"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/either --url or a command/);
  });
});
