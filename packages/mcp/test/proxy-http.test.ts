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

  it("refuses both a URL and a command", async () => {
    const run = await runCli(["mcp-proxy", "--url", url, "--", "node", "server.js"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/either --url or a command/);
  });
});
