/**
 * What streaming through strictwire adds to what reading a provider's stream
 * already costs (issue 42): the benchmark calls' deltas (1 to 8 characters,
 * the streaming section's) wrapped in each API's stream events, as JSON texts.
 * In the same rounds, as ratios to one `decode` of each whole text:
 *
 * - **floor**: every event's text `JSON.parse`d (what an SDK does for each
 *   event it yields, before any tool code sees it), the argument fragment
 *   taken from it and appended, and one `decode` of the text at the end. It
 *   leaves out the transport's framing (SSE; Bedrock's binary event stream)
 *   and the SDK's own work per event, so it is below what a real client pays.
 * - **decoder**: the floor's reading, each fragment pushed into the call's
 *   stream decoder (its partial value read), and `end()`: streaming without
 *   an adapter, so that streamCalls − decoder is the adapter's own share.
 * - **streamCalls**: the same texts parsed, each event read by
 *   `streamCalls(api, codecs)` (the partial value, early refusal, the
 *   provider's end of the call), every update's value read.
 *
 * The envelopes are the documented event shapes, with ids and model names of
 * typical length; no optional field a real stream may add (usage, logprobs
 * content, obfuscation padding) is in them, which keeps the floor low.
 */
import { type CallUpdate, type Codec, streamCalls, streamDecoder } from "@strictwire/codec";
import type { CallCase } from "../cases.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, type Summary } from "../stats.js";
import { type CodecText, decodeAll, deltasOf } from "./streaming.js";

export type Api = "openai-chat" | "anthropic" | "openai-responses" | "bedrock-converse";
export const APIS: readonly Api[] = ["openai-chat", "anthropic", "openai-responses", "bedrock-converse"];
const TOOL = "tool";

/** One call's stream, as the event texts the API sends (the `data:` payloads). */
export function eventsOf(api: Api, deltas: readonly string[], text: string, n: number): string[] {
  const events: object[] = [];
  if (api === "openai-chat") {
    const chunk = (delta: object, finish: string | null) => ({
      id: `chatcmpl-${String(n).padStart(29, "B9MBs8CjcvOU2jLn4n570S5qMJK")}`,
      object: "chat.completion.chunk",
      created: 1_765_000_000,
      model: "gpt-4.1-2025-04-14",
      service_tier: "default",
      system_fingerprint: "fp_51e1070cf2",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const id = `call_${String(n).padStart(24, "k3xVbq9Lm2Pz7Rt1Wy5Hn8Jd")}`;
    events.push(
      chunk(
        {
          role: "assistant",
          content: null,
          tool_calls: [{ index: 0, id, type: "function", function: { name: TOOL, arguments: "" } }],
        },
        null,
      ),
    );
    for (const d of deltas) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: d } }] }, null));
    events.push(chunk({}, "tool_calls"));
  } else if (api === "anthropic") {
    const usage = { input_tokens: 412, output_tokens: 1 };
    events.push(
      {
        type: "message_start",
        message: {
          id: `msg_${String(n).padStart(24, "01XFDUDYJgAACzvnptvVoYEL")}`,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5-20250929",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: {
          type: "tool_use",
          id: `toolu_${String(n).padStart(24, "01A09q90qw90lq917835lq9")}`,
          name: TOOL,
          input: {},
        },
      },
    );
    for (const d of deltas) {
      events.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: d } });
    }
    events.push(
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage },
      { type: "message_stop" },
    );
  } else if (api === "bedrock-converse") {
    // ConverseStream's events, each the JSON payload of one event-stream message.
    events.push(
      { messageStart: { role: "assistant" } },
      {
        contentBlockStart: {
          contentBlockIndex: 0,
          start: { toolUse: { toolUseId: `tooluse_${String(n).padStart(22, "kZJMlvQmRJ6eAyJE5GIl_Q")}`, name: TOOL } },
        },
      },
    );
    for (const d of deltas) {
      events.push({ contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: d } } } });
    }
    events.push({ contentBlockStop: { contentBlockIndex: 0 } }, { messageStop: { stopReason: "tool_use" } });
  } else {
    const itemId = `fc_${String(n).padStart(48, "68a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5061")}`;
    const item = {
      type: "function_call",
      id: itemId,
      call_id: `call_${String(n).padStart(24, "k3xVbq9Lm2Pz7Rt1Wy5Hn8Jd")}`,
      name: TOOL,
      arguments: "",
      status: "in_progress",
    };
    events.push({ type: "response.output_item.added", output_index: 0, item });
    for (const d of deltas) {
      events.push({ type: "response.function_call_arguments.delta", item_id: itemId, output_index: 0, delta: d });
    }
    events.push(
      { type: "response.function_call_arguments.done", item_id: itemId, output_index: 0, arguments: text },
      { type: "response.output_item.done", output_index: 0, item: { ...item, arguments: text, status: "completed" } },
    );
  }
  return events.map((e, i) => JSON.stringify(api === "openai-responses" ? { ...e, sequence_number: i } : e));
}

