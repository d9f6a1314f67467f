/**
 * The end-of-call rule and the newer stream shapes under the real SDKs: a
 * node:http server on 127.0.0.1 writes each API's events as its SDK reads
 * them (SSE), the SDK parses them and the test feeds them to streamCalls.
 * Gemini through `@google/genai`'s `generateContentStream`; a stream the
 * connection ends before the provider's end event, through `openai` and
 * `@anthropic-ai/sdk`; Anthropic's `eager_input_streaming` as the request
 * carries it; a refusal streamed by each API, answered as the whole one is.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import {
  type AnswerUpdate,
  type CallUpdate,
  compileCodec,
  createDispatcher,
  decodeOutput,
  streamCalls,
  streamOutput,
  toolDefinition,
} from "@strictwire/codec";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const schema = {
  type: "object",
  properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
} as const;
const openaiCodec = compileCodec(schema, { name: "get_weather" });
const anthropicCodec = compileCodec(schema, { name: "get_weather", target: "anthropic" });
const geminiCodec = compileCodec(schema, { name: "get_weather", target: "gemini" });
if (!openaiCodec.ok || !anthropicCodec.ok || !geminiCodec.ok) throw new Error("the test schema compiles");
const wireOf = (codec: typeof openaiCodec.value, value: unknown): string => {
  const encoded = codec.encode(value as { city: string });
  if (!encoded.ok) throw new Error(encoded.error.message);
  return JSON.stringify(encoded.value);
};

let server: Server;
let origin: string;
/** What the next request gets: SSE events, whether the connection is dropped after them, and the request seen. */
let script: { events: Record<string, unknown>[]; drop: boolean } = { events: [], drop: false };
let seen: { url: string; body: Record<string, unknown> } | undefined;

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of req) body += chunk;
  seen = { url: req.url ?? "", body: body === "" ? {} : JSON.parse(body) };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of script.events) {
    const name = typeof event.type === "string" ? `event: ${event.type}\n` : "";
    res.write(`${name}data: ${JSON.stringify(event)}\n\n`);
    await new Promise((wait) => setTimeout(wait, 5));
  }
  // A dropped connection: the provider never said the stream was over.
  if (script.drop) res.socket?.destroy();
  else res.end();
}

beforeAll(async () => {
  server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

/** Every update of a stream read to its end, or to the error a dropped connection gives. */
async function read(stream: AsyncIterable<unknown>, streams: ReturnType<typeof streamCalls>): Promise<CallUpdate[]> {
  const updates: CallUpdate[] = [];
  try {
    for await (const event of stream) updates.push(...streams.event(event));
  } catch {
    // The connection ended early: what was read is what there is.
  }
  updates.push(...streams.finish());
  return updates;
}

/** An Anthropic stream's first event: a message not yet stopped. */
const anthropicStart = {
  type: "message_start",
  message: {
    id: "msg",
    type: "message",
    role: "assistant",
    model: "m",
    content: [],
    stop_reason: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
};

/** An Anthropic `tool_use` block opened at `index`. */
const toolUse = (index: number, id: string) => ({
  type: "content_block_start",
  index,
  content_block: { type: "tool_use", id, name: "get_weather", input: {} },
});

/** A piece of the input of the `tool_use` block at `index`. */
const inputDelta = (index: number, partial_json: string) => ({
  type: "content_block_delta",
  index,
  delta: { type: "input_json_delta", partial_json },
});

/** A Chat Completions stream chunk holding `choices`. */
const chatChunk = (choices: Record<string, unknown>[]) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices,
});

/** The scripted stream read through the real `openai` client, every update of streamCalls with it. */
const chatUpdates = async (n?: number): Promise<CallUpdate[]> => {
  const client = new OpenAI({ apiKey: "test", baseURL: `${origin}/v1`, maxRetries: 0 });
  const streams = streamCalls("openai-chat", { get_weather: openaiCodec.value });
  const stream = await client.chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: "?" }],
    ...(n === undefined ? {} : { n }),
    stream: true,
  });
  return read(stream, streams);
};

