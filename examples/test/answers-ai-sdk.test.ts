/**
 * aiSdkOutput with the real AI SDK (ai 6) and its OpenAI (Chat and
 * Responses), Anthropic and Google providers over 127.0.0.1
 * (src/answer-server.ts): the request carries the wire as the answer format,
 * `output` is decode's value, `partialOutputStream` shows the source form,
 * and a cut or broken answer rejects with the codec's error.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { AiSdkAnswerError, aiSdkInputSchema, aiSdkOutput, type Codec, compileCodec } from "@strictwire/codec";
import { generateObject, generateText, type LanguageModel, streamObject, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Triage } from "../src/answer-schema.js";
import { type AnswerServer, startAnswerServer } from "../src/answer-server.js";

type Provider = "openai-chat" | "openai-responses" | "anthropic" | "google";

const VALUE: Triage = {
  summary: "printer jams",
  assignee: null,
  team: null,
  labels: { area: "hardware" },
  action: { type: "reply", text: "on it" },
  sla: [4, 48],
};

function codecFor(target: "openai" | "anthropic" | "gemini"): Codec<Triage> {
  const compiled = compileCodec(Triage, { name: "triage", target });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value as Codec<Triage>;
}

function wireText(codec: Codec<Triage>, value: Triage): string {
  const wire = codec.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

let server: AnswerServer;
beforeAll(async () => {
  server = await startAnswerServer({ kind: "answer", text: "{}" });
});
afterAll(() => server.close());

function model(provider: Provider): LanguageModel {
  switch (provider) {
    case "openai-chat":
      return createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "sk-offline" }).chat("gpt-4.1");
    case "openai-responses":
      return createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "sk-offline" }).responses("gpt-4.1");
    case "anthropic":
      return createAnthropic({ baseURL: `${server.origin}/v1`, apiKey: "sk-ant-offline" })("claude-sonnet-5-5");
    case "google":
      return createGoogleGenerativeAI({ baseURL: `${server.origin}/v1beta`, apiKey: "offline" })("gemini-2.5-flash");
  }
}

const TARGET = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  google: "gemini",
} as const;

/** The answer format as the provider sent it. */
function sentSchema(provider: Provider): unknown {
  const body = server.requests.at(-1)?.body as Record<string, Record<string, unknown>>;
  switch (provider) {
    case "openai-chat":
      return body.response_format;
    case "openai-responses":
      return body.text?.format;
    case "anthropic":
      return body.output_config?.format;
    case "google":
      return body.generationConfig;
  }
}

