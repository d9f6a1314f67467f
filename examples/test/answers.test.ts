/**
 * Structured outputs with each provider's real SDK against a local server
 * (src/answer-server.ts) that keeps the request and answers in the API's own
 * format: the request carries the strict answer format; the answer decodes
 * exactly (absent vs null, a map, a discriminated union, a tuple, a
 * recursive value); a refusal, a cut, a blocked and a broken answer give
 * their typed errors; a streamed answer shows source-form partials, refuses
 * a broken one before its end, and gives no value when the stream stops
 * before the provider's end event.
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import {
  type AnswerUpdate,
  type Codec,
  compileCodec,
  decodeOutput,
  type OutputApi,
  outputFormat,
  outputMessage,
  outputRepairMessage,
  streamOutput,
} from "@strictwire/codec";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Reply, Thread, Triage } from "../src/answer-schema.js";
import { type AnswerScript, type AnswerServer, startAnswerServer } from "../src/answer-server.js";

type Target = "openai" | "anthropic" | "gemini";
/** The APIs whose own SDKs this file drives (Bedrock Converse: packages/codec/test/answer/bedrock-converse.test.ts). */
type SdkApi = Exclude<OutputApi, "bedrock-converse">;
const TARGET: Readonly<Record<SdkApi, Target>> = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  gemini: "gemini",
};

function codecFor<T>(schema: unknown, name: string, target: Target): Codec<T> {
  const compiled = compileCodec(schema as never, { name, target });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value as Codec<T>;
}

/** Absent members absent, a null kept, a map, the union's second branch, a tuple. */
const QUIET: Triage = {
  summary: "printer jams on page 2",
  assignee: null,
  labels: { area: "hardware", os: "linux" },
  action: { type: "escalate", level: 2 },
  sla: [4, 48],
};
/** Every optional member given, one of them as null. */
const FULL: Triage = {
  summary: "refund asked twice",
  due: "2026-12-09",
  assignee: "ada",
  team: null,
  labels: {},
  action: { type: "reply", text: 'Thanks, "we are on it".' },
  sla: [1, 24],
};

const THREAD: Reply = {
  text: "a",
  replies: [
    { text: "b", replies: [{ text: "c", replies: [] }] },
    { text: "d", replies: [] },
  ],
};

