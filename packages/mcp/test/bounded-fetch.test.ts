/**
 * boundedFetch against real HTTP servers on 127.0.0.1: every message an
 * upstream sends (a whole non-SSE reply, one SSE event) is held to a size,
 * whatever the chunking and line endings, and a long stream of small events
 * passes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { boundedFetch } from "../src/index.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Writes the chunks one by one, each flushed on its own, then ends (or not). */
function chunked(res: ServerResponse, type: string, chunks: readonly string[], end = true): void {
  res.writeHead(200, { "content-type": type });
  for (const c of chunks) res.write(c);
  if (end) res.end();
}

async function readAll(response: Response): Promise<string> {
  return await response.text();
}

describe("boundedFetch", () => {
  it("passes a reply within the bound unchanged, status and headers included", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(202, { "content-type": "application/json", "mcp-session-id": "s1" });
      res.end(JSON.stringify({ ok: "x".repeat(1000) }));
    });
    const refused: string[] = [];
    const response = await boundedFetch({ maxMessageBytes: 2000, onRefused: (m) => refused.push(m) })(url);
    expect(response.status).toBe(202);
    expect(response.headers.get("mcp-session-id")).toBe("s1");
    expect(JSON.parse(await readAll(response))).toEqual({ ok: "x".repeat(1000) });
    expect(refused).toEqual([]);
  });

  it("refuses a reply whose body runs over the bound, in whatever chunks it comes", async () => {
    const url = await serve((_req, res) => chunked(res, "application/json", Array(10).fill("y".repeat(300))));
    const refused: string[] = [];
    const response = await boundedFetch({ maxMessageBytes: 2000, onRefused: (m) => refused.push(m) })(url);
    await expect(readAll(response)).rejects.toThrow(/sent a reply over 2000 bytes/);
    expect(refused).toHaveLength(1);
  });

  it("refuses a reply that declares a length over the bound before reading it", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
      res.end("z".repeat(5000));
    });
    await expect(boundedFetch({ maxMessageBytes: 2000 })(url)).rejects.toThrow(
      /reply \(by its Content-Length\) over 2000 bytes/,
    );
  });

  it("passes many small SSE events whose sum is far over the bound, across LF, CRLF and CR endings", async () => {
    const event = (i: number, eol: string): string => `id: ${i}${eol}data: ${"e".repeat(100)}${eol}${eol}`;
    const endings = ["\n", "\r\n", "\r"];
    const chunks: string[] = [];
    for (let i = 0; i < 300; i++) chunks.push(event(i, endings[i % 3] as string));
    // Cut the text at odd places, so that line breaks (CR LF too) fall across chunks.
    const text = chunks.join("");
    const cuts: string[] = [];
    for (let at = 0; at < text.length; at += 37) cuts.push(text.slice(at, at + 37));
    const url = await serve((_req, res) => chunked(res, "text/event-stream", cuts));
    const body = await readAll(await boundedFetch({ maxMessageBytes: 200 })(url));
    expect(body).toBe(text);
  });

  it("refuses one SSE event over the bound, even when its lines are short", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `data: ${"d".repeat(40)}${i}\n`);
    const url = await serve((_req, res) => chunked(res, "text/event-stream", ["data: small\n\n", ...lines, "\n"]));
    const refused: string[] = [];
    const response = await boundedFetch({ maxMessageBytes: 1000, onRefused: (m) => refused.push(m) })(url);
    await expect(readAll(response)).rejects.toThrow(/sent an event over 1000 bytes/);
    expect(refused).toHaveLength(1);
  });

  it("holds an error reply to the bound as a whole, even when it is typed as a stream of small events", async () => {
    // The SDK reads a reply with an error status whole (response.text()), whatever its type, into its error message.
    const events = Array.from({ length: 300 }, (_, i) => `data: ${"e".repeat(100)}${i}\n\n`);
    const url = await serve((_req, res) => {
      res.writeHead(500, { "content-type": "text/event-stream" });
      for (const e of events) res.write(e);
      res.end();
    });
    const refused: string[] = [];
    const response = await boundedFetch({ maxMessageBytes: 2000, onRefused: (m) => refused.push(m) })(url);
    expect(response.status).toBe(500);
    await expect(readAll(response)).rejects.toThrow(/sent a reply over 2000 bytes/);
    expect(refused).toHaveLength(1);
  });

  it("refuses an event that never ends, without waiting for the stream to end", async () => {
    let writing = true;
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: ");
      const timer = setInterval(() => (writing ? res.write("w".repeat(4096)) : clearInterval(timer)), 1);
      res.on("close", () => clearInterval(timer));
    });
    const response = await boundedFetch({ maxMessageBytes: 64 * 1024 })(url);
    await expect(readAll(response)).rejects.toThrow(/sent an event over 65536 bytes/);
    writing = false;
  });
});
