/**
 * answeredFetch against real HTTP servers on 127.0.0.1: a request whose event
 * stream ends without its answer gets a JSON-RPC error written into the stream,
 * unless the stream answered it (whatever the line endings and chunking) or
 * carried an event id the SDK resumes from.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answeredFetch } from "../src/index.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

/** Answers every POST with these chunks as an event stream, each flushed on its own, then ends. */
async function serve(chunks: readonly string[]): Promise<string> {
  server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const c of chunks) res.write(c);
    res.end();
  });
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const post = (id: number | string) => ({
  method: "POST",
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: {} }),
});

describe("answeredFetch", () => {
  it("passes a stream that answered the request unchanged, its CRLF split across chunks", async () => {
    const chunks = ['event: message\r\ndata: {"jsonrpc":"2.0","id":7,', '"result":{}}\r', "\n\r", "\n"];
    const url = await serve(chunks);
    expect(await (await answeredFetch()(url, post(7))).text()).toBe(chunks.join(""));
  });

  it("adds an error for a request the stream ended without answering", async () => {
    const url = await serve(['data: {"jsonrpc":"2.0","id":8,"result":{}}\n\n', 'data: {"jsonrpc":"2.0","id":"x","res']);
    const text = await (await answeredFetch()(url, post("x"))).text();
    const added = text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .at(-1);
    expect(JSON.parse(added?.slice(6) ?? "null")).toEqual({
      jsonrpc: "2.0",
      id: "x",
      error: { code: -32000, message: `the upstream server's reply stream ended before its answer to request x` },
    });
  });

  it("leaves a stream with an event id to the SDK, which resumes it", async () => {
    const chunks = ["id: e1\ndata: \n\n", 'data: {"jsonrpc":"2.0","id":9,"res'];
    const url = await serve(chunks);
    expect(await (await answeredFetch()(url, post(9))).text()).toBe(chunks.join(""));
  });

  it("leaves a POST that carries no request (a notification) as it is", async () => {
    const url = await serve(["data: x"]);
    const notification = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/x" }) };
    expect(await (await answeredFetch()(url, notification)).text()).toBe("data: x");
  });
});
