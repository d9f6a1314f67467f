/**
 * streamCalls under the real `openai` and `@anthropic-ai/sdk` clients: a
 * node:http server on 127.0.0.1 streams Responses API events, Chat Completions
 * chunks and Anthropic Messages events (recorded shapes) as SSE; the client
 * parses them and the test feeds its events to streamCalls. The early refusal lets
 * the test abort the request while the server still has events to send.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { type CallUpdate, compileCodec, streamCalls } from "@strictwire/codec";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const weather = compileCodec({
  type: "object",
  properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
});
if (!weather.ok) throw new Error(weather.error.message);
const codecs = { get_weather: weather.value };
const encoded = weather.value.encode({ city: "Paris" });
if (!encoded.ok) throw new Error(encoded.error.message);
const wire = JSON.stringify(encoded.value);

/** The Responses stream of one function call whose arguments are `text`, in `size`-character deltas. */
function responseEvents(text: string, size: number): Record<string, unknown>[] {
  const item = {
    type: "function_call",
    id: "fc_1",
    call_id: "call_1",
    name: "get_weather",
    arguments: "",
    status: "in_progress",
  };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item },
  ];
  for (let at = 0; at < text.length; at += size) {
    events.push({
      type: "response.function_call_arguments.delta",
      item_id: "fc_1",
      output_index: 0,
      delta: text.slice(at, at + size),
    });
  }
  events.push(
    { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: text },
    { type: "response.output_item.done", output_index: 0, item: { ...item, arguments: text, status: "completed" } },
    { type: "response.completed", response: { id: "resp_1", object: "response", status: "completed", output: [] } },
  );
  return events.map((e, i) => ({ ...e, sequence_number: i }));
}

let server: Server;
let baseURL: string;
/** What the next request streams, and how many events the server wrote before the client went away. */
let script: Record<string, unknown>[] = [];
let written = 0;
let closed: Promise<void> = Promise.resolve();

async function stream(res: ServerResponse, events: readonly Record<string, unknown>[]): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  written = 0;
  for (const event of events) {
    if (res.destroyed || res.writableEnded) return;
    // Responses events are named; Chat Completions chunks are bare data lines.
    const name = typeof event.type === "string" ? `event: ${event.type}\n` : "";
    res.write(`${name}data: ${JSON.stringify(event)}\n\n`);
    written++;
    // Apart, as a model's deltas arrive.
    await new Promise((wait) => setTimeout(wait, 10));
  }
  res.end("data: [DONE]\n\n");
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    closed = new Promise((done) => res.on("close", () => done()));
    void stream(res, script);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

const client = () => new OpenAI({ apiKey: "test", baseURL, maxRetries: 0 });

describe("streamCalls with the openai client's Responses stream", () => {
  it("gives partial source values, then exactly decode's result", async () => {
    script = responseEvents(wire, 4);
    const streams = streamCalls("responses", codecs);
    const updates: CallUpdate[] = [];
    const events = await client().responses.create({ model: "m", input: "weather?", stream: true });
    for await (const event of events) updates.push(...streams.event(event));
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(2);
    // The source form: the wire's {"state":"absent"} never shows as a value.
    for (const p of partials) if (p.kind === "partial") expect(Object(p.value).unit).toBeUndefined();
    expect(partials.at(-1)).toMatchObject({ id: "call_1", value: { city: "Paris" } });
    expect(updates.at(-1)).toEqual({
      kind: "decoded",
      id: "call_1",
      name: "get_weather",
      result: weather.value.decode(wire),
    });
  });

  it("refuses early, so the request can be aborted before the server has finished", async () => {
    const broken = '{"city":"Paris" "unit":{"state":"absent"}}'.padEnd(200, " ");
    script = responseEvents(broken, 2);
    const controller = new AbortController();
    const streams = streamCalls("responses", codecs);
    const events = await client().responses.create(
      { model: "m", input: "weather?", stream: true },
      { signal: controller.signal },
    );
    let refusal: CallUpdate | undefined;
    try {
      for await (const event of events) {
        refusal = streams.event(event).find((u) => u.kind === "refused");
        if (refusal) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    expect(refusal).toMatchObject({ kind: "refused", id: "call_1", error: { code: "invalid-json" } });
    await closed;
    // The server was cut off well before its last event.
    expect(written).toBeLessThan(script.length - 10);
  });
});

/** A Chat Completions stream of one tool call whose arguments are `text`, in `size`-character chunks. */
function chatChunks(text: string, size: number): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "chatcmpl_1",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks = [
    chunk({
      role: "assistant",
      tool_calls: [{ index: 0, id: "call_c", type: "function", function: { name: "get_weather", arguments: "" } }],
    }),
  ];
  for (let at = 0; at < text.length; at += size) {
    chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(at, at + size) } }] }));
  }
  chunks.push(chunk({}, "tool_calls"));
  return chunks;
}

/** The updates streamCalls gives for the Chat Completions stream the openai client reads from the server's script. */
async function chatUpdates(): Promise<CallUpdate[]> {
  const streams = streamCalls("chat-completions", codecs);
  const updates: CallUpdate[] = [];
  const chunks = await client().chat.completions.create({
    model: "m",
    messages: [{ role: "user", content: "weather?" }],
    stream: true,
  });
  for await (const chunk of chunks) updates.push(...streams.event(chunk));
  updates.push(...streams.finish());
  return updates;
}

