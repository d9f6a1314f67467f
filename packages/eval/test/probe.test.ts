/**
 * probeTools against a provider stand-in on 127.0.0.1: the requests it sends
 * (one per tool, strict, forced, a tiny cap; then the set), and how it reads
 * each provider's answer, with the recorded refusal of every rule issue 27
 * names. No key or model is needed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Api, probeTools, type SentTool } from "../src/index.js";
import { ACCEPTED, type ProbeAnswer, type ProbeServer, REFUSALS, startProbeServer } from "./probe-server.js";

const KEY = "sk-probe-DO-NOT-LEAK-7f3a";
const servers: ProbeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

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