function wireText<T>(codec: Codec<T>, value: T): string {
  const wire = codec.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A wire text the model got wrong: the map written as an object, where the wire says entries. */
function brokenText(codec: Codec<Triage>): string {
  const wire = JSON.parse(wireText(codec, QUIET)) as Record<string, unknown>;
  return JSON.stringify({ ...wire, labels: { area: "hardware" } });
}

let server: AnswerServer;
beforeAll(async () => {
  server = await startAnswerServer({ kind: "answer", text: "{}" });
});
afterAll(() => server.close());

const openai = () => new OpenAI({ apiKey: "sk-offline", baseURL: `${server.origin}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: "sk-ant-offline", baseURL: server.origin, maxRetries: 0 });
const google = () =>
  new GoogleGenAI({ apiKey: "offline", httpOptions: { baseUrl: server.origin, apiVersion: "v1beta" } });

/** One whole request through `api`'s SDK, the codec's answer format spread in; the SDK's response. */
async function ask(api: SdkApi, codec: Codec<unknown>): Promise<unknown> {
  const format = outputFormat(codec, api);
  if (!format.ok) throw new Error(format.error.message);
  const f = format.value as never as Record<string, never>;
  switch (api) {
    case "openai-chat":
      return openai().chat.completions.create({
        model: "gpt-4.1",
        messages: [{ role: "user", content: "triage" }],
        ...f,
      });
    case "openai-responses":
      return openai().responses.create({ model: "gpt-4.1", input: "triage", ...f });
    case "anthropic":
      return anthropic().messages.create({
        model: "claude-sonnet-5-5",
        max_tokens: 1024,
        messages: [{ role: "user", content: "triage" }],
        ...f,
      });
    case "gemini":
      return google().models.generateContent({
        model: "gemini-2.5-flash",
        contents: "triage",
        config: { ...(format.value as { generationConfig: object }).generationConfig },
      });
  }
}

/** One streamed request through `api`'s SDK; every update the answer gave, in order. */
async function askStreamed(api: SdkApi, codec: Codec<unknown>): Promise<AnswerUpdate[]> {
  const format = outputFormat(codec, api);
  if (!format.ok) throw new Error(format.error.message);
  const f = format.value as never as Record<string, never>;
  const answer = streamOutput(codec, api);
  const updates: AnswerUpdate[] = [];
  const take = (u: readonly AnswerUpdate[]) => {
    // Partial values are live: keep each as it was when given.
    for (const x of u) updates.push(x.kind === "partial" ? { kind: "partial", value: structuredClone(x.value) } : x);
  };
  let events: AsyncIterable<unknown>;
  switch (api) {
    case "openai-chat":
      events = await openai().chat.completions.create({
        model: "gpt-4.1",
        messages: [{ role: "user", content: "triage" }],
        stream: true,
        ...f,
      });
      break;
    case "openai-responses":
      events = await openai().responses.create({ model: "gpt-4.1", input: "triage", stream: true, ...f });
      break;
    case "anthropic":
      events = await anthropic().messages.create({
        model: "claude-sonnet-5-5",
        max_tokens: 1024,
        messages: [{ role: "user", content: "triage" }],
        stream: true,
        ...f,
      });
      break;
    case "gemini":
      events = await google().models.generateContentStream({
        model: "gemini-2.5-flash",
        contents: "triage",
        config: { ...(format.value as { generationConfig: object }).generationConfig },
      });
      break;
  }
  for await (const event of events) take(answer.event(event));
  take(answer.finish());
  return updates;
}

/** The strict answer format as the request carried it. */
function sentFormat(api: SdkApi): unknown {
  const body = server.requests.at(-1)?.body ?? {};
  switch (api) {
    case "openai-chat":
      return body.response_format;
    case "openai-responses":
      return (body.text as Record<string, unknown> | undefined)?.format;
    case "anthropic":
      return (body.output_config as Record<string, unknown> | undefined)?.format;
    case "gemini":
      return body.generationConfig;
  }
}

function expectStrictFormat(api: SdkApi, codec: Codec<unknown>): void {
  const sent = sentFormat(api);
  switch (api) {
    case "openai-chat":
      expect(sent).toEqual({ type: "json_schema", json_schema: { name: "triage", schema: codec.wire, strict: true } });
      break;
    case "openai-responses":
      expect(sent).toEqual({ type: "json_schema", name: "triage", schema: codec.wire, strict: true });
      break;
    case "anthropic":
      expect(sent).toEqual({ type: "json_schema", schema: codec.wire });
      break;
    case "gemini":
      expect(sent).toMatchObject({ responseMimeType: "application/json", responseJsonSchema: codec.wire });
      break;
  }
}

/** No wire tag and no entry array anywhere in a partial value. */
function expectSourceForm(value: unknown): void {
  const text = JSON.stringify(value) ?? "";
  expect(text).not.toMatch(/"state":/);
  expect(text).not.toMatch(/"key":/);
  const labels = (value as { labels?: unknown } | undefined)?.labels;
  if (labels !== undefined) expect(Array.isArray(labels)).toBe(false);
}

/** Every member of a partial value is in the final value, as given or as the start of its string. */
function expectSubset(partial: unknown, final: unknown): void {
  if (typeof partial === "string") {
    expect(typeof final).toBe("string");
    expect((final as string).startsWith(partial)).toBe(true);
  } else if (Array.isArray(partial)) {
    expect(Array.isArray(final)).toBe(true);
    expect(partial.length).toBeLessThanOrEqual((final as unknown[]).length);
    for (const [i, p] of partial.entries()) expectSubset(p, (final as unknown[])[i]);
  } else if (typeof partial === "object" && partial !== null) {
    for (const [k, v] of Object.entries(partial)) {
      expect(Object.hasOwn(final as object, k)).toBe(true);
      expectSubset(v, (final as Record<string, unknown>)[k]);
    }
  } else if (typeof partial === "number") {
    // A number being written may show fewer digits than it ends with.
    expect(typeof final).toBe("number");
  } else {
    expect(partial).toBe(final);
  }
}

const APIS: readonly SdkApi[] = ["openai-chat", "openai-responses", "anthropic", "gemini"];

describe.each(APIS)("structured outputs through %s's SDK", (api) => {
  const target = TARGET[api];
  const codec = codecFor<Triage>(Triage, "triage", target);
  const any = codec as Codec<unknown>;

  it("sends the strict answer format and decodes the answer exactly (absent vs null, map, union, tuple)", async () => {
    for (const value of [QUIET, FULL]) {
      server.script = { kind: "answer", text: wireText(codec, value) };
      const response = await ask(api, any);
      expectStrictFormat(api, any);
      const decoded = decodeOutput(codec, api, response);
      expect(decoded).toStrictEqual({ ok: true, value });
    }
    server.script = { kind: "answer", text: wireText(codec, QUIET) };
    const quiet = decodeOutput(codec, api, await ask(api, any));
    expect(quiet.ok).toBe(true);
    expect(quiet.ok && Object.hasOwn(quiet.value, "due")).toBe(false);
    expect(quiet.ok && Object.hasOwn(quiet.value, "team")).toBe(false);
  });

  it("decodes a recursive value", async () => {
    const thread = codecFor<Reply>(Thread, "thread", target);
    server.script = { kind: "answer", text: wireText(thread, THREAD) };
    expect(decodeOutput(thread, api, await ask(api, thread as Codec<unknown>))).toStrictEqual({
      ok: true,
      value: THREAD,
    });
  });

  it("gives a cut answer, a blocked one and a broken one their typed errors", async () => {
    const whole = wireText(codec, QUIET);
    server.script = { kind: "cut", text: whole.slice(0, 40) };
    expect(decodeOutput(codec, api, await ask(api, any))).toMatchObject({ ok: false, error: { code: "answer-cut" } });
    // Cut by the limit just after the text was whole: still no value.
    server.script = { kind: "cut", text: whole };
    expect(decodeOutput(codec, api, await ask(api, any))).toMatchObject({ ok: false, error: { code: "answer-cut" } });

    server.script = { kind: "blocked" };
    const blocked = decodeOutput(codec, api, await ask(api, any));
    // Anthropic has no filter stop reason of its own: its refusal stop stands for both.
    expect(blocked).toMatchObject({
      ok: false,
      error: { code: api === "anthropic" ? "answer-refused" : "answer-blocked" },
    });

    server.script = { kind: "answer", text: brokenText(codec) };
    const broken = decodeOutput(codec, api, await ask(api, any));
    expect(broken).toMatchObject({ ok: false, error: { code: "wire-violation", path: "/labels" } });
    // The feedback is decode's own, and goes back in a repair turn in the API's shape.
    const direct = codec.decode(brokenText(codec));
    expect(!broken.ok && !direct.ok && broken.error.feedback).toBe(!direct.ok && direct.error.feedback);
    const repair = outputRepairMessage(api, !broken.ok ? broken.error : { feedback: "" });
    expect(JSON.stringify(repair)).toContain(JSON.stringify(!direct.ok ? direct.error.feedback : "").slice(1, 40));

    server.script = { kind: "answer", text: "Sorry, I can only answer in prose." };
    expect(decodeOutput(codec, api, await ask(api, any))).toMatchObject({ ok: false, error: { code: "invalid-json" } });
  });

  it("reads the model's refusal", async () => {
    server.script = { kind: "refusal", message: "I can't help with that." };
    const refused = decodeOutput(codec, api, await ask(api, any));
    // Gemini has no refusal field: the model's words are text, which the wire refuses.
    expect(refused).toMatchObject({ ok: false, error: { code: api === "gemini" ? "invalid-json" : "answer-refused" } });
    if (api !== "gemini" && !refused.ok && api !== "anthropic")
      expect(refused.error.message).toContain("I can't help with that.");
  });

  it("streams source-form partials, each a subset of the value the provider's end gives", async () => {
    for (const value of [QUIET, FULL]) {
      server.script = { kind: "answer", text: "", deltas: pieces(wireText(codec, value), 7) };
      const updates = await askStreamed(api, any);
      expectStrictFormat(api, any);
      const partials = updates.filter((u) => u.kind === "partial");
      expect(partials.length).toBeGreaterThan(3);
      for (const p of partials) {
        expectSourceForm(p.value);
        expectSubset(p.value, value);
      }
      expect(updates.at(-1)).toStrictEqual({ kind: "decoded", result: { ok: true, value } });
      expect(updates.filter((u) => u.kind === "decoded")).toHaveLength(1);
    }
  });

  it("refuses a broken streamed answer before its end", async () => {
    const deltas = pieces(brokenText(codec), 5);
    server.script = { kind: "answer", text: "", deltas };
    const updates = await askStreamed(api, any);
    const refusedAt = updates.findIndex((u) => u.kind === "refused");
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(updates[refusedAt]).toMatchObject({ error: { code: "wire-violation" } });
    // Refused while text was still to come: the partials after it stop.
    const shown = updates.slice(0, refusedAt).filter((u) => u.kind === "partial").length;
    expect(shown).toBeLessThan(deltas.length);
    expect(updates.slice(refusedAt + 1).filter((u) => u.kind === "partial")).toHaveLength(0);
    expect(updates.at(-1)).toMatchObject({ kind: "decoded", result: { ok: false, error: { code: "wire-violation" } } });
  });

  it("never yields a value from a stream cut before the provider's end event", async () => {
    // The whole text arrives, then the connection ends: the text decodes, and still no value is given.
    server.script = { kind: "cut-stream", deltas: pieces(wireText(codec, QUIET), 9) };
    const updates = await askStreamed(api, any);
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    const cut = updates.at(-1);
    expect(cut).toMatchObject({ kind: "cut", error: { code: "answer-cut" }, unfinished: { ok: true, value: QUIET } });
    expect(cut !== undefined && "result" in cut).toBe(false);
    expect(cut !== undefined && "value" in cut).toBe(false);

    server.script = { kind: "cut", text: "", deltas: pieces(wireText(codec, QUIET), 9) };
    const limited = await askStreamed(api, any);
    expect(limited.some((u) => u.kind === "decoded")).toBe(false);
    expect(limited.at(-1)).toMatchObject({ kind: "cut", error: { code: "answer-cut" } });
  });

  it("streams a refusal or a block as a failed answer", async () => {
    server.script = {
      kind: api === "gemini" ? "blocked" : "refusal",
      message: "I can't help with that.",
    } as AnswerScript;
    const updates = await askStreamed(api, any);
    expect(updates.at(-1)).toMatchObject({
      kind: "failed",
      error: { code: api === "gemini" ? "answer-blocked" : "answer-refused" },
    });
  });

  it("puts a decoded answer back into the history in the wire form", () => {
    const message = outputMessage(codec, api, QUIET);
    expect(message.ok).toBe(true);
    expect(JSON.stringify(message.ok && message.value)).toContain(JSON.stringify(wireText(codec, QUIET)).slice(1, -1));
  });
});
