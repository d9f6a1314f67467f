/**
 * Read-only fetch of stored responses: GET {base}/responses/{id}. Bounded in
 * time and in bytes per request (the body is read within a cap, and a
 * redirect is never followed: @strictwire/codec/http), retried on 429 and
 * 5xx, a few at a time, results in the order of the ids. The key goes into one header and nowhere else: no message
 * built here contains it, and no response body is ever echoed (an API's 401
 * body can quote part of the key).
 */

import { setTimeout as sleep } from "node:timers/promises";
import { parseJson, type Result } from "@strictwire/codec";
import { DEFAULT_MAX_RESPONSE_BYTES, fetchText } from "@strictwire/codec/http";
import { isPlainObject } from "@strictwire/codec/schema";
import { DOCUMENT_LIMITS } from "./input.js";
import { errorMessage } from "./json.js";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface FetchTuning {
  /** Per request, body included. */
  readonly timeoutMs?: number | undefined;
  /** Tries per id, the first included. */
  readonly maxAttempts?: number | undefined;
  readonly concurrency?: number | undefined;
  /** No wait between tries is longer than this, whatever Retry-After says. */
  readonly maxRetryWaitMs?: number | undefined;
  /** The first backoff; each later one doubles. */
  readonly baseDelayMs?: number | undefined;
  /** Bytes of one response body read at most; a longer body fails its id. */
  readonly maxResponseBytes?: number | undefined;
}

export interface FetchOptions extends FetchTuning {
  readonly apiKey: string;
  readonly baseUrl?: string | undefined;
}

/** Every tuning setting, filled in. */
export type ResolvedTuning = { readonly [K in keyof FetchTuning]-?: number };

export const DEFAULT_TUNING: ResolvedTuning = Object.freeze({
  timeoutMs: 30_000,
  maxAttempts: 4,
  concurrency: 4,
  maxRetryWaitMs: 30_000,
  baseDelayMs: 500,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
});

export type FetchOutcome =
  | { readonly id: string; readonly kind: "ok"; readonly response: unknown }
  | { readonly id: string; readonly kind: "not-found" }
  | { readonly id: string; readonly kind: "failed"; readonly reason: string };

/** 401 or 403: the key cannot read stored responses, so the run stops. */
export interface AuthFailure {
  readonly status: number;
  readonly message: string;
}

type Attempt = FetchOutcome | { readonly kind: "auth"; readonly status: number } | { readonly kind: "stopped" };

function setting(value: number | undefined, fallback: number, min: number): number {
  return value !== undefined && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
}

function tuningOf(options: FetchTuning): ResolvedTuning {
  return {
    timeoutMs: setting(options.timeoutMs, DEFAULT_TUNING.timeoutMs, 1),
    maxAttempts: setting(options.maxAttempts, DEFAULT_TUNING.maxAttempts, 1),
    concurrency: setting(options.concurrency, DEFAULT_TUNING.concurrency, 1),
    maxRetryWaitMs: setting(options.maxRetryWaitMs, DEFAULT_TUNING.maxRetryWaitMs, 0),
    baseDelayMs: setting(options.baseDelayMs, DEFAULT_TUNING.baseDelayMs, 0),
    maxResponseBytes: setting(options.maxResponseBytes, DEFAULT_TUNING.maxResponseBytes, 0),
  };
}

/** Milliseconds a Retry-After value asks for: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before try number attempt + 1: what the server asked for, else doubling backoff; capped. */
export function retryDelayMs(
  retryAfter: string | null | undefined,
  attempt: number,
  tuning: { readonly baseDelayMs: number; readonly maxRetryWaitMs: number },
  now: number = Date.now(),
): number {
  const asked = parseRetryAfter(retryAfter, now);
  const backoff = tuning.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(tuning.maxRetryWaitMs, asked ?? backoff);
}

function shouldRetry(status: number): boolean {
  return status === 429 || status >= 500;
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause !== undefined ? errorMessage(error.cause) : undefined;
  return `network error: ${cause ?? errorMessage(error)}`;
}

/**
 * One request's deadline, held by its timer. Not AbortSignal.timeout inside
 * AbortSignal.any: on Node 20 the collector can take that timeout signal
 * before it fires (nodejs/node#57736), and a request to a server that never
 * answers then waits with no deadline at all.
 */