/** The argument fragment an event carries, the least a reader of `api` looks at. */
export function fragmentOf(api: Api, e: Record<string, unknown>): string | undefined {
  if (api === "openai-chat") {
    const choices = e.choices as { delta?: { tool_calls?: { function?: { arguments?: string } }[] } }[];
    return choices[0]?.delta?.tool_calls?.[0]?.function?.arguments;
  }
  if (api === "anthropic") {
    return e.type === "content_block_delta" ? (e.delta as { partial_json: string }).partial_json : undefined;
  }
  if (api === "bedrock-converse") {
    const delta = e.contentBlockDelta as { delta?: { toolUse?: { input?: string } } } | undefined;
    return delta?.delta?.toolUse?.input;
  }
  return e.type === "response.function_call_arguments.delta" ? (e.delta as string) : undefined;
}

/** Each call's events parsed, its fragments appended, one decode at the end. */
function floorAll(api: Api, calls: readonly CodecText[], streams: readonly (readonly string[])[]): unknown {
  let last: unknown;
  for (let i = 0; i < calls.length; i++) {
    let text = "";
    for (const raw of streams[i]!) {
      const fragment = fragmentOf(api, JSON.parse(raw) as Record<string, unknown>);
      if (fragment !== undefined) text += fragment;
    }
    // The codec's own limits, as streamCalls and the bare decoder run: the three tasks decode alike.
    last = calls[i]!.codec.decode(text);
  }
  return last;
}

/** Each call's events parsed, its fragments pushed into its stream decoder (the partial value read), then end(). */
function decoderAll(api: Api, calls: readonly CodecText[], streams: readonly (readonly string[])[]): unknown {
  let last: unknown;
  for (let i = 0; i < calls.length; i++) {
    const decoder = streamDecoder(calls[i]!.codec);
    for (const raw of streams[i]!) {
      const fragment = fragmentOf(api, JSON.parse(raw) as Record<string, unknown>);
      if (fragment === undefined) continue;
      const step = decoder.push(fragment);
      last = step.ok ? step.value : step.error;
    }
    last = decoder.end();
  }
  return last;
}

/** Each call's events parsed and read by streamCalls; every update's value read. */
function streamCallsAll(
  api: Api,
  codecs: readonly Record<string, Codec<unknown>>[],
  streams: readonly (readonly string[])[],
): unknown {
  let last: unknown;
  for (let i = 0; i < codecs.length; i++) {
    const calls = streamCalls(api, codecs[i]!);
    for (const raw of streams[i]!) last = read(calls.event(JSON.parse(raw)), last);
    last = read(calls.finish(), last);
  }
  return last;
}

function read(updates: readonly CallUpdate[], last: unknown): unknown {
  for (const u of updates) last = u.kind === "partial" ? u.value : u.kind === "decoded" ? u.result : u.kind;
  return last;
}

export interface PipelineRow {
  readonly api: Api;
  readonly events: number;
  readonly bytes: number;
  /** Over one decode of each whole text. */
  readonly floor: Summary;
  readonly decoder: Summary;
  readonly streamCalls: Summary;
  /** streamCalls over the floor (the medians' ratio). */
  readonly vsFloor: number;
  /** What streamCalls adds per event over the floor, ms. */
  readonly addedPerEvent: number;
}

