/**
 * `@strictwire/codec/http`: the one capped reader of HTTP bodies and the one
 * key redactor, against real servers on 127.0.0.1.
 */
import { afterEach, describe, expect, test } from "vitest";
import { DEFAULT_MAX_RESPONSE_BYTES, fetchText, KEY_FRAGMENT, REDACTED, redactKey } from "../../src/kit/http.js";
import { type HostileServer, settled, startHostileServer } from "./hostile-server.js";

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(...args: Parameters<typeof startHostileServer>): Promise<HostileServer> {
  const s = await startHostileServer(...args);
  servers.push(s);
  return s;
}

describe("fetchText", () => {
  test("an endless body is refused at the cap, naming it, and the connection is closed by the client", async () => {
    const s = await serve({ kind: "endless" }, 5000);
    const read = await fetchText(s.url, { maxBytes: 256 * 1024 });
    expect(read).toEqual({
      ok: false,
      error: {
        code: "response-too-large",
        path: "",
        status: 200,
        maxBytes: 256 * 1024,
        message: `HTTP 200 response body is over the cap of ${256 * 1024} bytes; the connection was closed`,
      },
    });
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
  });

  test("the default cap holds an endless body too", async () => {
    const s = await serve({ kind: "endless" }, 5000);
    const read = await fetchText(s.url);
    expect(read.ok === false && read.error.maxBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
  });

  test("a body one byte over the cap is refused, read as chunks (no Content-Length) or by its Content-Length", async () => {
    const cap = 100_000;
    for (const declare of [false, true]) {
      const s = await serve({ kind: "sized", bytes: cap + 1, declare });
      const read = await fetchText(s.url, { maxBytes: cap });
      expect(read.ok === false && [read.error.code, read.error.maxBytes]).toEqual(["response-too-large", cap]);
      if (declare)
        expect(read.ok === false && read.error.message).toContain(`of ${cap + 1} bytes (by its Content-Length)`);
    }
  });

  test("a body of exactly the cap is read whole, as Response.text() would decode it", async () => {
    // Two-byte characters, so a chunk boundary may fall inside one: decoded whole all the same.
    const cap = 4 + 4 * 500;
    const s = await serve({ kind: "sized", bytes: cap, declare: false, prefix: '{"a"', fill: "é·" });
    const read = await fetchText(s.url, { maxBytes: cap });
    expect(read.ok && read.value.text).toBe(`{"a"${"é·".repeat(500)}`);
    expect(read.ok && read.value.status).toBe(200);
  });

  test("a redirect is not followed: a typed error naming the host only, and the target receives nothing", async () => {
    const target = await serve({ kind: "sized", bytes: 2, fill: "{}" });
    const s = await serve({ kind: "redirect", status: 307, location: `${target.url}/secret/path?token=abc` });
    const read = await fetchText(s.url, { method: "POST", body: "{}", headers: { "x-api-key": "k" } });
    const host = new URL(target.url).host;
    expect(read).toEqual({
      ok: false,
      error: {
        code: "redirect",
        path: "",
        status: 307,
        location: host,
        message: `HTTP 307 redirect to ${host}, not followed`,
      },
    });
    expect(target.hits).toEqual([]);
  });

  test("the caller's signal aborts a read in progress (a rejection, as fetch's)", async () => {
    const s = await serve({ kind: "endless" }, 5000);
    const controller = new AbortController();
    const reading = fetchText(s.url, { signal: controller.signal, maxBytes: Number.MAX_SAFE_INTEGER });
    // Aborted once the body is flowing (not before the request is even sent, on a loaded machine).
    while ((s.sent[0] ?? 0) === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new DOMException("stop", "TimeoutError"));
    await expect(reading).rejects.toThrow();
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
  });
});

describe("redactKey", () => {
  const KEY = "sk-test-SECRETKEY1234567890abcdef";

  test("the whole key, a prefix, a suffix and a middle of 8 or more characters are redacted", () => {
    expect(redactKey(`key ${KEY} refused`, KEY)).toBe(`key ${REDACTED} refused`);
    expect(redactKey(`Incorrect API key provided: ${KEY.slice(0, 12)}****`, KEY)).toBe(
      `Incorrect API key provided: ${REDACTED}****`,
    );
    expect(redactKey(`key ending ...${KEY.slice(-8)}.`, KEY)).toBe(`key ending ...${REDACTED}.`);
    expect(redactKey(`mid(${KEY.slice(9, 20)})`, KEY)).toBe(`mid(${REDACTED})`);
    expect(redactKey(`gpt-4o_${KEY.slice(8, 20)}_mini`, KEY)).toBe(`gpt-4o_${REDACTED}_mini`);
    // A character next to an echo that continues the key goes with it.
    expect(redactKey(`gpt-4o-${KEY.slice(3, 15)}`, KEY)).toBe(`gpt-4o${REDACTED}`);
    // Two pieces apart stay two markers; the text between them stays.
    expect(redactKey(`${KEY.slice(0, 9)} and ${KEY.slice(-9)}`, KEY)).toBe(`${REDACTED} and ${REDACTED}`);
  });

  test("runs shorter than 8 characters, and ordinary text, are left alone", () => {
    const text = `sk-test model gpt-4o-mini, 1234567 tokens; SECRETK ${KEY.slice(-7)}`;
    expect(redactKey(text, KEY)).toBe(text);
    for (let i = 0; i + KEY_FRAGMENT <= KEY.length; i++) {
      const piece = KEY.slice(i, i + KEY_FRAGMENT);
      expect(redactKey(`<${piece}>`, KEY)).toBe(`<${REDACTED}>`);
      expect(redactKey(`<${piece.slice(1)}>`, KEY)).toBe(`<${piece.slice(1)}>`);
    }
  });

  test("no run of 8 of the key's characters survives in the output", () => {
    const text = `a${KEY.slice(2)}b${KEY.slice(0, -3)}c${KEY.slice(5, 25)}${KEY}`;
    const out = redactKey(text, KEY);
    for (let i = 0; i + KEY_FRAGMENT <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + KEY_FRAGMENT));
    expect(out.startsWith("a")).toBe(true);
  });

  test("a short key is redacted only as a whole token: with key x, gpt-x stays gpt-x", () => {
    expect(redactKey("gpt-x", "x")).toBe("gpt-x");
    expect(redactKey("model gpt-x, max_tokens 16, x-api-key", "x")).toBe("model gpt-x, max_tokens 16, x-api-key");
    expect(redactKey("Bearer x was refused", "x")).toBe(`Bearer ${REDACTED} was refused`);
    expect(redactKey('{"key":"x"}', "x")).toBe(`{"key":"${REDACTED}"}`);
    expect(redactKey("ollama ollama2 my-ollama", "ollama")).toBe(`${REDACTED} ollama2 my-ollama`);
    expect(redactKey("xx x", "xx")).toBe(`${REDACTED} x`);
    expect(redactKey("anything", "")).toBe("anything");
  });
});