function deadline(ms: number): { readonly signal: AbortSignal; readonly clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

interface Context {
  readonly url: (id: string) => string;
  readonly headers: Readonly<Record<string, string>>;
  readonly tuning: ResolvedTuning;
  readonly stop: AbortSignal;
}

function readBody(id: string, text: string): FetchOutcome {
  const parsed = parseJson(text, DOCUMENT_LIMITS);
  if (!parsed.ok) return { id, kind: "failed", reason: `the body is not JSON (${parsed.error.code})` };
  if (!isPlainObject(parsed.value)) return { id, kind: "failed", reason: "the body is not a JSON object" };
  return { id, kind: "ok", response: parsed.value };
}

async function fetchOne(id: string, context: Context): Promise<Attempt> {
  const { tuning, stop } = context;
  for (let attempt = 1; ; attempt += 1) {
    let reason: string;
    let retryAfter: string | null = null;
    const limit = deadline(tuning.timeoutMs);
    try {
      const signal = AbortSignal.any([limit.signal, stop]);
      const read = await fetchText(context.url(id), {
        headers: context.headers,
        signal,
        maxBytes: tuning.maxResponseBytes,
      });
      // Neither is retried: the same server would answer the same way.
      if (!read.ok) {
        const raise = read.error.code === "response-too-large" ? " (--max-response-bytes raises it)" : "";
        return { id, kind: "failed", reason: `${read.error.message}${raise}` };
      }
      const response = read.value;
      if (response.status >= 200 && response.status < 300) return readBody(id, response.text);
      if (response.status === 404) return { id, kind: "not-found" };
      if (response.status === 401 || response.status === 403) return { kind: "auth", status: response.status };
      if (!shouldRetry(response.status)) return { id, kind: "failed", reason: `HTTP ${response.status}` };
      reason = `HTTP ${response.status}`;
      retryAfter = response.headers.get("retry-after");
    } catch (error) {
      if (stop.aborted) return { kind: "stopped" };
      reason = failureReason(error, tuning.timeoutMs);
    } finally {
      limit.clear();
    }
    if (attempt >= tuning.maxAttempts) {
      return { id, kind: "failed", reason: `${reason}, after ${attempt} attempt(s)` };
    }
    try {
      await sleep(retryDelayMs(retryAfter, attempt, tuning), undefined, { signal: stop });
    } catch {
      return { kind: "stopped" };
    }
  }
}

export function authMessage(status: number): string {
  return `${status} from OpenAI: this needs a project key that can read stored responses`;
}

export type StreamedOutcome = FetchOutcome | ({ readonly kind: "denied" } & AuthFailure);

/**
 * Every id's outcome, in the ids' order, as they arrive: at most
 * `concurrency` requests open, and at most a few times that many outcomes
 * held back waiting for a slower one before them, so memory stays bounded
 * whatever the number of ids. A 401 or 403 stops the whole run (every other
 * id would fail the same way): it is the last outcome, `denied`.
 */
export async function* streamStoredResponses(
  ids: Iterable<string>,
  options: FetchOptions,
): AsyncGenerator<StreamedOutcome> {
  const tuning = tuningOf(options);
  const base = (options.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const stopper = new AbortController();
  const context: Context = {
    url: (id) => `${base}/responses/${encodeURIComponent(id)}`,
    headers: { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" },
    tuning,
    stop: stopper.signal,
  };
  const window = tuning.concurrency * 4;
  const started: Promise<Attempt>[] = [];
  const source = ids[Symbol.iterator]();
  let open = 0;
  const fill = (): void => {
    while (!stopper.signal.aborted && open < tuning.concurrency && started.length < window) {
      const next = source.next();
      if (next.done) return;
      open += 1;
      // A slot frees when a request ends, whatever its place among the others.
      const attempt = fetchOne(next.value, context).finally(() => {
        open -= 1;
        fill();
      });
      started.push(attempt);
    }
  };
  try {
    fill();
    while (started.length > 0) {
      const result = await started.shift()!;
      if (result.kind === "stopped") return;
      if (result.kind === "auth") {
        stopper.abort();
        yield { kind: "denied", status: result.status, message: authMessage(result.status) };
        return;
      }
      yield result;
      fill();
    }
  } finally {
    stopper.abort();
  }
}

/** Every id's outcome, in the ids' order; see streamStoredResponses. */
export async function fetchStoredResponses(
  ids: readonly string[],
  options: FetchOptions,
): Promise<Result<FetchOutcome[], AuthFailure>> {
  const outcomes: FetchOutcome[] = [];
  for await (const outcome of streamStoredResponses(ids, options)) {
    if (outcome.kind === "denied") return { ok: false, error: { status: outcome.status, message: outcome.message } };
    outcomes.push(outcome);
  }
  return { ok: true, value: outcomes };
}