describe("Gemini under @google/genai: whole calls per chunk", () => {
  const chunk = (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
  });

  it("decodes each call of generateContentStream's chunks exactly", async () => {
    const paris = wireOf(geminiCodec.value, { city: "Paris" });
    const oslo = wireOf(geminiCodec.value, { city: "Oslo", unit: "f" });
    script = {
      drop: false,
      events: [
        chunk([{ text: "Checking." }]),
        chunk([{ functionCall: { id: "g1", name: "get_weather", args: JSON.parse(paris) } }]),
        chunk([{ functionCall: { id: "g2", name: "get_weather", args: JSON.parse(oslo) } }], "STOP"),
      ],
    };
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: origin } });
    const streams = streamCalls("gemini", { get_weather: geminiCodec.value });
    const stream = await ai.models.generateContentStream({ model: "m", contents: "weather?" });
    const updates = await read(stream, streams);
    expect(seen?.url).toContain(":streamGenerateContent");
    expect(updates.filter((u) => u.kind === "decoded")).toEqual([
      { kind: "decoded", id: "g1", name: "get_weather", result: geminiCodec.value.decode(paris) },
      { kind: "decoded", id: "g2", name: "get_weather", result: geminiCodec.value.decode(oslo) },
    ]);
    expect(updates.filter((u) => u.kind === "cut")).toEqual([]);
  });
});

describe("Gemini under @google/genai: only candidate 0 (the one whose index is 0) is read", () => {
  it("a chunk of candidate 1 alone, or listed before candidate 0, gives none of candidate 1's calls", async () => {
    const paris = wireOf(geminiCodec.value, { city: "Paris" });
    const oslo = wireOf(geminiCodec.value, { city: "Oslo" });
    const call = (id: string, text: string) => ({ functionCall: { id, name: "get_weather", args: JSON.parse(text) } });
    script = {
      drop: false,
      events: [
        { candidates: [{ index: 1, content: { role: "model", parts: [call("c1", oslo)] } }] },
        {
          candidates: [
            { index: 1, content: { role: "model", parts: [call("c1b", oslo)] }, finishReason: "STOP" },
            { index: 0, content: { role: "model", parts: [call("c0", paris)] }, finishReason: "STOP" },
          ],
        },
      ],
    };
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: origin } });
    const streams = streamCalls("gemini", { get_weather: geminiCodec.value });
    const stream = await ai.models.generateContentStream({ model: "m", contents: "weather?" });
    const updates = await read(stream, streams);
    expect(updates.filter((u) => u.kind !== "partial")).toEqual([
      { kind: "decoded", id: "c0", name: "get_weather", result: geminiCodec.value.decode(paris) },
    ]);
  });
});

describe("Chat Completions under openai with n = 2: only choice 0's calls are read", () => {
  it("choice 1's calls, streamed beside choice 0's and ended first, give nothing", async () => {
    const paris = wireOf(openaiCodec.value, { city: "Paris" });
    const oslo = wireOf(openaiCodec.value, { city: "Oslo" });
    const fragment = (id: string, text: string) => ({
      tool_calls: [{ index: 0, id, type: "function", function: { name: "get_weather", arguments: text } }],
    });
    script = {
      drop: false,
      events: [
        chatChunk([{ index: 1, delta: fragment("call_b", oslo), finish_reason: null }]),
        chatChunk([{ index: 1, delta: {}, finish_reason: "tool_calls" }]),
        chatChunk([{ index: 0, delta: fragment("call_a", paris), finish_reason: null }]),
        chatChunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
      ],
    };
    const updates = await chatUpdates(2);
    expect(updates.filter((u) => u.kind !== "partial")).toEqual([
      { kind: "decoded", id: "call_a", name: "get_weather", result: openaiCodec.value.decode(paris) },
    ]);
  });
});

describe("a connection dropped before the provider's end event: cut, never decoded", () => {
  it("Chat Completions under openai: whole arguments, no finish_reason", async () => {
    const text = wireOf(openaiCodec.value, { city: "Paris" });
    const chunk = (delta: Record<string, unknown>) => chatChunk([{ index: 0, delta, finish_reason: null }]);
    script = {
      drop: true,
      events: [
        chunk({
          role: "assistant",
          tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: text } }] }),
      ],
    };
    const updates = await chatUpdates();
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toEqual({
      kind: "cut",
      id: "call_1",
      name: "get_weather",
      result: openaiCodec.value.decode(text),
    });
    // The text was whole JSON: only the rule kept it from being acted on.
    expect(openaiCodec.value.decode(text).ok).toBe(true);
  });

  it("Anthropic under @anthropic-ai/sdk: whole input, no content_block_stop", async () => {
    const text = wireOf(anthropicCodec.value, { city: "Paris" });
    script = {
      drop: true,
      events: [anthropicStart, toolUse(0, "toolu_1"), inputDelta(0, text)],
    };
    const client = new Anthropic({ apiKey: "test", baseURL: origin, maxRetries: 0 });
    const streams = streamCalls("anthropic", { get_weather: anthropicCodec.value });
    const stream = await client.messages.create({
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: "?" }],
      stream: true,
    });
    const updates = await read(stream, streams);
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "cut", id: "toolu_1", result: { ok: true } });
  });
});

