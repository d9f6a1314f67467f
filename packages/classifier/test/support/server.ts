/** A real HTTP server on 127.0.0.1 that serves stored responses the way the API does. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Reply {
  readonly status: number;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer only after this long. */
  readonly delayMs?: number;
}

/** Given the 1-based attempt number for this id, what to answer. */
export type Route = (attempt: number) => Reply;

export interface Hit {
  readonly id: string;
  readonly method: string;
  readonly authorization: string | undefined;
  readonly at: number;
}

export interface StoredServer {
  /** What OPENAI_BASE_URL would be: http://127.0.0.1:port/v1 */
  readonly baseUrl: string;
  readonly hits: Hit[];
  /** The most requests this server held open at once. */
  readonly maxInFlight: () => number;
  close(): Promise<void>;
}

export const json = (value: unknown, status = 200): Reply => ({
  status,
  body: JSON.stringify(value),
  headers: { "content-type": "application/json" },
});

export async function startStoredServer(routes: Readonly<Record<string, Route>>): Promise<StoredServer> {
  const hits: Hit[] = [];
  const attempts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;

  const answer = (res: ServerResponse, reply: Reply): void => {
    inFlight -= 1;
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? "");
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const match = /^\/v1\/responses\/([^/?]+)$/.exec(req.url ?? "");
    const id = match ? decodeURIComponent(match[1]!) : "";
    hits.push({ id, method: req.method ?? "", authorization: req.headers.authorization, at: Date.now() });
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    const route = routes[id];
    const reply = route ? route(attempt) : json({ error: { message: "No response found" } }, 404);
    if (!reply.delayMs) {
      answer(res, reply);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer(res, reply);
    }, reply.delayMs);
    timers.add(timer);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hits,
    maxInFlight: () => maxInFlight,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A stored Responses API object with one call to charge. */
export function storedResponse(id: string, args: string, strict = true): unknown {
  return {
    id,
    object: "response",
    status: "completed",
    tools: [
      {
        type: "function",
        name: "charge",
        strict,
        parameters: {
          type: "object",
          additionalProperties: false,
          required: ["amount_cents"],
          properties: { amount_cents: { type: "integer" } },
        },
      },
    ],
    output: [{ type: "function_call", name: "charge", call_id: `call_${id}`, arguments: args }],
  };
}