export interface PipelineResult {
  readonly texts: number;
  readonly deltas: number;
  readonly decode: Summary;
  readonly rows: readonly PipelineRow[];
}

export function runStreamPipeline(cases: readonly CallCase[], timing: ComparisonOptions): PipelineResult {
  const calls = cases.map((c) => ({ codec: c.tagged, text: c.taggedText }));
  // The streaming section's deltas (same seeds), so the figures sit beside its own.
  const deltas = calls.map(({ text }, i) => deltasOf(text, 1 + i));
  const codecs = calls.map(({ codec }) => ({ [TOOL]: codec as Codec<unknown> }));
  const streams = new Map(APIS.map((api) => [api, calls.map(({ text }, i) => eventsOf(api, deltas[i]!, text, i))]));
  // The set-up is checked before it is timed: every call decoded once, by the provider's end, as decode does.
  for (const api of APIS) {
    for (let i = 0; i < calls.length; i++) {
      const updates: (readonly CallUpdate[])[] = [];
      const reader = streamCalls(api, codecs[i]!);
      for (const raw of streams.get(api)![i]!) updates.push(reader.event(JSON.parse(raw)));
      updates.push(reader.finish());
      const ends = updates.flat().filter((u) => u.kind === "decoded" || u.kind === "cut");
      const expected = JSON.stringify(calls[i]!.codec.decode(calls[i]!.text));
      if (ends.length !== 1 || ends[0]!.kind !== "decoded" || JSON.stringify(ends[0]!.result) !== expected) {
        throw new Error(`stream-pipeline: ${api} call ${i} did not end in its decode`);
      }
    }
  }
  const cmp = compareInterleaved(
    [
      { name: "decode", fn: () => decodeAll(calls) },
      ...APIS.flatMap((api) => [
        { name: `${api} floor`, fn: () => floorAll(api, calls, streams.get(api)!) },
        { name: `${api} decoder`, fn: () => decoderAll(api, calls, streams.get(api)!) },
        { name: `${api} streamCalls`, fn: () => streamCallsAll(api, codecs, streams.get(api)!) },
      ]),
    ],
    timing,
  );
  const decodeMs = cmp.perCall.decode!.median;
  return {
    texts: calls.length,
    deltas: deltas.reduce((n, d) => n + d.length, 0),
    decode: cmp.perCall.decode!,
    rows: APIS.map((api) => {
      const events = streams.get(api)!.reduce((n, s) => n + s.length, 0);
      const floor = cmp.ratio[`${api} floor`]!;
      const through = cmp.ratio[`${api} streamCalls`]!;
      return {
        api,
        events,
        bytes: streams.get(api)!.reduce((n, s) => n + s.reduce((m, e) => m + e.length, 0), 0),
        floor,
        decoder: cmp.ratio[`${api} decoder`]!,
        streamCalls: through,
        vsFloor: through.median / floor.median,
        addedPerEvent: ((through.median - floor.median) * decodeMs) / events,
      };
    }),
  };
}

export function renderStreamPipeline(r: PipelineResult): string {
  const rows = r.rows.map((x) => [
    x.api,
    String(x.events),
    `${Math.round(x.bytes / 1024)} KB`,
    `${fmtSummary(x.floor)}x`,
    `${fmtSummary(x.decoder)}x`,
    `${fmtSummary(x.streamCalls)}x`,
    x.vsFloor.toFixed(2),
    `${Math.round(x.addedPerEvent * 1e6)} ns`,
  ]);
  return [
    "## Streaming through a provider's events (streamCalls over what reading the stream costs)",
    "",
    `The benchmark calls (${r.texts}, ${r.deltas} deltas of 1-8 characters) as each API's stream events, as ratios`,
    `to one decode of every whole text (${fmtMs(r.decode.median)}). floor: every event's JSON text parsed, the`,
    "argument fragments appended, one decode at the end (no transport framing, no SDK work: below what a client pays).",
    "decoder: the fragments pushed into a stream decoder (its partial value read), end(): no adapter.",
    "streamCalls: the same events read by streamCalls, every update's value read.",
    "",
    table(
      ["API", "events", "event text", "floor", "decoder", "streamCalls", "streamCalls / floor", "added per event"],
      rows,
    ),
  ].join("\n");
}