describe("streamCalls with the openai client's Chat Completions stream", () => {
  it("gives partial source values, then decode's result when the choice finishes", async () => {
    script = chatChunks(wire, 5);
    const updates = await chatUpdates();
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(2);
    for (const p of partials) if (p.kind === "partial") expect(Object(p.value).unit).toBeUndefined();
    expect(updates.filter((u) => u.kind === "decoded")).toEqual([
      { kind: "decoded", id: "call_c", name: "get_weather", result: weather.value.decode(wire) },
    ]);
  });

  it("reads a server that leaves the fragments' index out (Ollama, Gemini's compatibility endpoint) alike", async () => {
    type Chunk = { choices: { delta: { tool_calls?: Record<string, unknown>[] } }[] };
    script = chatChunks(wire, 5).map((chunk) => {
      const copy = structuredClone(chunk) as unknown as Chunk;
      for (const fragment of copy.choices[0]!.delta.tool_calls ?? []) delete fragment.index;
      return copy as unknown as Record<string, unknown>;
    });
    expect(JSON.stringify(script)).not.toContain('"index":0,"id"');
    expect(JSON.stringify(script)).toContain('"tool_calls":[{"function"');
    const updates = await chatUpdates();
    expect(updates.filter((u) => u.kind === "partial").length).toBeGreaterThan(2);
    expect(updates.filter((u) => u.kind === "decoded" || u.kind === "cut")).toEqual([
      { kind: "decoded", id: "call_c", name: "get_weather", result: weather.value.decode(wire) },
    ]);
  });

  it("reads a batch whose calls all carry index 0 (Ollama) and a name split over fragments (Gemini's compatibility endpoint)", async () => {
    type Fragment = { index: number; id?: string; function: { name?: string; arguments?: string } };
    type Chunk = { choices: { delta: { tool_calls?: Fragment[] } }[] };
    const first = chatChunks(wire, 5).slice(0, -1);
    const second = structuredClone(chatChunks(wire, 3)) as unknown as Chunk[];
    const opening = second[0]!.choices[0]!.delta.tool_calls![0]!;
    opening.id = "call_d";
    opening.function = { name: "get_", arguments: "" };
    const rest = structuredClone(second[1]!);
    rest.choices[0]!.delta.tool_calls = [{ index: 0, function: { name: "weather" } }];
    second.splice(1, 0, rest);
    script = [...first, ...(second as unknown as Record<string, unknown>[])];
    expect(JSON.stringify(script)).not.toContain('"index":1');
    const updates = await chatUpdates();
    expect(updates.filter((u) => u.kind === "decoded" || u.kind === "cut" || u.kind === "unknown-tool")).toEqual([
      { kind: "decoded", id: "call_c", name: "get_weather", result: weather.value.decode(wire) },
      { kind: "decoded", id: "call_d", name: "get_weather", result: weather.value.decode(wire) },
    ]);
  });
});

/** An Anthropic Messages stream of one tool_use block whose input is `text`, in `size`-character deltas. */
function anthropicEvents(text: string, size: number): Record<string, unknown>[] {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const events: Record<string, unknown>[] = [
    {
      type: "message_start",
      message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage },
    },
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
    },
  ];
  for (let at = 0; at < text.length; at += size) {
    events.push({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: text.slice(at, at + size) },
    });
  }
  events.push(
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage },
    { type: "message_stop" },
  );
  return events;
}

describe("streamCalls with the @anthropic-ai/sdk client's Messages stream", () => {
  it("gives partial source values, then decode's result at content_block_stop", async () => {
    script = anthropicEvents(wire, 6);
    const streams = streamCalls("anthropic", codecs);
    const updates: CallUpdate[] = [];
    const anthropic = new Anthropic({ apiKey: "test", baseURL: baseURL.replace(/\/v1$/, ""), maxRetries: 0 });
    const events = await anthropic.messages.create({
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: "weather?" }],
      stream: true,
    });
    for await (const event of events) updates.push(...streams.event(event));
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(2);
    for (const p of partials) if (p.kind === "partial") expect(Object(p.value).unit).toBeUndefined();
    expect(updates.at(-1)).toEqual({
      kind: "decoded",
      id: "toolu_1",
      name: "get_weather",
      result: weather.value.decode(wire),
    });
  });
});

describe("streamCalls: early refusal and unknown tools under the real clients", () => {
  it("Anthropic: refuses early, so the request can be aborted before the server has finished", async () => {
    const broken = '{"city":"Paris" "unit":{"state":"absent"}}'.padEnd(200, " ");
    script = anthropicEvents(broken, 2);
    const controller = new AbortController();
    const streams = streamCalls("anthropic", codecs);
    const anthropic = new Anthropic({ apiKey: "test", baseURL: baseURL.replace(/\/v1$/, ""), maxRetries: 0 });
    const events = await anthropic.messages.create(
      { model: "m", max_tokens: 64, messages: [{ role: "user", content: "weather?" }], stream: true },
      { signal: controller.signal },
    );
    let refusal: CallUpdate | undefined;
    try {
      for await (const event of events) {
        refusal = streams.event(event).find((u) => u.kind === "refused");
        if (refusal) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    const final = weather.value.decode(broken);
    if (final.ok) throw new Error("the broken call decodes");
    expect(refusal).toMatchObject({ kind: "refused", id: "toolu_1", error: { code: final.error.code } });
    await closed;
    expect(written).toBeLessThan(script.length - 10);
  });

  it("Chat Completions: a call naming no tool of the set is one unknown-tool update, never a throw", async () => {
    script = chatChunks(wire, 5).map((c) => JSON.parse(JSON.stringify(c).replace('"get_weather"', '"rm_rf"')));
    const updates = await chatUpdates();
    expect(updates).toEqual([{ kind: "unknown-tool", id: "call_c", name: "rm_rf" }]);
  });
});
