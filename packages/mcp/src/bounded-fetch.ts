/**
 * A fetch for the Streamable HTTP client transport that holds every message an
 * upstream server sends to a size. The SDK reads a JSON reply (and any reply
 * with an error status) whole and an SSE event until its blank line, with no
 * bound: an upstream that never ends a
 * message would grow this process without limit. Over the bound, the body
 * fails (the SDK's request fails with it) and `onRefused` says why, so the
 * caller can close the upstream instead of waiting on it.
 */

/** The default bound: the tool list's own (`DEFAULT_LIST_LIMITS.maxBytes`), the largest message a proxy must read. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface BoundedFetchOptions {
  /** A JSON reply, or one SSE event, of more bytes than this is refused (default 33,554,432). */
  readonly maxMessageBytes?: number;
  /** The fetch that goes to the network (default: the global one). */
  readonly fetch?: FetchLike;
  /** Told once per refused message, in words for a log. */
  readonly onRefused?: (message: string) => void;
}

/** Wraps a fetch so that no message from the upstream exceeds `maxMessageBytes`. */
export function boundedFetch(options: BoundedFetchOptions = {}): FetchLike {
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const inner = options.fetch ?? ((url, init) => fetch(url, init));
  return async (url, init) => {
    const response = await inner(url, init);
    if (response.body === null) return response;
    const refuse = (what: string): Error => {
      const message = `the upstream server sent ${what} over ${max} bytes (${String(url)}); refused`;
      options.onRefused?.(message);
      return new Error(message);
    };
    // An error reply is read whole by the SDK (response.text(), into its error message), whatever its type:
    // only a successful event stream is read event by event.
    const events =
      response.ok && (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    // A reply that says it is too large is refused before a byte of it is read.
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (!events && declared > max) {
      await response.body.cancel().catch(() => undefined);
      throw refuse("a reply (by its Content-Length)");
    }
    const body = response.body.pipeThrough(events ? eventBound(max, refuse) : wholeBound(max, refuse));
    // A Response built again keeps status and headers; the transport reads only those and the body.
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A JSON (or any non-SSE) reply: its whole body is one message. */
function wholeBound(max: number, refuse: (what: string) => Error): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(refuse("a reply"));
      else controller.enqueue(chunk);
    },
  });
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * An SSE stream: each event (the bytes up to a blank line; lines end in LF,
 * CR or CRLF) is one message, so a long-lived stream of small events passes.
 */
function eventBound(max: number, refuse: (what: string) => Error): TransformStream<Uint8Array, Uint8Array> {
  let inEvent = 0;
  // The bytes since the last line break: 0 means a line break ends an event (a blank line).
  let lineLength = 0;
  // A CR just ended a line: an LF right after it belongs to the same line break.
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        if (byte === LF && afterCr) {
          afterCr = false;
          continue;
        }
        afterCr = byte === CR;
        if (byte === LF || byte === CR) {
          if (lineLength === 0) inEvent = 0;
          lineLength = 0;
          continue;
        }
        lineLength++;
        if (++inEvent > max) {
          controller.error(refuse("an event"));
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
