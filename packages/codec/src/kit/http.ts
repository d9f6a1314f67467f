/**
 * `@strictwire/codec/http`: talking to the user's endpoint with the user's
 * key, shared by every package that does (eval's probe and eval, the
 * classifier's `--ids`), so none can read without a cap, follow a redirect or
 * redact differently. Web standards only (fetch, streams, TextDecoder): no
 * Node import, nothing of the compiler.
 *
 * `fetchText` never follows a redirect (fetch would send the body and every
 * header but Authorization on to wherever it points) and reads the body as it
 * arrives, counting bytes: past the cap it stops reading and aborts the
 * request, so an endless or huge body costs at most the cap in memory.
 *
 * `redactKey` keeps a key out of text: every run of 8 or more of a key's
 * characters (a server may echo a prefix, a suffix or a middle), or, for a
 * key shorter than that, the key as a whole token only.
 */
import type { Result } from "../errors.js";

/** 4 MiB: far above any tool-call response, far below what would hurt the process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * The longest delay a timer waits (2^31 - 1 ms): a longer one fires at once. The bound of every timeout
 * and backoff the packages take (eval's, the MCP proxy's, the CLI's flags, `strictTool`'s `timeoutMs`).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** Chunks read one after another, `size` bytes in all, as one array. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

export type HttpReadErrorCode = "redirect" | "response-too-large";

export interface HttpReadError {
  readonly code: HttpReadErrorCode;
  /** The JSON pointer of what was refused: "" (the whole body). */
  readonly path: string;
  readonly message: string;
  readonly status: number;
  /** The cap that was exceeded, for `response-too-large`. */
  readonly maxBytes?: number;
  /** Where a redirect pointed, as host[:port] only. */
  readonly location?: string;
}

export interface HttpText {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export interface FetchTextInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /** Bytes of body read at most; DEFAULT_MAX_RESPONSE_BYTES when absent. */
  readonly maxBytes?: number;
}

/** Where a redirect points, as host[:port] only (a Location may carry credentials or a path worth keeping out of files). */
function redirectHost(from: string, location: string | null): string | undefined {
  if (location === null) return undefined;
  try {
    return new URL(location, from).host;
  } catch {
    return undefined;
  }
}

const tooLarge = (status: number, maxBytes: number, seen: string): { ok: false; error: HttpReadError } => ({
  ok: false,
  error: {
    code: "response-too-large",
    path: "",
    message: `HTTP ${status} response body ${seen} the cap of ${maxBytes} bytes; the connection was closed`,
    status,
    maxBytes,
  },
});

/**
 * A response's body, read as it arrives and counted: refused by its
 * Content-Length when that is over the cap, else as soon as the bytes read
 * pass it (the stream is then cancelled; `fetchText` also aborts the request).
 * Decoded as Response.text() decodes: UTF-8, a malformed sequence replaced.
 */
export async function readResponseText(response: Response, maxBytes: number): Promise<Result<string, HttpReadError>> {
  const { status } = response;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return tooLarge(status, maxBytes, `of ${declared} bytes (by its Content-Length) is over`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge(status, maxBytes, "is over");
      }
      chunks.push(value);
    }
  }
  return { ok: true, value: new TextDecoder().decode(concatBytes(chunks, size)) };
}

/**
 * One request, its body read within the cap. Resolves to a Result for what
 * the server answered (a body, a redirect, a body over the cap); rejects, as
 * fetch does, when the request fails (a refused connection, the signal
 * aborting it, a reset mid-body).
 */
export async function fetchText(url: string, init: FetchTextInit = {}): Promise<Result<HttpText, HttpReadError>> {
  const maxBytes = init.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // Our own controller, tied to the caller's: cancelling a body stream alone may leave the socket draining.
  const controller = new AbortController();
  const outer = init.signal;
  const relay = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) relay();
  outer?.addEventListener("abort", relay, { once: true });
  try {
    const response = await fetch(url, {
      ...(init.method !== undefined ? { method: init.method } : {}),
      ...(init.headers !== undefined ? { headers: init.headers } : {}),
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal: controller.signal,
      redirect: "manual",
    });
    const { status } = response;
    if (status >= 300 && status < 400) {
      controller.abort();
      const to = redirectHost(url, response.headers.get("location"));
      return {
        ok: false,
        error: {
          code: "redirect",
          path: "",
          message: `HTTP ${status} redirect${to !== undefined ? ` to ${to}` : ""}, not followed`,
          status,
          ...(to !== undefined ? { location: to } : {}),
        },
      };
    }
    const read = await readResponseText(response, maxBytes);
    if (!read.ok) controller.abort();
    return read.ok ? { ok: true, value: { status, headers: response.headers, text: read.value } } : read;
  } finally {
    outer?.removeEventListener("abort", relay);
  }
}

/** The marker that stands where a key, or a piece of one, was. */
export const REDACTED = "[redacted]";

/** A run of this many of a key's characters is taken for an echo of it; a key shorter than this is matched whole only. */
export const KEY_FRAGMENT = 8;

/** Characters a key is made of: a short key is a token only where none of these touch it. */
const KEY_CHAR = /[A-Za-z0-9._~+/=-]/;

function wholeTokens(text: string, key: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) {
    const before = text[at - 1];
    const after = text[at + key.length];
    if ((before !== undefined && KEY_CHAR.test(before)) || (after !== undefined && KEY_CHAR.test(after))) {
      // Not a token of its own: `gpt-x` keeps its `x`. Look again one character on.
      at = at - key.length + 1;
      continue;
    }
    out += text.slice(from, at) + REDACTED;
    from = at + key.length;
  }
  return out + text.slice(from);
}

/**
 * The text with the key taken out. A key of KEY_FRAGMENT characters or more:
 * every run of at least that many of its consecutive characters (a prefix, a
 * suffix, a middle, the whole) becomes one REDACTED. A shorter key cannot be
 * told from ordinary text by its pieces (a key `x`, a model `gpt-x`), so it is
 * redacted only where it stands as a whole token. An empty key changes nothing.
 */
export function redactKey(text: string, key: string): string {
  if (key === "" || text === "") return text;
  if (key.length < KEY_FRAGMENT) return text.includes(key) ? wholeTokens(text, key) : text;
  const grams = new Set<string>();
  for (let i = 0; i + KEY_FRAGMENT <= key.length; i++) grams.add(key.slice(i, i + KEY_FRAGMENT));
  // Every window of the text that is a window of the key is covered; overlapping windows join into one span.
  let out = "";
  let from = 0;
  let spanEnd = -1;
  for (let i = 0; i + KEY_FRAGMENT <= text.length; i++) {
    if (!grams.has(text.slice(i, i + KEY_FRAGMENT))) continue;
    if (i > spanEnd) {
      if (spanEnd >= 0) out += REDACTED;
      out += text.slice(from, i);
    }
    spanEnd = i + KEY_FRAGMENT;
    from = spanEnd;
  }
  if (spanEnd >= 0) out += REDACTED;
  return out + text.slice(from);
}
