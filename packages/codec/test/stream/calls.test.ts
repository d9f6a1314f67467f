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
