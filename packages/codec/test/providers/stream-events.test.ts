/**
 * Provider stream events (recorded shapes of each API's stream) routed to one
 * incremental parser per tool call.
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { IncrementalParser } from "../../src/parse/incremental.js";
import { anthropicCallStreams } from "../../src/providers/anthropic.js";
import type { DeltaSink } from "../../src/providers/api.js";
import { chatCompletionsCallStreams } from "../../src/providers/openai-chat.js";
import { responsesCallStreams } from "../../src/providers/openai-responses.js";

/** A sink that records what it was given, around an incremental parser. */
class Recorder implements DeltaSink {
  readonly deltas: string[] = [];
  readonly parser = new IncrementalParser();
  ends = 0;
  cuts = 0;
  refusals: string[] = [];
  push(delta: string): unknown {
    this.deltas.push(delta);
    return this.parser.push(delta);
  }
  end(): unknown {
    this.ends++;
    return this.parser.end();
  }
  cut(): void {
    this.cuts++;
  }
  refuse(error: { readonly code: string; readonly message: string }): void {
    this.refusals.push(`${error.code}: ${error.message}`);
  }
}

const opened: { id: string; name: string }[] = [];
const open = (call: { id: string; name: string }): Recorder => {
  opened.push(call);
  return new Recorder();
};

describe("OpenAI Responses events", () => {
  it("routes each function call's argument deltas to its own sink and ends it at done", () => {
    const s = responsesCallStreams(open);
    const events = [
      { type: "response.created", sequence_number: 0, response: { id: "resp_1", output: [] } },
      {
        type: "response.output_item.added",
        sequence_number: 1,
        output_index: 0,
        item: {
          type: "function_call",
          id: "fc_1",
          call_id: "call_a",
          name: "get_weather",
          arguments: "",
          status: "in_progress",
        },
      },
      {
        type: "response.output_item.added",
        sequence_number: 2,
        output_index: 1,
        item: { type: "function_call", id: "fc_2", call_id: "call_b", name: "send_mail", arguments: "" },
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 3,
        item_id: "fc_1",
        output_index: 0,
        delta: '{"city":',
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 4,
        item_id: "fc_2",
        output_index: 1,
        delta: '{"to":"a@b',
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 5,
        item_id: "fc_1",
        output_index: 0,
        delta: '"Paris"}',
      },
      {
        type: "response.function_call_arguments.done",
        sequence_number: 6,
        item_id: "fc_1",
        output_index: 0,
        arguments: '{"city":"Paris"}',
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 7,
        item_id: "fc_2",
        output_index: 1,
        delta: '.c"}',
      },
      {
        type: "response.function_call_arguments.done",
        sequence_number: 8,
        item_id: "fc_2",
        output_index: 1,
        arguments: '{"to":"a@b.c"}',
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 9,
        item_id: "fc_2",
        output_index: 1,
        delta: "late",
      },
      { type: "response.completed", sequence_number: 10, response: { id: "resp_1" } },
    ];
    const touched = events.map((e) => s.event(e)?.id);
    expect(touched).toEqual([
      undefined,
      "call_a",
      "call_b",
      "call_a",
      "call_b",
      "call_a",
      "call_a",
      "call_b",
      "call_b",
      undefined, // a delta after done is ignored
      undefined,
    ]);
    const [a, b] = s.calls;
    expect(a).toMatchObject({ id: "call_a", name: "get_weather", ended: true });
    expect(a!.sink.deltas.join("")).toBe('{"city":"Paris"}');
    expect(a!.sink.end()).toEqual({ ok: true, value: { city: "Paris" } });
    expect(b!.sink.deltas.join("")).toBe('{"to":"a@b.c"}');
    expect(b!.sink.ends).toBe(1);
  });

  it("uses done's arguments when no delta came", () => {
    const s = responsesCallStreams(open);
    s.event({
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_9", call_id: "c9", name: "now" },
    });
    s.event({ type: "response.function_call_arguments.done", item_id: "fc_9", arguments: "{}" });
    expect(s.calls[0]!.sink.deltas).toEqual(["{}"]);
  });
});

describe("Chat Completions chunks", () => {
  it("routes tool call fragments by index and ends a choice's calls at its finish_reason", () => {
    const s = chatCompletionsCallStreams(open);
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    s.event(chunk({ role: "assistant", content: null }));
    s.event(
      chunk({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "search", arguments: "" } }],
      }),
    );
    s.event(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":"stri' } }] }));
    s.event(
      chunk({
        tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "open", arguments: '{"n":' } }],
      }),
    );
    s.event(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ct"}' } }] }));
    s.event(chunk({ tool_calls: [{ index: 1, function: { arguments: "3}" } }] }));
    expect(s.calls.map((c) => c.ended)).toEqual([false, false]);
    const last = s.event(chunk({}, "tool_calls"));
    expect(last?.id).toBe("call_2");
    s.event({ id: "chatcmpl-1", choices: [], usage: { total_tokens: 9 } });
    expect(s.calls.map((c) => [c.id, c.name, c.ended, c.sink.deltas.join("")])).toEqual([
      ["call_1", "search", true, '{"q":"strict"}'],
      ["call_2", "open", true, '{"n":3}'],
    ]);
    expect(s.calls[1]!.sink.parser.end()).toEqual({ ok: true, value: { n: 3 } });
  });

  it("cuts what is still open at finish(), once, and never ends it: no finish_reason came", () => {
    const s = chatCompletionsCallStreams(open);
    s.event({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "{}" } }] } }],
    });
    s.finish();
    s.finish();
    expect(s.calls[0]!.sink.ends).toBe(0);
    expect(s.calls[0]!.sink.cuts).toBe(1);
    expect(s.calls[0]!).toMatchObject({ ended: true, cut: true });
  });
});