describe.each<Provider>(["openai-chat", "openai-responses", "anthropic", "google"])(
  "aiSdkOutput with %s",
  (provider) => {
    const codec = codecFor(TARGET[provider]);

    it("sends the wire and gives decode's value as output", async () => {
      server.script = { kind: "answer", text: wireText(codec, VALUE) };
      const result = await generateText({ model: model(provider), prompt: "triage", output: aiSdkOutput(codec) });
      expect(result.output).toStrictEqual(VALUE);
      const sent = sentSchema(provider);
      if (provider === "openai-chat") {
        expect(sent).toEqual({
          type: "json_schema",
          json_schema: { name: "triage", schema: codec.wire, strict: true },
        });
      } else if (provider === "openai-responses") {
        expect(sent).toEqual({ type: "json_schema", name: "triage", schema: codec.wire, strict: true });
      } else if (provider === "anthropic") {
        expect(sent).toEqual({ type: "json_schema", schema: codec.wire });
      } else {
        // @ai-sdk/google sends its own OpenAPI translation, not responseJsonSchema: documented, decode still holds.
        expect(sent).toMatchObject({ responseMimeType: "application/json" });
        expect((sent as Record<string, unknown>).responseJsonSchema).toBeUndefined();
      }
    });

    it("streams partials in the source form, never a tag or an entry array", async () => {
      server.script = { kind: "answer", text: "", deltas: pieces(wireText(codec, VALUE), 6) };
      const result = streamText({ model: model(provider), prompt: "triage", output: aiSdkOutput(codec) });
      const partials: unknown[] = [];
      for await (const partial of result.partialOutputStream) partials.push(partial);
      expect(partials.length).toBeGreaterThan(3);
      for (const p of partials) {
        const text = JSON.stringify(p);
        expect(text).not.toMatch(/"state":|"key":/);
        const labels = (p as { labels?: unknown }).labels;
        if (labels !== undefined) expect(Array.isArray(labels)).toBe(false);
      }
      expect(partials.at(-1)).toStrictEqual(VALUE);
      expect(await result.output).toStrictEqual(VALUE);
    });

    it("rejects a cut answer and a broken one with the codec's error", async () => {
      server.script = { kind: "cut", text: wireText(codec, VALUE) };
      const cut = await generateText({ model: model(provider), prompt: "t", output: aiSdkOutput(codec) }).catch(
        (e) => e,
      );
      expect(cut).toBeInstanceOf(AiSdkAnswerError);
      expect((cut as AiSdkAnswerError).error.code).toBe("answer-cut");

      const wire = JSON.parse(wireText(codec, VALUE)) as Record<string, unknown>;
      server.script = { kind: "answer", text: JSON.stringify({ ...wire, labels: { area: "hardware" } }) };
      const broken = await generateText({ model: model(provider), prompt: "t", output: aiSdkOutput(codec) }).catch(
        (e) => e,
      );
      expect(broken).toBeInstanceOf(AiSdkAnswerError);
      expect((broken as AiSdkAnswerError).error).toMatchObject({ code: "wire-violation", path: "/labels" });
    });

    it("gives no output for a stream that stops before the provider's end event, though its text decodes", async () => {
      // The provider packages report such a stream as finish reason "other": the text is whole JSON by chance.
      server.script = { kind: "cut-stream", deltas: pieces(wireText(codec, VALUE), 6) };
      const result = streamText({
        model: model(provider),
        prompt: "t",
        output: aiSdkOutput(codec),
        onError: () => {},
      });
      for await (const _ of result.partialOutputStream) void _;
      expect(await result.finishReason).toBe("other");
      const output = await Promise.resolve(result.output).catch((e: unknown) => e);
      expect(output).toBeInstanceOf(AiSdkAnswerError);
      expect((output as AiSdkAnswerError).error.code).toBe("answer-cut");
    });

    it("refuses a broken streamed answer early (onRefusal), before the text ends", async () => {
      const wire = JSON.parse(wireText(codec, VALUE)) as Record<string, unknown>;
      const text = JSON.stringify({ ...wire, labels: { area: "hardware" } });
      server.script = { kind: "answer", text: "", deltas: pieces(text, 4) };
      const refusals: string[] = [];
      const result = streamText({
        model: model(provider),
        prompt: "t",
        output: aiSdkOutput(codec, { onRefusal: (error) => refusals.push(error.code) }),
      });
      for await (const _ of result.partialOutputStream) void _;
      expect(refusals).toEqual(["wire-violation"]);
      await expect(result.output).rejects.toBeInstanceOf(AiSdkAnswerError);
    });
  },
);

describe("generateObject and streamObject take a codec's schema", () => {
  const codec = codecFor("openai");
  const chat = () => createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "sk-offline" }).chat("gpt-4.1");

  it("generateObject: the wire is sent and the object is decode's value", async () => {
    server.script = { kind: "answer", text: wireText(codec, VALUE) };
    const result = await generateObject({ model: chat(), prompt: "t", schema: aiSdkInputSchema(codec) });
    expect(result.object).toStrictEqual(VALUE);
    expect((sentSchema("openai-chat") as { json_schema: { schema: unknown } }).json_schema.schema).toEqual(codec.wire);
  });

  it("streamObject: the final object is decoded, but its partials show the wire (use streamText with aiSdkOutput)", async () => {
    server.script = { kind: "answer", text: "", deltas: pieces(wireText(codec, VALUE), 6) };
    const result = streamObject({ model: chat(), prompt: "t", schema: aiSdkInputSchema(codec) });
    const partials: unknown[] = [];
    for await (const p of result.partialObjectStream) partials.push(p);
    expect(await result.object).toStrictEqual(VALUE);
    expect(partials.some((p) => /"key":/.test(JSON.stringify(p)))).toBe(true);
  });
});
