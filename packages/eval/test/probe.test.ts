/**
 * probeTools against a provider stand-in on 127.0.0.1: the requests it sends
 * (one per tool, strict, forced, a tiny cap; then the set), and how it reads
 * each provider's answer, with the recorded refusal of every rule issue 27
 * names. No key or model is needed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Hostile, type HostileServer, settled, startHostileServer } from "../../codec/test/kit/hostile-server.js";
import { type Api, probeTools, type SentTool } from "../src/index.js";
import type { JsonObject } from "../src/suite.js";
import { ACCEPTED, type ProbeAnswer, type ProbeServer, REFUSALS, startProbeServer } from "./probe-server.js";

const KEY = "sk-probe-DO-NOT-LEAK-7f3a";
const servers: ProbeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const s of hostileServers.splice(0)) await s.close();
});
const hostileServers: HostileServer[] = [];

const tool = (name: string): SentTool => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false },
  strict: true,
});

async function probe(api: Api, answers: readonly ProbeAnswer[], names = ["find_user"], maxRequests?: number) {
  const server = await startProbeServer((_seen, i) => answers[Math.min(i, answers.length - 1)] ?? ACCEPTED);
  servers.push(server);
  const report = await probeTools({
    api,
    endpoint: `${server.url}/v1`,
    key: KEY,
    model: "m-1",
    tools: names.map(tool),
    retries: 0,
    ...(maxRequests !== undefined ? { maxRequests } : {}),
  });
  return { report, seen: server.seen };
}

describe("probe requests", () => {
  it("chat: one strict tool, its call forced, a tiny cap; then every tool together", async () => {
    const { report, seen } = await probe("chat", [ACCEPTED], ["a", "b"]);
    expect(report.results.map((r) => [r.tool, r.verdict])).toEqual([
      ["a", "accepted"],
      ["b", "accepted"],
      ["*", "accepted"],
    ]);
    expect(report.requests).toBe(3);
    expect(seen.map((s) => s.path)).toEqual(Array(3).fill("/v1/chat/completions"));
    const [first, , all] = seen.map((s) => s.body);
    expect(first?.tools).toEqual([
      {
        type: "function",
        function: { name: "a", description: "The a tool.", parameters: tool("a").parameters, strict: true },
      },
    ]);
    expect(first?.tool_choice).toEqual({ type: "function", function: { name: "a" } });
    expect(first?.max_completion_tokens).toBe(16);
    expect(all?.tool_choice).toBe("required");
    expect(all?.tools).toHaveLength(2);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("responses and anthropic: their own envelope, strict and forced", async () => {
    const r = await probe("responses", [ACCEPTED]);
    expect(r.seen[0]?.path).toBe("/v1/responses");
    expect(r.seen[0]?.body.tools).toEqual([{ type: "function", ...tool("find_user"), strict: true }]);
    expect(r.seen[0]?.body.tool_choice).toEqual({ type: "function", name: "find_user" });
    expect(r.seen[0]?.body.max_output_tokens).toBe(16);
    const a = await probe("anthropic", [ACCEPTED]);
    expect(a.seen[0]?.path).toBe("/v1/messages");
    expect(a.seen[0]?.body.tools).toEqual([
      {
        name: "find_user",
        description: "The find_user tool.",
        input_schema: tool("find_user").parameters,
        strict: true,
      },
    ]);
    expect(a.seen[0]?.body.tool_choice).toEqual({ type: "tool", name: "find_user" });
    expect(a.seen[0]?.headers["x-api-key"]).toBe(KEY);
  });

  it("gemini: the model in the URL, parametersJsonSchema, VALIDATED limited to the tool", async () => {
    const { seen } = await probe("gemini", [ACCEPTED]);
    expect(seen[0]?.path).toBe("/v1/models/m-1:generateContent");
    expect(seen[0]?.headers["x-goog-api-key"]).toBe(KEY);
    expect(seen[0]?.body.tools).toEqual([
      {
        functionDeclarations: [
          { name: "find_user", description: "The find_user tool.", parametersJsonSchema: tool("find_user").parameters },
        ],
      },
    ]);
    expect(seen[0]?.body.toolConfig).toEqual({
      functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["find_user"] },
    });
    expect(seen[0]?.body.generationConfig).toEqual({ temperature: 0, maxOutputTokens: 16 });
  });
});

describe("probe verdicts: the provider's own refusal, and the rule it names", () => {
  it.each([
    ["chat", REFUSALS.openaiFirstKey, "openai-any-of-first-key", "must not share identical first keys"],
    ["responses", REFUSALS.openaiFirstKey, "openai-any-of-first-key", "Consider adding a discriminator key"],
    ["anthropic", REFUSALS.anthropicOptional, "anthropic-optional-parameters", "(limit: 24)"],
    ["anthropic", REFUSALS.anthropicUnion, "anthropic-union-parameters", "exceeds the limit: 16"],
    ["anthropic", REFUSALS.anthropicGrammar, "anthropic-grammar-size", "The compiled grammar is too large"],
    ["anthropic", REFUSALS.anthropicComplex, "anthropic-grammar-size", "Schema is too complex for compilation"],
    ["gemini", REFUSALS.geminiLive, "gemini-live-api", 'Unknown name "parametersJsonSchema"'],
  ] as const)("%s: %s", async (api, answer, rule, text) => {
    const { report } = await probe(api, [answer]);
    const [result] = report.results;
    expect(result?.verdict).toBe("refused");
    if (result?.verdict !== "refused") return;
    expect(result.status).toBe(400);
    expect(result.rule).toBe(rule);
    expect(result.message).toContain(text);
  });

  it("gemini: a 400 INVALID_ARGUMENT of no known rule is a refusal in Gemini's words", async () => {
    const { report } = await probe("gemini", [REFUSALS.geminiInvalid]);
    expect(report.results[0]).toEqual({
      tool: "find_user",
      tools: ["find_user"],
      verdict: "refused",
      status: 400,
      message: `INVALID_ARGUMENT: ${REFUSALS.geminiInvalid.body.error.message}`,
    });
  });

  it("a refused key, an unknown model or a server error is no verdict, and the key is redacted", async () => {
    const echo = { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } };
    const { report } = await probe("chat", [echo]);
    expect(report.results[0]).toMatchObject({ verdict: "failed", reason: "auth", status: 401 });
    expect(JSON.stringify(report)).not.toContain(KEY);
    expect(JSON.stringify(report)).toContain("[redacted]");
    const keyInvalid = {
      status: 400,
      body: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
        },
      },
    };
    expect((await probe("gemini", [keyInvalid])).report.results[0]).toMatchObject({
      verdict: "failed",
      reason: "auth",
    });
    const missing = { status: 404, body: { error: { message: "The model `m-1` does not exist" } } };
    expect((await probe("chat", [missing])).report.results[0]).toMatchObject({
      verdict: "failed",
      reason: "not-found",
    });
    const down = { status: 503, body: { error: { message: "overloaded" } } };
    expect((await probe("anthropic", [down])).report.results[0]).toMatchObject({ verdict: "failed", reason: "http" });
  });

  it("stops at the request budget: the rest is reported as not sent", async () => {
    const { report, seen } = await probe("chat", [ACCEPTED], ["a", "b"], 1);
    expect(seen).toHaveLength(1);
    expect(report.requests).toBe(1);
    expect(report.results.map((r) => r.verdict)).toEqual(["accepted", "failed", "failed"]);
    expect(report.results[1]).toMatchObject({ reason: "budget" });
  });
});

describe("probe against hostile bodies and echoes (issue 43)", () => {
  const hostile = async (how: Hostile) => {
    const s = await startHostileServer(how, 5000);
    hostileServers.push(s);
    return s;
  };
  const probeAt = (url: string, key = KEY, maxResponseBytes = 64 * 1024) =>
    probeTools({
      api: "chat",
      endpoint: `${url}/v1`,
      key,
      model: "m-1",
      tools: [tool("find_user")],
      retries: 2,
      backoffMs: 1,
      maxResponseBytes,
    });

  it("an endless body fails at the cap, naming it, is not retried, and the connection is closed", async () => {
    const s = await hostile({ kind: "endless" });
    const report = await probeAt(s.url);
    expect(report.results[0]).toMatchObject({ verdict: "failed", reason: "too-large", status: 200 });
    expect(report.results[0]?.verdict === "failed" && report.results[0].message).toContain(
      `over the cap of ${64 * 1024} bytes`,
    );
    expect(report.requests).toBe(1);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
  });

  it("a body one byte over the cap fails; one of exactly the cap is read", async () => {
    const over = await hostile({ kind: "sized", bytes: 1001, declare: false, status: 400 });
    expect((await probeAt(over.url, KEY, 1000)).results[0]).toMatchObject({ verdict: "failed", reason: "too-large" });
    const body = JSON.stringify({ error: { message: "x" } });
    const exact = await hostile({ kind: "sized", bytes: body.length, prefix: body, status: 400 });
    expect((await probeAt(exact.url, KEY, body.length)).results[0]).toMatchObject({ verdict: "refused", message: "x" });
  });

  it("a redirect is not followed", async () => {
    const target = await hostile({ kind: "sized", bytes: 2, fill: "{}" });
    const s = await hostile({ kind: "redirect", status: 308, location: `${target.url}/v1/chat/completions` });
    const report = await probeAt(s.url);
    expect(report.results[0]).toMatchObject({ verdict: "failed", reason: "redirect", status: 308 });
    expect(target.hits).toEqual([]);
  });

  it("an echoed prefix, suffix or middle of the key is redacted; a short key only as a whole token", async () => {
    const key = "sk-proj-SECRETKEY1234567890abcdefghij";
    const echo = `Incorrect API key provided: ${key.slice(0, 14)}****${key.slice(-6)}; also ${key.slice(10, 22)} and ${key.slice(-10)}`;
    const server = await startProbeServer(() => ({ status: 401, body: { error: { message: echo } } }));
    servers.push(server);
    const run = (k: string) =>
      probeTools({
        api: "chat",
        endpoint: `${server.url}/v1`,
        key: k,
        model: "m",
        tools: [tool("find_user")],
        retries: 0,
      });
    const text = JSON.stringify(await run(key));
    for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
    expect(text).toContain("Incorrect API key provided: [redacted]****");
    // With a key of one character, the words around it are not cut up.
    const short = await startProbeServer(() => ({ status: 401, body: { error: { message: "key x for gpt-x" } } }));
    servers.push(short);
    const shortReport = await probeTools({
      api: "chat",
      endpoint: `${short.url}/v1`,
      key: "x",
      model: "gpt-x",
      tools: [tool("find_user")],
      retries: 0,
    });
    expect(shortReport.results[0]).toMatchObject({ message: "key [redacted] for gpt-x" });
  });
});

describe("probe, a request that cannot be written", () => {
  it("is failed with reason not-sent, nothing sent, and the next request still goes", async () => {
    const server = await startProbeServer(() => ACCEPTED);
    servers.push(server);
    // A caller's answer format holding a BigInt: no JSON form, so no request can carry it.
    const unwritable = { model: "m-1", response_format: { max: 10n } } as unknown as JsonObject;
    const report = await probeTools({
      api: "chat",
      endpoint: `${server.url}/v1`,
      key: KEY,
      model: "m-1",
      tools: [tool("find_user")],
      answers: [{ name: "big", request: unwritable }],
      retries: 2,
      backoffMs: 1,
    });
    expect(report.results).toMatchObject([
      { tool: "find_user", verdict: "accepted" },
      {
        tool: "big",
        verdict: "failed",
        reason: "not-sent",
        message: expect.stringMatching(/cannot be written as JSON/),
      },
    ]);
    expect(server.seen).toHaveLength(1);
  });
});
