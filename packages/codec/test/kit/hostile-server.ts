/**
 * A real HTTP server on 127.0.0.1 that answers every request the same hostile
 * way: a body that never ends, a body of a given size, or a redirect. Shared
 * by the tests of every HTTP read (codec/http, probe, eval, classify --ids).
 *
 * An endless body is bounded all the same: the server stops itself after
 * `stopAfterMs`, so a reader with no cap fails the test instead of eating the
 * machine. `closedByClient` says whether the client hung up first, which is
 * how a test sees that the connection was aborted rather than read to the end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Hostile =
  | { readonly kind: "endless"; readonly status?: number; readonly contentType?: string }
  | {
      readonly kind: "sized";
      readonly bytes: number;
      /** Send a Content-Length (default) or chunked with none. */
      readonly declare?: boolean;
      readonly status?: number;
      /** What the body is made of (repeated); a JSON string's inside by default. */
      readonly fill?: string;
      /** Written whole before the fill, counted in `bytes`. */
      readonly prefix?: string;
      readonly suffix?: string;
    }
  | { readonly kind: "redirect"; readonly status?: number; readonly location: string };

export interface HostileServer {
  readonly url: string;
  /** Requests received. */
  readonly hits: { readonly method: string; readonly url: string }[];
  /** Bytes of body written to each response so far. */
  readonly sent: number[];
  /** Per response: true when the client closed the connection before the server had finished or stopped. */
  readonly closedByClient: boolean[];
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

function answer(how: Hostile, res: ServerResponse, index: number, state: HostileServer, stopAfterMs: number): void {
  let finished = false;
  res.on("close", () => {
    state.closedByClient[index] = !finished;
  });
  const stop = setTimeout(() => {
    finished = true;
    res.destroy();
  }, stopAfterMs);
  res.on("close", () => clearTimeout(stop));
  const write = (text: string | Buffer): boolean => {
    state.sent[index] = (state.sent[index] ?? 0) + Buffer.byteLength(text);
    return res.write(text);
  };
  if (how.kind === "redirect") {
    finished = true;
    res.writeHead(how.status ?? 302, { location: how.location, "content-type": "text/plain" });
    res.end("moved");
    return;
  }
  if (how.kind === "endless") {
    res.writeHead(how.status ?? 200, { "content-type": how.contentType ?? "application/json" });
    const block = Buffer.alloc(CHUNK, 0x61);
    write('{"pad":"');
    const pump = (): void => {
      while (!res.destroyed && !finished) {
        if (!write(block)) {
          res.once("drain", pump);
          return;
        }
      }
    };
    pump();
    return;
  }
  const prefix = how.prefix ?? "";
  const suffix = how.suffix ?? "";
  const headers: Record<string, string | number> = { "content-type": "application/json" };
  if (how.declare !== false) headers["content-length"] = how.bytes;
  res.writeHead(how.status ?? 200, headers);
  let left = how.bytes - Buffer.byteLength(prefix) - Buffer.byteLength(suffix);
  const block = Buffer.from((how.fill ?? "a").repeat(Math.ceil(CHUNK / (how.fill ?? "a").length))).subarray(0, CHUNK);
  write(prefix);
  const pump = (): void => {
    while (!res.destroyed && left > 0) {
      const piece = left >= CHUNK ? block : block.subarray(0, left);
      left -= piece.length;
      if (!write(piece)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed && left <= 0) {
      finished = true;
      res.end(suffix);
      state.sent[index] = (state.sent[index] ?? 0) + Buffer.byteLength(suffix);
    }
  };
  pump();
}

export async function startHostileServer(how: Hostile, stopAfterMs = 3000): Promise<HostileServer> {
  const sockets = new Set<import("node:net").Socket>();
  const state = { url: "", hits: [], sent: [], closedByClient: [] } as unknown as HostileServer & { url: string };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = state.hits.length;
    state.hits.push({ method: req.method ?? "", url: req.url ?? "" });
    state.sent[index] = 0;
    // Read the request body away first, as a real server would.
    req.resume();
    req.on("end", () => answer(how, res, index, state, stopAfterMs));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server.close(() => done());
    });
  return state;
}

/** Resolves once every response the server began has closed (the client hung up, or the server stopped). */
export async function settled(server: HostileServer): Promise<void> {
  for (let i = 0; i < 300 && server.closedByClient.length < server.hits.length; i++)
    await new Promise((r) => setTimeout(r, 10));
}
