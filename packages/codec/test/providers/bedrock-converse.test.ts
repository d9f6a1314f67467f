/**
 * Amazon Bedrock Converse, end to end with the real AWS SDK
 * (`@aws-sdk/client-bedrock-runtime`) pointed at a server on 127.0.0.1: the
 * SDK signs each request itself (static test credentials), the server (HTTP/2
 * in clear text, as the SDK's Bedrock runtime client speaks HTTP/2) answers in
 * Converse's wire format, and ConverseStream's events travel in
 * AWS's binary event-stream framing (encoded with the SDK's own codec).
 */
import {
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  type Message,
} from "@aws-sdk/client-bedrock-runtime";
import { type CallUpdate, compileCodec, createDispatcher, streamCalls } from "@strictwire/codec";
import { bedrockConverse, providerApi, storedCalls, toolDefinition } from "@strictwire/codec/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BedrockLoopback, bedrockLoopback, eventFrame, json } from "./bedrock-loopback.js";

let loop: BedrockLoopback;
beforeAll(async () => {
  loop = await bedrockLoopback();
});
afterAll(() => loop.close());

const SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", minimum: 1 },
    unit: { enum: ["c", "f"] },
  },
  required: ["city", "days"],
  additionalProperties: false,
};

function weatherCodec() {
  const compiled = compileCodec(SCHEMA, {
    name: "get_weather",
    description: "Forecast for a city.",
    target: "anthropic",
  });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

const lastBody = (): Record<string, unknown> => {
  const last = loop.seen.at(-1);
  if (last === undefined) throw new Error("no request reached the server");
  return last.body;
};

describe("Bedrock Converse through the AWS SDK", () => {
  it("sends strict tool definitions, decodes a toolUse exactly, and answers it with a toolResult", async () => {
    const codec = weatherCodec();
    const handled: unknown[] = [];
    const dispatcher = createDispatcher(
      { get_weather: codec },
      {
        get_weather: async (args) => {
          handled.push(args);
          return { forecast: "rain" };
        },
      },
    );
    const tools = dispatcher.tools("bedrock-converse");
    if (!tools.ok) throw new Error(tools.error.message);

    const user: Message = { role: "user", content: [{ text: "Weather in Oslo for 3 days, and in Bergen?" }] };
    loop.answer = json({
      output: {
        message: {
          role: "assistant",
          content: [
            { text: "Checking both." },
            { toolUse: { toolUseId: "tooluse_oslo", name: "get_weather", input: { city: "Oslo", days: 3 } } },
            { toolUse: { toolUseId: "tooluse_bergen", name: "get_weather", input: { city: "Bergen", days: "two" } } },
          ],
        },
      },
      stopReason: "tool_use",
      usage: { inputTokens: 21, outputTokens: 9, totalTokens: 30 },
      metrics: { latencyMs: 5 },
    });
    const response = await loop.client.send(
      new ConverseCommand({ modelId: "anthropic.claude-test", messages: [user], toolConfig: { tools: tools.value } }),
    );

    const first = loop.seen.at(-1);
    expect(first?.method).toBe("POST");
    expect(first?.path).toBe("/model/anthropic.claude-test/converse");
    // Signed by the SDK (SigV4 with the static test key), not by hand.
    expect(first?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSTRICTWIRETEST\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
    );
    expect(first?.body.toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: "get_weather",
            description: "Forecast for a city.",
            inputSchema: { json: codec.wire },
            strict: true,
          },
        },
      ],
    });

    const dispatched = await dispatcher.answer("bedrock-converse", response);
    expect(dispatched.truncation).toBeUndefined();
    expect(dispatched.calls.map((c) => [c.id, c.kind])).toEqual([
      ["tooluse_oslo", "ok"],
      ["tooluse_bergen", "rejected"],
    ]);
    // Exactly the value decode gives, and only the call that met the contract reached the handler.
    expect(handled).toEqual([{ city: "Oslo", days: 3 }]);
    const rejected = dispatched.calls[1];
    if (rejected?.kind !== "rejected") throw new Error("the second call was not rejected");
    expect(rejected.error.path).toBe("/days");

    // The next request carries the results, and the SDK takes them as Converse messages.
    const assistant = response.output?.message;
    if (assistant === undefined) throw new Error("no message in the response");
    loop.answer = json({
      output: { message: { role: "assistant", content: [{ text: "Rain in Oslo." }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 40, outputTokens: 4, totalTokens: 44 },
      metrics: { latencyMs: 5 },
    });
    const next = await loop.client.send(
      new ConverseCommand({
        modelId: "anthropic.claude-test",
        messages: [user, assistant, ...dispatched.messages],
        toolConfig: { tools: tools.value },
      }),
    );
    expect(next.stopReason).toBe("end_turn");
    const messages = lastBody().messages as unknown[];
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        { toolResult: { toolUseId: "tooluse_oslo", content: [{ text: '{"forecast":"rain"}' }] } },
        { toolResult: { toolUseId: "tooluse_bergen", content: [{ text: rejected.output }], status: "error" } },
      ],
    });
  });

  it("decodes a call ConverseStream sends in event-stream frames, through streamCalls", async () => {
    const codec = weatherCodec();
    const event = eventFrame;
    const wire = [
      event("messageStart", { role: "assistant" }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Checking." } }),
      event("contentBlockStop", { contentBlockIndex: 0 }),
      event("contentBlockStart", {
        contentBlockIndex: 1,
        start: { toolUse: { toolUseId: "tooluse_stream", name: "get_weather" } },
      }),
      event("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Tro' } } }),
      event("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: 'ms\\u00f8","days"' } } }),
      event("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: ":2}" } } }),
      event("contentBlockStop", { contentBlockIndex: 1 }),
      event("messageStop", { stopReason: "tool_use" }),
      event("metadata", { usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20 }, metrics: { latencyMs: 7 } }),
    ];
    loop.answer = (res) => {
      res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      // One frame split across two writes: the SDK reassembles the framing, not the reader.
      const all = Buffer.concat(wire);
      const cut = wire[0]?.length ?? 0;
      res.write(all.subarray(0, cut + 7));
      res.end(all.subarray(cut + 7));
    };
    const out = await loop.client.send(
      new ConverseStreamCommand({
        modelId: "anthropic.claude-test",
        messages: [{ role: "user", content: [{ text: "Tromsø, 2 days" }] }],
      }),
    );
    expect(loop.seen.at(-1)?.path).toBe("/model/anthropic.claude-test/converse-stream");
    const streams = streamCalls("bedrock-converse", { get_weather: codec });
    const events: ConverseStreamOutput[] = [];
    const updates: CallUpdate[] = [];
    for await (const e of out.stream ?? []) {
      events.push(e);
      updates.push(...streams.event(e));
    }
    updates.push(...streams.finish());

    // The SDK decoded the frames into the shapes the module reads.
    expect(
      events.map((e) => Object.keys(e).filter((k) => (e as unknown as Record<string, unknown>)[k] !== undefined)),
    ).toEqual([
      ["messageStart"],
      ["contentBlockDelta"],
      ["contentBlockStop"],
      ["contentBlockStart"],
      ["contentBlockDelta"],
      ["contentBlockDelta"],
      ["contentBlockDelta"],
      ["contentBlockStop"],
      ["messageStop"],
      ["metadata"],
    ]);
    const decoded = updates.filter((u) => u.kind === "decoded");
    expect(decoded).toEqual([
      {
        kind: "decoded",
        id: "tooluse_stream",
        name: "get_weather",
        result: { ok: true, value: { city: "Tromsø", days: 2 } },
      },
    ]);
    expect(decoded[0]?.kind === "decoded" && decoded[0].result).toEqual(
      codec.decode('{"city":"Troms\\u00f8","days":2}'),
    );
    expect(updates.some((u) => u.kind === "partial")).toBe(true);
  });
});

