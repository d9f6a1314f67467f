import { afterEach, describe, expect, test } from "vitest";
import { fetchStoredResponses, parseRetryAfter, retryDelayMs } from "../src/index.js";
import { json, type StoredServer, startStoredServer, storedResponse } from "./support/server.js";

const KEY = "sk-test-NEVER-PRINT-0123456789abcdef";
const FAST = { baseDelayMs: 10, maxRetryWaitMs: 2_000, timeoutMs: 2_000 };

let server: StoredServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(routes: Parameters<typeof startStoredServer>[0]): Promise<StoredServer> {
  server = await startStoredServer(routes);
  return server;
}

describe("fetchStoredResponses against a real server", () => {
  test("GETs each id with the key as a bearer token, keeps the ids' order, at most N at a time", async () => {
    const ok =
      (id: string, delayMs = 0) =>
      () => ({ ...json(storedResponse(id, "{}")), delayMs });
    const s = await serve({
      slow_first: ok("slow_first", 150),
      b: ok("b"),
      c: ok("c", 30),
      d: ok("d"),
      "e/odd id": ok("e"),
    });
    const ids = ["slow_first", "b", "c", "d", "e/odd id"];
    const result = await fetchStoredResponses(ids, { ...FAST, apiKey: KEY, baseUrl: `${s.baseUrl}/`, concurrency: 2 });
    expect(result.ok && result.value.map((o) => [o.id, o.kind])).toEqual(ids.map((id) => [id, "ok"]));
    expect(s.hits.map((h) => h.id).sort()).toEqual([...ids].sort());
    expect(s.hits.every((h) => h.method === "GET" && h.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(s.maxInFlight()).toBe(2);
  });

  test("a 404 is an outcome, not an error", async () => {
    const s = await serve({});
    const result = await fetchStoredResponses(["resp_gone"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result).toEqual({ ok: true, value: [{ id: "resp_gone", kind: "not-found" }] });
  });

  test("a 429 waits for Retry-After seconds, then succeeds", async () => {
    const s = await serve({
      busy: (n) => (n === 1 ? { status: 429, headers: { "retry-after": "1" } } : json(storedResponse("busy", "{}"))),
    });
    const result = await fetchStoredResponses(["busy"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result.ok && result.value[0]?.kind).toBe("ok");
    expect(s.hits).toHaveLength(2);
    // The wait is the behaviour. A lower bound: load only lengthens it, so it cannot flake.
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(900);
  });

  test("a Retry-After longer than the cap waits only the cap", async () => {
    const s = await serve({
      busy: (n) => (n === 1 ? { status: 429, headers: { "retry-after": "120" } } : json(storedResponse("busy", "{}"))),
    });
    const result = await fetchStoredResponses(["busy"], {
      ...FAST,
      maxRetryWaitMs: 50,
      apiKey: KEY,
      baseUrl: s.baseUrl,
    });
    expect(result.ok && result.value[0]?.kind).toBe("ok");
    // The cap is the behaviour: a 50 ms wait, where Retry-After asked for 120 s. The bound is far from both, so a
    // loaded machine cannot reach it; waiting the full 120 s would fail it (or the test's timeout first).
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeLessThan(20_000);
  });

  test("a 500 then a success is a success", async () => {
    const s = await serve({ flaky: (n) => (n === 1 ? { status: 500 } : json(storedResponse("flaky", "{}"))) });
    const result = await fetchStoredResponses(["flaky"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result.ok && result.value[0]).toMatchObject({ id: "flaky", kind: "ok", response: { id: "flaky" } });
    expect(s.hits).toHaveLength(2);
  });

  test("a 5xx that persists gives up after maxAttempts", async () => {
    const s = await serve({ down: () => ({ status: 503 }) });
    const result = await fetchStoredResponses(["down"], { ...FAST, maxAttempts: 3, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result).toEqual({
      ok: true,
      value: [{ id: "down", kind: "failed", reason: "HTTP 503, after 3 attempt(s)" }],
    });
    expect(s.hits).toHaveLength(3);
  });

  test("a slow answer hits the timeout, is retried, and gives up", async () => {
    // The answer comes after a minute: only the timeout can end the test in time.
    const s = await serve({ slow: () => ({ ...json(storedResponse("slow", "{}")), delayMs: 60_000 }) });
    const started = Date.now();
    const result = await fetchStoredResponses(["slow"], {
      ...FAST,
      timeoutMs: 100,
      maxAttempts: 2,
      apiKey: KEY,
      baseUrl: s.baseUrl,
    });
    expect(result).toEqual({
      ok: true,
      value: [{ id: "slow", kind: "failed", reason: "no answer within 100 ms, after 2 attempt(s)" }],
    });
    expect(s.hits).toHaveLength(2);
    // Not waiting for the answer is the behaviour: two 100 ms timeouts, well within this bound however loaded the
    // machine, and a third of the minute the answer would take.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test("other client errors are not retried", async () => {
    const s = await serve({ bad: () => json({ error: { message: "Invalid id" } }, 400) });
    const result = await fetchStoredResponses(["bad"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result.ok && result.value[0]).toEqual({ id: "bad", kind: "failed", reason: "HTTP 400" });
    expect(s.hits).toHaveLength(1);
  });

  test("a body that is not JSON is a failure for that id", async () => {
    const s = await serve({ html: () => ({ status: 200, body: "<html>proxy</html>" }) });
    const result = await fetchStoredResponses(["html"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result.ok && result.value[0]).toEqual({
      id: "html",
      kind: "failed",
      reason: "the body is not JSON (invalid-json)",
    });
  });

  test("401 stops the run; the message never carries the key, even when the body quotes it", async () => {
    const denied = () => json({ error: { message: `Incorrect API key provided: ${KEY}` } }, 401);
    const s = await serve({ a: denied, b: denied, c: denied, d: denied, e: denied, f: denied });
    const result = await fetchStoredResponses(["a", "b", "c", "d", "e", "f"], {
      ...FAST,
      concurrency: 1,
      apiKey: KEY,
      baseUrl: s.baseUrl,
    });
    expect(result).toEqual({
      ok: false,
      error: { status: 401, message: "401 from OpenAI: this needs a project key that can read stored responses" },
    });
    expect(s.hits).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  test("403 stops the run too", async () => {
    const s = await serve({ a: () => ({ status: 403 }) });
    const result = await fetchStoredResponses(["a"], { ...FAST, apiKey: KEY, baseUrl: s.baseUrl });
    expect(result.ok || result.error.status).toBe(403);
  });

  test("a refused connection is a network failure for that id, retried first", async () => {
    const s = await serve({});
    const baseUrl = s.baseUrl;
    await s.close();
    server = undefined;
    const result = await fetchStoredResponses(["a"], { ...FAST, maxAttempts: 2, apiKey: KEY, baseUrl });
    expect(result.ok && result.value[0]).toMatchObject({ id: "a", kind: "failed" });
    const reason = result.ok && result.value[0]?.kind === "failed" ? result.value[0].reason : "";
    expect(reason).toMatch(/^network error: .*ECONNREFUSED.*, after 2 attempt\(s\)$/);
    expect(reason).not.toContain(KEY);
  });

  test("no ids, no requests", async () => {
    expect(await fetchStoredResponses([], { apiKey: KEY, baseUrl: "http://127.0.0.1:9/v1" })).toEqual({
      ok: true,
      value: [],
    });
  });
});

describe("retry timing", () => {
  const tuning = { baseDelayMs: 500, maxRetryWaitMs: 10_000 };
  const now = Date.parse("2025-01-01T00:00:00Z");

  test("Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2", now)).toBe(2_000);
    expect(parseRetryAfter(" 1.5 ", now)).toBe(1_500);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:03 GMT", now)).toBe(3_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  test("doubling backoff without Retry-After, the server's ask with it, both capped", () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(null, attempt, tuning, now))).toEqual([500, 1_000, 2_000]);
    expect(retryDelayMs(null, 10, tuning, now)).toBe(10_000);
    expect(retryDelayMs("3", 1, tuning, now)).toBe(3_000);
    expect(retryDelayMs("3600", 1, tuning, now)).toBe(10_000);
    expect(retryDelayMs("garbage", 2, tuning, now)).toBe(1_000);
  });
});

describe("the per-request deadline under the collector", () => {
  // On Node 20 an AbortSignal.timeout inside AbortSignal.any can be collected before it fires (nodejs/node#57736):
  // a child process with the collector run every few milliseconds asks a server that never answers.
  test("a request to a server that never answers still ends at its deadline while the collector runs", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dist = new URL("../dist/index.js", import.meta.url).href;
    const dir = await mkdtemp(join(tmpdir(), "strictwire-deadline-"));
    const script = join(dir, "deadline.mjs");
    await writeFile(
      script,
      `import { createServer } from "node:http";
import { streamStoredResponses } from ${JSON.stringify(dist)};
const server = createServer(() => {});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const collect = setInterval(() => globalThis.gc(), 2);
const outcomes = [];
const options = { apiKey: "k", baseUrl: "http://127.0.0.1:" + server.address().port + "/v1", timeoutMs: 100, maxAttempts: 1 };
for await (const o of streamStoredResponses(["a", "b", "c"], options)) outcomes.push([o.kind, o.reason]);
clearInterval(collect);
server.closeAllConnections();
server.close();
console.log(JSON.stringify(outcomes));
`,
    );
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", script], { timeout: 30_000 });
      const failed = ["failed", "no answer within 100 ms, after 1 attempt(s)"];
      expect(JSON.parse(stdout)).toEqual([failed, failed, failed]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