describe("Anthropic Messages events", () => {
  it("routes input_json_delta by block index and ends the call at content_block_stop", () => {
    const s = anthropicCallStreams(open);
    const events = [
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me look." } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"id": 4' } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "2}" } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_2", name: "ping", input: {} },
      },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 20 } },
      { type: "message_stop" },
    ];
    for (const e of events) s.event(e);
    expect(s.calls.map((c) => [c.id, c.name, c.ended, c.sink.deltas.join("")])).toEqual([
      ["toolu_1", "lookup", true, '{"id": 42}'],
      ["toolu_2", "ping", true, "{}"],
    ]);
    expect(s.calls[0]!.sink.parser.end()).toEqual({ ok: true, value: { id: 42 } });
  });
});

describe("hostile events", () => {
  it("ignores what is not the expected shape, never throwing", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const junk: unknown[] = [
      null,
      42,
      "text",
      [],
      { type: "response.output_item.added" },
      { type: "response.output_item.added", item: { type: "function_call", call_id: 1, name: "x" } },
      { type: "response.function_call_arguments.delta", item_id: "nope", delta: "{" },
      { choices: "x" },
      {
        choices: [
          null,
          { index: 0, delta: { tool_calls: [null, { index: "0" }, { index: 0, function: { arguments: "{" } }] } },
        ],
      },
      { type: "content_block_delta", index: 5, delta: { type: "input_json_delta", partial_json: "{" } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t", name: "n", input: cyclic } },
      { type: "content_block_stop", index: 0 },
    ];
    const all = [responsesCallStreams(open), chatCompletionsCallStreams(open), anthropicCallStreams(open)];
    for (const s of all) for (const e of junk) expect(() => s.event(e)).not.toThrow();
    expect(all[0]!.calls).toEqual([]);
    expect(all[1]!.calls).toEqual([]);
    // The cyclic input cannot be written as text: the call is ended with nothing pushed.
    expect(all[2]!.calls.map((c) => [c.id, c.ended, c.sink.deltas])).toEqual([["t", true, []]]);
  });
});

describe("a sink that throws", () => {
  it("is a bug of the sink's: its exception reaches the caller, never read as an unreadable event", () => {
    const refusals: string[] = [];
    const s = anthropicCallStreams(() => ({
      push(): never {
        throw new RangeError("sink bug");
      },
      end: () => undefined,
      refuse: (error: { code: string }) => refusals.push(error.code),
    }));
    s.event({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t", name: "n" } });
    expect(() =>
      s.event({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{" } }),
    ).toThrow(RangeError);
    expect(refusals).toEqual([]);
    // The reader is not left thinking a sink runs: an unreadable event after is read as one.
    const unreadable = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
      },
    );
    expect(() => s.event(unreadable)).not.toThrow();
    expect(refusals).toEqual(["stream-violation"]);
  });
});

describe("Responses: the text kept to compare is bounded by the sink's byte limit", () => {
  const codec = compileCodec({ type: "object", properties: { q: { type: "string" } } }, { name: "search" });
  if (!codec.ok) throw new Error(codec.error.message);
  const added = {
    type: "response.output_item.added",
    item: { type: "function_call", id: "fc_1", call_id: "c1", name: "search", arguments: "" },
  };
  const delta = (d: string) => ({ type: "response.function_call_arguments.delta", item_id: "fc_1", delta: d });
  const kept = (call: unknown): unknown => (call as { text: unknown }).text;

  it("refuses a call past the limit as decode refuses its text, keeps none of it, and compares nothing", () => {
    const sinks: (Recorder & { maxBytes: number })[] = [];
    const s = responsesCallStreams(() => {
      const sink = Object.assign(new Recorder(), { maxBytes: 50 });
      sinks.push(sink);
      return sink;
    });
    s.event(added);
    // 48 bytes in pairs split between deltas (each half alone would count 3): within the limit, kept.
    const [high, low] = ["\u{1F600}".charAt(0), "\u{1F600}".charAt(1)];
    let text = '{"q":"';
    s.event(delta(text));
    for (let i = 0; i < 10; i++) {
      for (const half of [high, low]) s.event(delta(half));
      text += high + low;
    }
    expect(sinks[0]!.refusals).toEqual([]);
    expect(kept(s.calls[0])).toBeDefined();
    for (let i = 0; i < 100; i++) s.event(delta("abc"));
    text += "abc".repeat(100);
    const whole = codec.value.decode(text, { limits: { maxBytes: 50 } });
    expect(whole.ok ? "" : `${whole.error.code}: ${whole.error.message}`).toBe(sinks[0]!.refusals[0]);
    expect(sinks[0]!.refusals).toHaveLength(1);
    expect(kept(s.calls[0])).toBeUndefined();
    s.event({ type: "response.function_call_arguments.done", item_id: "fc_1", arguments: "{}" });
    expect(sinks[0]!.refusals).toHaveLength(1);
    expect(sinks[0]!.ends).toBe(1);
  });

  it("keeps no text once the sink refused the call", () => {
    const sink = Object.assign(new Recorder(), { refused: false });
    const s = responsesCallStreams(() => sink);
    s.event(added);
    s.event(delta('{"q":'));
    expect(kept(s.calls[0])).toBeDefined();
    sink.refused = true;
    for (let i = 0; i < 100; i++) s.event(delta("abc"));
    expect(kept(s.calls[0])).toBeUndefined();
  });
});