const converseCalls = bedrockConverse.calls;

describe("the Converse module on its own", () => {
  it("is one registry entry: its name, its target and its definition", () => {
    expect(providerApi("bedrock-converse")).toBe("bedrock-converse");
    const anthropicTool = weatherCodec();
    const definition = toolDefinition(anthropicTool.bundle, "bedrock-converse");
    expect(definition.ok && definition.value.toolSpec.inputSchema.json).toEqual(anthropicTool.wire);
    const openai = compileCodec(SCHEMA, { name: "get_weather", target: "openai" });
    if (!openai.ok) throw new Error(openai.error.message);
    const refused = toolDefinition(openai.value.bundle, "bedrock-converse");
    expect(refused.ok ? undefined : refused.error.code).toBe("invalid-options");
  });

  it("reads a cut, a server tool and junk without throwing", () => {
    const cut = {
      output: {
        message: {
          content: [
            { toolUse: { toolUseId: "server", name: "web_search", input: {}, type: "server_tool_use" } },
            { toolUse: { toolUseId: "t1", name: "get_weather", input: { city: "Oslo" } } },
          ],
        },
      },
      stopReason: "max_tokens",
    };
    expect(converseCalls(cut)).toEqual({
      calls: [{ id: "t1", name: "get_weather", kind: "function", arguments: { city: "Oslo" }, cutOff: true }],
      truncation: "max_tokens",
    });
    // A stored Converse response is told apart from the other APIs' by its `output.message`.
    expect(storedCalls(cut)).toEqual(converseCalls(cut));
    for (const junk of [
      {},
      { output: null },
      { output: { message: { content: "x" } } },
      { output: { message: { content: [null, 3, { toolUse: [] }] } } },
    ]) {
      expect(converseCalls(junk)).toEqual({ calls: [], truncation: undefined });
    }
    expect(
      converseCalls({
        output: { message: { content: [{ toolUse: { toolUseId: 7, input: 1 } }] } },
        stopReason: "tool_use",
      }).calls,
    ).toEqual([{ id: undefined, name: undefined, kind: "function", arguments: 1, cutOff: false }]);
  });

  it("cuts every call of a response with no stopReason: it is not known to be over, so none is run", () => {
    const use = (id: string, city: string) => ({ toolUse: { toolUseId: id, name: "get_weather", input: { city } } });
    const content = [use("t1", "Oslo"), use("t2", "Bergen")];
    for (const stop of [{}, { stopReason: null }]) {
      const read = converseCalls({ output: { message: { content } }, ...stop });
      expect(read.calls.map((c) => c.cutOff)).toEqual([true, true]);
    }
    // With its stopReason the same response is whole.
    const whole = converseCalls({ output: { message: { content } }, stopReason: "tool_use" });
    expect(whole.calls.map((c) => c.cutOff)).toEqual([false, false]);
  });

  it("ends a streamed call that got no input delta with no arguments, and cuts every open call at messageStop", () => {
    const codec = weatherCodec();
    const empty = compileCodec(
      { type: "object", properties: {}, additionalProperties: false },
      { name: "ping", target: "anthropic" },
    );
    if (!empty.ok) throw new Error(empty.error.message);
    const streams = streamCalls("bedrock-converse", { get_weather: codec, ping: empty.value });
    const updates = [
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "p", name: "ping" } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "w", name: "get_weather" } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Oslo"' } } } },
      { messageStop: { stopReason: "max_tokens" } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: ',"days":1}' } } } },
    ].flatMap((e) => streams.event(e));
    const finals = updates.filter((u) => u.kind === "decoded" || u.kind === "cut");
    // The provider ended "p" (contentBlockStop); "w" it never ended: cut, never decoded.
    expect(finals.map((u) => [u.id, u.kind, (u.kind === "decoded" || u.kind === "cut") && u.result.ok])).toEqual([
      ["p", "decoded", true],
      ["w", "cut", false],
    ]);
    expect(streams.finish()).toEqual([]);
  });
});