describe("the SDK's snapshot of a stream the connection dropped: the dispatcher runs none of its calls", () => {
  /** What the dispatcher made of `response` under `api`, and the arguments its handler ran on. */
  const dispatched = async (api: "anthropic" | "openai-chat", response: unknown) => {
    const codec = api === "anthropic" ? anthropicCodec.value : openaiCodec.value;
    const ran: unknown[] = [];
    const dispatcher = createDispatcher({ get_weather: codec }, { get_weather: (value) => ran.push(value) });
    const r = await dispatcher.answer(api, response as never);
    return { kinds: r.calls.map((c) => c.kind), ran };
  };

  it("Anthropic under @anthropic-ai/sdk: stop_reason null, one block ended and one whose input the SDK parsed partial", async () => {
    script = {
      drop: true,
      events: [
        anthropicStart,
        toolUse(0, "toolu_1"),
        inputDelta(0, wireOf(anthropicCodec.value, { city: "Paris" })),
        { type: "content_block_stop", index: 0 },
        toolUse(1, "toolu_2"),
        // Cut inside the string: the SDK's partial parse reads it as {"city":"Ro"}.
        inputDelta(1, '{"city":"Ro'),
      ],
    };
    const client = new Anthropic({ apiKey: "test", baseURL: origin, maxRetries: 0 });
    const stream = client.messages.stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: "?" }] });
    stream.on("error", () => undefined);
    let snapshot: unknown;
    try {
      for await (const _ of stream) snapshot = stream.currentMessage;
    } catch {
      // The connection ended early: the snapshot is what the SDK holds of the message.
    }
    expect(snapshot).toMatchObject({ stop_reason: null, content: [{ input: { city: "Paris" } }, { id: "toolu_2" }] });
    expect(await dispatched("anthropic", snapshot)).toEqual({ kinds: ["truncated", "truncated"], ran: [] });
  });

  it("Chat Completions under openai: finish_reason null, one call's arguments whole", async () => {
    const chunk = (delta: Record<string, unknown>) => chatChunk([{ index: 0, delta, finish_reason: null }]);
    const call = (index: number, id: string, args: string) => ({
      tool_calls: [{ index, id, type: "function", function: { name: "get_weather", arguments: args } }],
    });
    script = {
      drop: true,
      events: [
        chunk({ role: "assistant", ...call(0, "call_1", wireOf(openaiCodec.value, { city: "Paris" })) }),
        chunk(call(1, "call_2", '{"city":"Ro')),
      ],
    };
    const client = new OpenAI({ apiKey: "test", baseURL: `${origin}/v1`, maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: "m", messages: [{ role: "user", content: "?" }] });
    stream.on("error", () => undefined);
    let snapshot: unknown;
    try {
      for await (const _ of stream) snapshot = structuredClone(stream.currentChatCompletionSnapshot);
    } catch {
      // The connection ended early: the snapshot is what the SDK holds of the completion.
    }
    expect(snapshot).toMatchObject({ choices: [{ finish_reason: null }] });
    expect(await dispatched("openai-chat", snapshot)).toEqual({ kinds: ["truncated", "truncated"], ran: [] });
  });
});

describe("Anthropic eager_input_streaming under @anthropic-ai/sdk", () => {
  it("the request carries the option; input that is not JSON is refused before the block ends", async () => {
    const tool = toolDefinition(anthropicCodec.value.bundle, "anthropic", { eagerInputStreaming: true });
    if (!tool.ok) throw new Error(tool.error.message);
    const deltas = ['{"city":"Par', 'is" "unit"', ':{"state":"absent"}}'];
    script = {
      drop: false,
      events: [
        anthropicStart,
        toolUse(0, "toolu_e"),
        ...deltas.map((partial_json) => inputDelta(0, partial_json)),
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ],
    };
    const client = new Anthropic({ apiKey: "test", baseURL: origin, maxRetries: 0 });
    const streams = streamCalls("anthropic", { get_weather: anthropicCodec.value });
    const stream = await client.messages.create({
      model: "m",
      max_tokens: 64,
      // The SDK types input_schema as its own InputSchema; the wire is a plain JSON Schema object.
      tools: [tool.value] as unknown as Anthropic.Messages.Tool[],
      messages: [{ role: "user", content: "?" }],
      stream: true,
    });
    const order: string[] = [];
    for await (const event of stream) for (const u of streams.event(event)) order.push(`${event.type}:${u.kind}`);
    const sent = seen?.body.tools as Record<string, unknown>[] | undefined;
    expect(sent?.[0]).toMatchObject({
      name: "get_weather",
      eager_input_streaming: true,
      strict: true,
    });
    // Refused at the delta that broke the JSON, before content_block_stop; the end says the same.
    expect(order.indexOf("content_block_delta:refused")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("content_block_delta:refused")).toBeLessThan(order.indexOf("content_block_stop:decoded"));
  });
});

