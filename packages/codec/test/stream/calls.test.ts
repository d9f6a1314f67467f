/**
 * streamCalls: provider stream events (recorded shapes) to partial source
 * values, an early refusal, an unknown tool, and the final decode.
 */
import { type CallUpdate, compileCodec, streamCalls } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

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
/** The wire text a strict model writes: the absent `unit` travels as `{"state":"absent"}`. */
const wire = JSON.stringify(encoded.value);

function responsesEvents(name: string, deltas: readonly string[]): unknown[] {
  return [
    { type: "response.created", sequence_number: 0, response: { id: "resp_1", output: [] } },
    {
      type: "response.output_item.added",
      sequence_number: 1,
      output_index: 0,
      item: { type: "function_call", id: "fc_1", call_id: "call_a", name, arguments: "" },
    },
    ...deltas.map((delta, i) => ({
      type: "response.function_call_arguments.delta",
      sequence_number: 2 + i,
      item_id: "fc_1",
      output_index: 0,
      delta,
    })),
    {
      type: "response.function_call_arguments.done",
      sequence_number: 2 + deltas.length,
      item_id: "fc_1",
      output_index: 0,
      arguments: deltas.join(""),
    },
  ];
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe("streamCalls", () => {
  it("gives the partial source value per change, then exactly decode's result (Responses)", () => {
    const streams = streamCalls("responses", codecs);
    const updates: CallUpdate[] = [];
    for (const event of responsesEvents("get_weather", pieces(wire, 3))) updates.push(...streams.event(event));
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(1);
    for (const p of partials) expect(p.id).toBe("call_a");
    // The source form: the absent member stays absent, never the wire's null.
    expect(wire).toContain('"unit":{"state":"absent"}');
    for (const p of partials) if (p.kind === "partial") expect(Object(p.value).unit).toBeUndefined();
    expect(partials.at(-1)).toMatchObject({ value: { city: "Paris" } });
    const decoded = updates.at(-1);
    expect(decoded).toEqual({ kind: "decoded", id: "call_a", name: "get_weather", result: weather.value.decode(wire) });
  });

  it("refuses early, once, with decode's error code, and still ends with decode's result", () => {
    const streams = streamCalls("responses", codecs);
    // A parse-level break: the decoder refuses at the first impossible character.
    const text = '{"city": "Paris" "unit": null}';
    const updates = responsesEvents("get_weather", pieces(text, 2)).flatMap((e) => [...streams.event(e)]);
    const refusals = updates.filter((u) => u.kind === "refused");
    expect(refusals).toHaveLength(1);
    const final = weather.value.decode(text);
    expect(final.ok).toBe(false);
    if (final.ok || refusals[0]?.kind !== "refused") throw new Error("expected refusals");
    expect(refusals[0].error.code).toBe(final.error.code);
    // Refused before the text was complete.
    expect(updates.indexOf(refusals[0])).toBeLessThan(updates.length - 1);
    expect(updates.at(-1)).toEqual({ kind: "decoded", id: "call_a", name: "get_weather", result: final });
  });

  it("answers a call naming no tool of the set with one unknown-tool update, never a throw", () => {
    const streams = streamCalls("anthropic", codecs);
    const events = [
      { type: "message_start", message: { id: "msg_1", content: [] } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "rm_rf", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"x":1}' } },
      { type: "content_block_stop", index: 0 },
    ];
    const updates = events.flatMap((e) => [...streams.event(e)]);
    expect(updates).toEqual([{ kind: "unknown-tool", id: "toolu_1", name: "rm_rf" }]);
  });

  it("cuts open Chat Completions calls at finish: a whole text with no finish_reason is never decoded", () => {
    const streams = streamCalls("chat-completions", codecs);
    const chunk = (toolCall: Record<string, unknown>) => ({
      id: "chatcmpl_1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: null }],
    });
    const updates = [
      chunk({ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }),
      ...pieces(wire, 4).map((arguments_) => chunk({ index: 0, function: { arguments: arguments_ } })),
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "partial", value: { city: "Paris" } });
    expect(streams.finish()).toEqual([
      { kind: "cut", id: "call_1", name: "get_weather", result: weather.value.decode(wire) },
    ]);
    expect(streams.event(null)).toEqual([]);
  });
});

