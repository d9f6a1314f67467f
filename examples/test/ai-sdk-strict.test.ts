/**
 * Strict mode as the real AI SDK providers send it. `aiSdkTool` gives a tool
 * with strict on; each provider package (@ai-sdk/openai, @ai-sdk/anthropic,
 * @ai-sdk/google) sends a request to a server on 127.0.0.1 that keeps the
 * body, and the body must carry that provider's strict flag. The control, a
 * tool built from `aiSdkInputSchema` alone, shows the same request without it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { aiSdkInputSchema, aiSdkTool, type Codec, compileCodec } from "@strictwire/codec";
import { generateText, type LanguageModel, type ToolSet, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaOf } from "../src/tools.js";

type Json = Record<string, unknown>;

let origin = "";
const bodies: { path: string; body: Json }[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    bodies.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json });
    // A refusal ends the call: what is under test is the request, and a 400 is never retried.
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "captured", type: "invalid_request_error", code: 400 } }));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

function codecFor(target: "openai" | "anthropic" | "gemini"): Codec<unknown> {
  const compiled = compileCodec(schemaOf("get_weather"), { name: "get_weather", target });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

const key = { apiKey: "sk-loopback-test" };
const MODELS = {
  "openai responses": {
    target: "openai",
    model: () => createOpenAI({ baseURL: `${origin}/v1`, ...key }).responses("gpt-4.1"),
    tools: (b: Json) => b.tools as Json[],
  },
  "openai chat": {
    target: "openai",
    model: () => createOpenAI({ baseURL: `${origin}/v1`, ...key }).chat("gpt-4.1"),
    tools: (b: Json) => (b.tools as Json[]).map((t) => t.function as Json),
  },
  anthropic: {
    target: "anthropic",
    // The provider sends `strict` only for models it knows to support structured outputs.
    model: () => createAnthropic({ baseURL: `${origin}/v1`, ...key })("claude-sonnet-4-5"),
    tools: (b: Json) => b.tools as Json[],
  },
} as const;

async function send(model: LanguageModel, tools: ToolSet): Promise<Json> {
  const before = bodies.length;
  await expect(generateText({ model, tools, prompt: "weather in Oslo", maxRetries: 0 })).rejects.toThrow();
  expect(bodies.length).toBe(before + 1);
  return bodies[before]?.body ?? {};
}

const execute = async () => "4 °C";

describe("aiSdkTool sends strict mode through the real provider packages", () => {
  it.each(Object.entries(MODELS))("%s: every tool carries strict: true", async (_name, m) => {
    const codec = codecFor(m.target);
    const body = await send(m.model(), { get_weather: aiSdkTool(codec, { execute }) });
    const [sent] = m.tools(body);
    expect(sent?.strict).toBe(true);
    // The wire schema, as compiled, is what the provider received.
    const schema = sent?.parameters ?? sent?.input_schema;
    expect(schema).toEqual(codec.wire);
  });

  it.each(Object.entries(MODELS))("%s: control, aiSdkInputSchema alone sends no strict flag", async (_name, m) => {
    const body = await send(m.model(), {
      get_weather: tool({ inputSchema: aiSdkInputSchema(codecFor(m.target)), execute }),
    });
    expect(m.tools(body)[0]?.strict).not.toBe(true);
  });

  it("gemini: the request's toolConfig asks for VALIDATED", async () => {
    const google = createGoogleGenerativeAI({ baseURL: `${origin}/v1beta`, ...key });
    const body = await send(google("gemini-2.5-flash"), {
      get_weather: aiSdkTool(codecFor("gemini"), { execute }),
    });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "VALIDATED" } });
    const [declarations] = body.tools as { functionDeclarations: Json[] }[];
    expect(declarations?.functionDeclarations.map((d) => d.name)).toEqual(["get_weather"]);
    // @ai-sdk/google converts the schema to its OpenAPI subset under `parameters`: the same members.
    const [declaration] = declarations?.functionDeclarations ?? [];
    const parameters = (declaration?.parameters ?? {}) as Json;
    expect(Object.keys((parameters.properties ?? {}) as Json)).toEqual(["city", "unit"]);
  });

  it("gemini: control, aiSdkInputSchema alone asks for AUTO", async () => {
    const google = createGoogleGenerativeAI({ baseURL: `${origin}/v1beta`, ...key });
    const body = await send(google("gemini-2.5-flash"), {
      get_weather: tool({ inputSchema: aiSdkInputSchema(codecFor("gemini")), execute }),
    });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
  });

  it("keeps the caller's fields and the bundle's description", () => {
    const codec = codecFor("openai");
    const t = aiSdkTool(codec, { execute, needsApproval: true });
    expect(t.strict).toBe(true);
    expect(t.needsApproval).toBe(true);
    expect(t.execute).toBe(execute);
    expect(t.description).toBe(codec.bundle.description);
    expect(aiSdkTool(codec, { description: "mine" }).description).toBe("mine");
  });
});
