/**
 * One POST with a timeout, retried with exponential backoff on 429 and 5xx
 * (honouring Retry-After). Plain fetch, on purpose: the providers' SDKs retry
 * on their own, which would send requests the budget never saw. A redirect is
 * never followed: fetch would re-send the body and every header but
 * Authorization to wherever it points (Anthropic's x-api-key included).
 */
export interface HttpOptions {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  /** Asked before every attempt, retries included; false stops without sending. */
  readonly mayAttempt: () => boolean;
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
      readonly reason: "timeout" | "network" | "not-json" | "redirect";
      readonly message: string;
      readonly attempts: number;
      readonly latencyMs: number;
      readonly status?: number;
    }
  | { readonly kind: "stopped"; readonly attempts: number };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Retry-After in seconds or as an HTTP date; capped so a hostile header cannot stall the run. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 120_000) : undefined;
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

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  o: HttpOptions,
): Promise<HttpOutcome> {
  let attempts = 0;
  for (;;) {
    if (!o.mayAttempt()) return { kind: "stopped", attempts };
    attempts += 1;
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    let retryable: { delay: number } | undefined;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal: controller.signal,
        redirect: "manual",
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined);
        const to = redirectHost(url, res.headers.get("location"));
        return {
          kind: "failed",
          reason: "redirect",
          message: `HTTP ${res.status} redirect${to !== undefined ? ` to ${to}` : ""}, not followed`,
          attempts,
          latencyMs: performance.now() - started,
          status: res.status,
        };
      }
      const text = await res.text();
      const latencyMs = performance.now() - started;
      if ((res.status === 429 || res.status >= 500) && attempts <= o.retries) {
        retryable = { delay: retryAfterMs(res.headers.get("retry-after")) ?? o.backoffMs * 2 ** (attempts - 1) };
      } else {
        try {
          return { kind: "response", status: res.status, body: JSON.parse(text) as unknown, attempts, latencyMs };
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
      if (attempts > o.retries) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        return timedOut
          ? { kind: "failed", reason: "timeout", message: `no answer within ${o.timeoutMs} ms`, attempts, latencyMs }
          : { kind: "failed", reason: "network", message: cause ?? (error as Error).message, attempts, latencyMs };
      }
      retryable = { delay: o.backoffMs * 2 ** (attempts - 1) };
    } finally {
      clearTimeout(timer);
    }
    await sleep(retryable.delay);
  }
}