describe("streamCalls: an event that cannot be read", () => {
  /** An event whose every property read throws (a proxy, a user's wrapper, a malformed SDK object). */
  const unreadable = new Proxy(
    {},
    {
      get() {
        throw new Error("boom");
      },
    },
  );
  /** An event whose getter of `field` (a field the API's reader looks at) throws. */
  const throwing = (field: string) =>
    Object.defineProperty({}, field, {
      get() {
        throw new Error("boom");
      },
      enumerable: true,
    });
  /** The field each API's reader reads first. */
  const fieldOf = {
    responses: "type",
    "chat-completions": "choices",
    anthropic: "type",
    "bedrock-converse": "contentBlockStart",
  };
  const [head, tail] = [wire.slice(0, 8), wire.slice(8)];
  const chatChunk = (toolCall: Record<string, unknown>) => ({
    id: "chatcmpl_1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: null }],
  });
  /** Per API: the events before the lost one (a call open, its first piece given) and after it (the rest, the end). */
  const streamsOf = {
    responses: (): [unknown[], unknown[]] => {
      const events = responsesEvents("get_weather", [head, tail]);
      return [events.slice(0, 3), events.slice(3)];
    },
    "chat-completions": (): [unknown[], unknown[]] => [
      [
        chatChunk({ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }),
        chatChunk({ index: 0, function: { arguments: head } }),
      ],
      [
        chatChunk({ index: 0, function: { arguments: tail } }),
        { id: "chatcmpl_1", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ],
    ],
    anthropic: (): [unknown[], unknown[]] => [
      [
        { type: "message_start", message: { id: "msg_1", content: [] } },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "call_a", name: "get_weather", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: head } },
      ],
      [
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: tail } },
        { type: "content_block_stop", index: 0 },
      ],
    ],
    "bedrock-converse": (): [unknown[], unknown[]] => [
      [
        {
          contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "call_a", name: "get_weather" } } },
        },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: head } } } },
      ],
      [
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: tail } } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
      ],
    ],
  } as const;

  for (const [api, events] of Object.entries(streamsOf)) {
    for (const [what, lost] of [
      ["a proxy", unreadable],
      ["a throwing getter", throwing(fieldOf[api as keyof typeof fieldOf])],
    ] as const) {
      it(`${api}: ${what} refuses the open call (stream-violation), never throws, never decodes it`, () => {
        const streams = streamCalls(api as keyof typeof streamsOf, codecs);
        const [before, after] = events();
        const updates = before.flatMap((e) => [...streams.event(e)]);
        const atLoss = [...streams.event(lost)];
        expect(atLoss).toMatchObject([
          { kind: "refused", id: "call_a", name: "get_weather", error: { code: "stream-violation", path: "" } },
        ]);
        if (atLoss[0]?.kind === "refused") expect(atLoss[0].error.message).toMatch(/could not be read/);
        updates.push(...atLoss, ...after.flatMap((e) => [...streams.event(e)]), ...streams.finish());
        const final = updates.at(-1);
        expect(final).toMatchObject({ kind: "decoded", id: "call_a", result: { ok: false } });
        if (final?.kind === "decoded" && !final.result.ok) expect(final.result.error.code).toBe("stream-violation");
      });
    }
  }

  it("chat-completions: a call not opened yet (its arguments to come) is refused when it opens", () => {
    const streams = streamCalls("chat-completions", codecs);
    const updates = [
      chatChunk({ index: 0, id: "call_a", type: "function", function: { name: "get_weather" } }),
      unreadable,
      chatChunk({ index: 0, function: { arguments: wire } }),
      { id: "chatcmpl_1", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates.map((u) => u.kind)).toEqual(["refused", "decoded"]);
    const final = updates.at(-1);
    if (final?.kind === "decoded" && !final.result.ok) expect(final.result.error.code).toBe("stream-violation");
    else throw new Error("expected a refused decode");
  });

  it("gemini: an unreadable chunk with no call open is ignored, and later calls decode", () => {
    const streams = streamCalls("gemini", codecs);
    expect(streams.event(unreadable)).toEqual([]);
    const chunk = {
      candidates: [{ index: 0, content: { parts: [{ functionCall: { name: "get_weather", args: encoded.value } }] } }],
    };
    expect(streams.event(chunk).at(-1)).toEqual({
      kind: "decoded",
      id: "",
      name: "get_weather",
      result: weather.value.decode(wire),
    });
  });
});