describe("an Anthropic refusal under @anthropic-ai/sdk: the same error streamed as whole", () => {
  /** A message that writes `texts` (one text block, a delta each) and stops with "refusal". */
  const refusalEvents = (texts: readonly string[]): Record<string, unknown>[] => [
    anthropicStart,
    ...(texts.length === 0
      ? []
      : [
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
          ...texts.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
          { type: "content_block_stop", index: 0 },
        ]),
    { type: "message_delta", delta: { stop_reason: "refusal", stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: "message_stop" },
  ];

  for (const [what, texts, says] of [
    ["with the model's words", ["I can't help ", "with that."], "I can't help with that."],
    ["with no text", [], "stop_reason refusal"],
  ] as const) {
    it(what, async () => {
      script = { drop: false, events: refusalEvents(texts) };
      const client = new Anthropic({ apiKey: "test", baseURL: origin, maxRetries: 0 });
      const stream = client.messages.stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: "?" }] });
      const answer = streamOutput(anthropicCodec.value, "anthropic");
      const updates: AnswerUpdate[] = [];
      for await (const event of stream) updates.push(...answer.event(event));
      updates.push(...answer.finish());
      const whole = decodeOutput(anthropicCodec.value, "anthropic", await stream.finalMessage());
      expect(whole).toMatchObject({ ok: false, error: { code: "answer-refused", path: "" } });
      if (whole.ok) return;
      expect(whole.error.message).toBe(`the model declined to answer: ${says}`);
      // Before it, the decoder's early refusal of words that are no JSON; the answer ends as the whole one does.
      expect(updates.filter((u) => u.kind !== "partial" && u.kind !== "refused")).toEqual([
        { kind: "failed", error: whole.error },
      ]);
    });
  }
});

describe("an OpenAI refusal streamed apart from the answer, under openai: the same error streamed as whole", () => {
  const words = ["I can't help ", "with that."];
  const says = "I can't help with that.";

  /** Every update of streamOutput over `stream`, to its end. */
  const answerOf = async (api: "openai-chat" | "openai-responses", stream: AsyncIterable<unknown>) => {
    const answer = streamOutput(openaiCodec.value, api);
    const updates: AnswerUpdate[] = [];
    for await (const event of stream) updates.push(...answer.event(event));
    updates.push(...answer.finish());
    return updates;
  };

  it("Chat Completions: delta.refusal, then finish_reason stop", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      chatChunk([{ index: 0, delta, finish_reason: finish }]);
    script = {
      drop: false,
      events: [
        chunk({ role: "assistant", content: null, refusal: "" }),
        ...words.map((refusal) => chunk({ refusal })),
        chunk({}, "stop"),
      ],
    };
    const client = new OpenAI({ apiKey: "test", baseURL: `${origin}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "?" }],
      stream: true,
    });
    const updates = await answerOf("openai-chat", stream);
    const whole = decodeOutput(openaiCodec.value, "openai-chat", {
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: null, refusal: says } }],
    });
    expect(whole).toMatchObject({
      ok: false,
      error: { code: "answer-refused", message: `the model declined to answer: ${says}` },
    });
    if (whole.ok) return;
    expect(updates).toEqual([{ kind: "failed", error: whole.error }]);
  });

  it("Responses: response.refusal.delta, then response.completed", async () => {
    const item = { type: "message", id: "msg_1", role: "assistant", status: "completed" };
    const final = {
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [{ ...item, content: [{ type: "refusal", refusal: says }] }],
    };
    script = {
      drop: false,
      events: [
        { type: "response.created", response: { ...final, status: "in_progress", output: [] } },
        { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", content: [] } },
        ...words.map((delta) => ({
          type: "response.refusal.delta",
          item_id: "msg_1",
          output_index: 0,
          content_index: 0,
          delta,
        })),
        { type: "response.refusal.done", item_id: "msg_1", output_index: 0, content_index: 0, refusal: says },
        { type: "response.completed", response: final },
      ],
    };
    const client = new OpenAI({ apiKey: "test", baseURL: `${origin}/v1`, maxRetries: 0 });
    const stream = await client.responses.create({ model: "m", input: "?", stream: true });
    const updates = await answerOf("openai-responses", stream);
    const whole = decodeOutput(openaiCodec.value, "openai-responses", final);
    expect(whole).toMatchObject({
      ok: false,
      error: { code: "answer-refused", message: `the model declined to answer: ${says}` },
    });
    if (whole.ok) return;
    expect(updates).toEqual([{ kind: "failed", error: whole.error }]);
  });
});
