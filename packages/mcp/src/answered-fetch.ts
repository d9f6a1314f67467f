/**
 * A fetch for the Streamable HTTP client transport that never leaves a request
 * unanswered because the upstream's reply did not come. The SDK resumes only
 * an event stream that carried an event id; one that ends or breaks before the
 * answer without one, or a 202 given to a request, leaves the request pending
 * for good (the proxy sets no deadline of its own, so its client waits until
 * its own timeout). Here the missing answer is written into the reply as a
 * JSON-RPC error, which the SDK hands to the request.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { FetchLike } from "./bounded-fetch.js";

type Id = string | number;

/** Wraps a fetch so that every JSON-RPC request it posts gets an answer, the upstream's or an error. */
export function answeredFetch(inner: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    const ids = requestIds(init?.body);
    if (ids.length === 0 || !response.ok) return response;
    if (response.status === 202) {
      const errors = ids.map((id) =>
        missing(id, `the upstream server accepted request ${id} (202) without answering it`),
      );
      await response.body?.cancel().catch(() => undefined);
      return new Response(errors.join(""), { status: 200, headers: { "content-type": "text/event-stream" } });
    }
    const events = (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    if (!events || response.body === null) return response;
    const body = answering(response.body, new Set(ids));
    // A Response built again keeps status and headers; the transport reads only those and the body.
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The ids of the requests a POST carries (a message or a batch); none for notifications, answers and GETs. */
function requestIds(body: unknown): Id[] {
  if (typeof body !== "string") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: Id[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== "object" || message === null || !("method" in message) || !("id" in message)) continue;
    const { id } = message as { id: unknown };
    if (typeof id === "string" || typeof id === "number") ids.push(id);
  }
  return ids;
}

/** An SSE event holding a JSON-RPC error for `id`, after a blank line that ends any event cut short. */
function missing(id: Id, message: string): string {
  const error = { jsonrpc: "2.0", id, error: { code: ErrorCode.ConnectionClosed, message } };
  return `\n\nevent: message\ndata: ${JSON.stringify(error)}\n\n`;
}

/** The stream as it came; when it ends or breaks with requests unanswered and no event id to resume from, an error each. */
function answering(source: ReadableStream<Uint8Array>, pending: Set<Id>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const watch = new EventWatch(pending);
  const encoder = new TextEncoder();
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, how: string): void => {
    try {
      // A stream with an event id is the SDK's to resume; it asks again for the answer.
      if (!watch.resumable)
        for (const id of pending)
          controller.enqueue(
            encoder.encode(missing(id, `the upstream server's reply stream ${how} before its answer to request ${id}`)),
          );
      controller.close();
    } catch {
      // Cancelled by its reader meanwhile: no one is left to tell.
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finish(controller, `broke (${error instanceof Error ? error.message : String(error)})`);
        return;
      }
      if (chunk.done) {
        finish(controller, "ended");
        return;
      }
      watch.feed(chunk.value);
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Reads the events as they pass: which pending requests they answer, and whether one carried an id. */
class EventWatch {
  resumable = false;
  private readonly decoder = new TextDecoder();
  private carry = "";
  private data: string[] = [];

  constructor(private readonly pending: Set<Id>) {}

  feed(bytes: Uint8Array): void {
    let text = this.carry + this.decoder.decode(bytes, { stream: true });
    // A CR at the end may be the first half of a CRLF: it is held until the next chunk says.
    const held = text.endsWith("\r") ? "\r" : "";
    if (held !== "") text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    this.carry = (lines.pop() ?? "") + held;
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line === "") {
      this.event(this.data.join("\n"));
      this.data = [];
    } else if (line.startsWith("data:")) this.data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    else if (line.startsWith("id:") && line.slice(3).trim() !== "") this.resumable = true;
  }

  private event(data: string): void {
    if (data === "") return;
    try {
      const message = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown };
      const id = message.id as Id;
      if ("result" in message || "error" in message) this.pending.delete(id);
    } catch {
      // Not JSON: the SDK reports it; the request it was meant to answer stays pending here.
    }
  }
}
