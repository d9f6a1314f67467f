/**
 * One POST with a timeout, retried with exponential backoff on 429 and 5xx
 * (honouring Retry-After). Plain fetch, on purpose: the providers' SDKs retry
 * on their own, which would send requests the budget never saw. A redirect is
 * never followed: fetch would re-send the body and every header but
 * Authorization to wherever it points (Anthropic's x-api-key included). The
 * body is read within a cap (@strictwire/codec/http, shared with the
 * classifier): an endless or huge body fails the request and is not retried.
 */
import { DEFAULT_MAX_RESPONSE_BYTES, fetchText } from "@strictwire/codec/http";

export interface HttpOptions {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  /** Asked before every attempt, retries included; false stops without sending. */
  readonly mayAttempt: () => boolean;
  /** Bytes of response body read at most (DEFAULT_MAX_RESPONSE_BYTES); a longer body fails the request, not retried. */
  readonly maxResponseBytes?: number;
}

export type HttpOutcome =
  | {
      readonly kind: "response";
      readonly status: number;
      readonly body: unknown;
      readonly attempts: number;
      readonly latencyMs: number;
    }
  | {
      readonly kind: "failed";
      /** "not-sent": the request body cannot be written as JSON (a BigInt, a cycle, past the longest string): nothing was sent. */
      readonly reason: "timeout" | "network" | "not-json" | "redirect" | "too-large" | "not-sent";
      readonly message: string;
      readonly attempts: number;
      readonly latencyMs: number;
      readonly status?: number;
    }
  | {
      readonly kind: "stopped";
      readonly attempts: number;
      /** Why the attempt before the stop failed, when one did: the budget ended a retry, not the first try. */
      readonly after?: { readonly reason: "timeout" | "network"; readonly message: string };
    };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The longest wait between attempts: a Retry-After, or a backoff that has doubled this far. */
const MAX_WAIT_MS = 120_000;

/**
 * The wait before retry `attempt` (1 for the first) without Retry-After: `backoffMs` doubling, at most
 * two minutes (or `backoffMs` itself when larger). Unbounded, 30 retries would wait for days, and past
 * 2^31 - 1 ms Node fires the timer at once, so the last retries would not wait at all.
 */
export function backoffDelayMs(backoffMs: number, attempt: number): number {
  return Math.min(backoffMs * 2 ** (attempt - 1), Math.max(MAX_WAIT_MS, backoffMs));
}

/** Retry-After in seconds or as an HTTP date; capped so a hostile header cannot stall the run. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_WAIT_MS) : undefined;
}

/**
 * The request body as JSON text, or why it cannot be written. JSON.stringify throws on a BigInt, a cycle, a
 * nesting past the stack or a text past the longest string; a function or undefined writes no JSON at all.
 */
export function requestJson(body: unknown): { ok: true; text: string } | { ok: false; message: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    return { ok: false, message: `the request cannot be written as JSON (${(error as Error).message})` };
  }
  return text === undefined ? { ok: false, message: "the request is no JSON value" } : { ok: true, text };
}

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  o: HttpOptions,
): Promise<HttpOutcome> {
  // Written once, before any attempt: a body that cannot be written is not the network's failure, nor worth a retry.
  const json = requestJson(body);
  if (!json.ok) return { kind: "failed", reason: "not-sent", message: json.message, attempts: 0, latencyMs: 0 };
  let attempts = 0;
  let after: { reason: "timeout" | "network"; message: string } | undefined;
  for (;;) {
    if (!o.mayAttempt()) return { kind: "stopped", attempts, ...(after !== undefined ? { after } : {}) };
    attempts += 1;
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    let retryable: { delay: number } | undefined;
    try {
      const read = await fetchText(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: json.text,
        signal: controller.signal,
        maxBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      });
      if (!read.ok)
        return {
          kind: "failed",
          reason: read.error.code === "redirect" ? "redirect" : "too-large",
          message: read.error.message,
          attempts,
          latencyMs: performance.now() - started,
          status: read.error.status,
        };
      const res = read.value;
      const latencyMs = performance.now() - started;
      if ((res.status === 429 || res.status >= 500) && attempts <= o.retries) {
        retryable = { delay: retryAfterMs(res.headers.get("retry-after")) ?? backoffDelayMs(o.backoffMs, attempts) };
      } else {
        try {
          return { kind: "response", status: res.status, body: JSON.parse(res.text) as unknown, attempts, latencyMs };
        } catch {
          return {
            kind: "failed",
            reason: "not-json",
            message: `HTTP ${res.status}, body is not JSON`,
            attempts,
            latencyMs,
            status: res.status,
          };
        }
      }
    } catch (error) {
      const latencyMs = performance.now() - started;
      const timedOut = controller.signal.aborted;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      after = timedOut
        ? { reason: "timeout", message: `no answer within ${o.timeoutMs} ms` }
        : { reason: "network", message: cause ?? (error as Error).message };
      if (attempts > o.retries) return { kind: "failed", ...after, attempts, latencyMs };
      retryable = { delay: backoffDelayMs(o.backoffMs, attempts) };
    } finally {
      clearTimeout(timer);
    }
    await sleep(retryable.delay);
  }
}
