/**
 * An upstream's tool list, read page by page within limits. The upstream is
 * untrusted: a server that paginates forever, loops on a cursor or sends an
 * enormous list stops the reading with a typed reason, never a crash or an
 * endless loop, and the tools read before the stop are kept.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { MAX_TIMER_MS } from "@strictwire/codec/http";

export interface ListLimits {
  /** Pages requested at most (`tools/list` requests per listing). */
  readonly maxPages: number;
  /** Tools kept at most; the rest are not read. */
  readonly maxTools: number;
  /** UTF-8 bytes of the pages as JSON text, summed over the listing. */
  readonly maxBytes: number;
  /** Milliseconds the whole listing may take, every page included. */
  readonly timeoutMs: number;
}

/**
 * Room for a 10,000-tool server in pages of 10, far below what an endless one would take. 30 s for
 * the whole listing: under the SDK's 60 s request timeout, so that a client's first tools/list (which
 * waits for the listing) is answered before its own timeout gives up.
 */
export const DEFAULT_LIST_LIMITS: ListLimits = {
  maxPages: 1_000,
  maxTools: 10_000,
  maxBytes: 33_554_432,
  timeoutMs: 30_000,
};

export type ListErrorCode =
  | "too-many-pages"
  | "too-many-tools"
  | "list-too-large"
  | "repeated-cursor"
  | "list-timeout"
  | "upstream-failed";

/** Why a listing stopped before the server's last page. */
export interface ListError {
  readonly code: ListErrorCode;
  /** Where in the page that stopped it ("/nextCursor", "/tools"; "" for the listing as a whole). */
  readonly path: string;
  readonly message: string;
}

export interface Listing {
  /** The tools read, in the server's order (all of them when `stopped` is absent). */
  readonly tools: Tool[];
  /** Set when the listing stopped early; `tools` then holds what was read before. */
  readonly stopped?: ListError;
}

/** Every tool the server lists, across its pages, within the limits. Never throws. */
export async function listAllTools(client: Client, limits: Partial<ListLimits> = {}): Promise<Listing> {
  const { maxPages, maxTools, maxBytes, timeoutMs } = { ...DEFAULT_LIST_LIMITS, ...limits };
  // One deadline for all pages: a server slow on each page, or silent on one, cannot hold the listing longer.
  const deadline = Date.now() + timeoutMs;
  const tools: Tool[] = [];
  const late = (page: number): Listing => {
    const name = JSON.stringify((client.getServerVersion()?.name ?? "upstream").slice(0, 80));
    const message = `the upstream server ${name} did not finish listing its tools within ${timeoutMs} ms (the limit): tools/list page ${page} was not answered in time (${tools.length} tools read)`;
    return { tools, stopped: { code: "list-timeout", path: "", message } };
  };
  const seen = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > maxPages) {
      const message = `the server still had a next page after ${maxPages} pages (the limit; ${tools.length} tools read)`;
      return { tools, stopped: { code: "too-many-pages", path: "", message } };
    }
    const left = deadline - Date.now();
    if (left <= 0) return late(page);
    // A signal per page: the SDK never removes its listener, and aborting a shared one would cancel every page sent.
    const expiry = new AbortController();
    const timer = setTimeout(() => expiry.abort(), Math.min(left, MAX_TIMER_MS));
    let result: Awaited<ReturnType<Client["listTools"]>>;
    try {
      // The deadline ends the request (and cancels it upstream), not the SDK's own per-request timeout.
      const params = cursor !== undefined ? { cursor } : {};
      result = await client.listTools(params, { signal: expiry.signal, timeout: MAX_TIMER_MS });
    } catch (error) {
      if (expiry.signal.aborted) return late(page);
      const message = `tools/list page ${page} failed: ${error instanceof Error ? error.message : String(error)}`;
      return { tools, stopped: { code: "upstream-failed", path: "", message } };
    } finally {
      clearTimeout(timer);
    }
    let text: string;
    try {
      text = JSON.stringify(result);
    } catch (error) {
      // JSON.parse reads any depth; writing the page again overflows the stack on a value nested some thousands deep.
      const message = `tools/list page ${page} could not be written as JSON (${error instanceof Error ? error.message : String(error)}): a value in it nests too deep`;
      return { tools, stopped: { code: "upstream-failed", path: "", message } };
    }
    bytes += Buffer.byteLength(text);
    if (bytes > maxBytes) {
      const message = `the tool list passed ${maxBytes} bytes of JSON at page ${page} (the limit; ${tools.length} tools read)`;
      return { tools, stopped: { code: "list-too-large", path: "", message } };
    }
    const room = maxTools - tools.length;
    tools.push(...result.tools.slice(0, room));
    if (result.tools.length > room) {
      const message = `the server lists more than ${maxTools} tools (the limit); the first ${maxTools} are kept`;
      return { tools, stopped: { code: "too-many-tools", path: "/tools", message } };
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return { tools };
    if (seen.has(cursor)) {
      const message = `page ${page} gave a cursor already followed (${JSON.stringify(cursor.slice(0, 80))}): the server's pages loop`;
      return { tools, stopped: { code: "repeated-cursor", path: "/nextCursor", message } };
    }
    seen.add(cursor);
  }
}

/** A stopped listing as one stderr line. */
export function describeStop(stopped: ListError, kept: number): string {
  return `the upstream's tool list stopped early: ${stopped.code}: ${stopped.message}; serving the ${kept} tools read`;
}
