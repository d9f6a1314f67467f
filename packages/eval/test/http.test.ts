/** The wait between attempts without Retry-After (what postJson sleeps before each retry), and what postJson cannot send. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { backoffDelayMs, postJson, retryAfterMs } from "../src/http.js";

/** The longest delay a Node timer takes: a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

describe("backoffDelayMs", () => {
  it("doubles from --backoff and stops at two minutes", () => {
    const waits = Array.from({ length: 100 }, (_, i) => backoffDelayMs(1_000, i + 1));
    expect(waits.slice(0, 8)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 120_000]);
    expect(waits.slice(7).every((ms) => ms === 120_000)).toBe(true);
  });

  it("is never a wait Node's timer would fire at once, whatever the flags allow", () => {
    for (const backoff of [1, 1_000, MAX_TIMER_MS])
      for (const attempt of [1, 22, 31, 100]) {
        const ms = backoffDelayMs(backoff, attempt);
        expect(ms).toBeGreaterThanOrEqual(backoff > 120_000 ? backoff : Math.min(backoff, 120_000));
        expect(ms).toBeLessThanOrEqual(MAX_TIMER_MS);
      }
  });

  it("waits --backoff itself when it is above two minutes", () => {
    expect([1, 2, 3].map((a) => backoffDelayMs(600_000, a))).toEqual([600_000, 600_000, 600_000]);
  });

  it("holds Retry-After to the same two minutes", () => {
    expect(retryAfterMs("5")).toBe(5_000);
    expect(retryAfterMs("86400")).toBe(120_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});

describe("postJson, a request body that cannot be written", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A real endpoint on 127.0.0.1 that counts what reaches it and accepts everything. */
  async function counting(): Promise<{ url: string; hits: () => number }> {
    let hits = 0;
    server = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits: () => hits };
  }

  const cyclic: Record<string, unknown> = { model: "m" };
  cyclic.self = cyclic;

  it.each([
    ["a BigInt", { model: "m", max_tokens: 10n }, /cannot be written as JSON \(.*BigInt/],
    ["a cycle", cyclic, /cannot be written as JSON \(.*circular/i],
    ["no JSON value at all", undefined, /no JSON value/],
  ])("%s is not-sent, not a network failure: nothing is sent, retried or counted", async (_, body, message) => {
    const endpoint = await counting();
    let asked = 0;
    const out = await postJson(endpoint.url, {}, body, {
      timeoutMs: 5_000,
      retries: 3,
      backoffMs: 1,
      mayAttempt: () => {
        asked += 1;
        return true;
      },
    });
    expect(out).toMatchObject({ kind: "failed", reason: "not-sent", attempts: 0 });
    expect(out.kind === "failed" ? out.message : "").toMatch(message);
    expect(endpoint.hits()).toBe(0);
    expect(asked).toBe(0);
  });

  it("a body that can be written is sent once and answered", async () => {
    const endpoint = await counting();
    const out = await postJson(
      endpoint.url,
      {},
      { model: "m" },
      {
        timeoutMs: 5_000,
        retries: 3,
        backoffMs: 1,
        mayAttempt: () => true,
      },
    );
    expect(out).toMatchObject({ kind: "response", status: 200, body: {}, attempts: 1 });
    expect(endpoint.hits()).toBe(1);
  });
});
