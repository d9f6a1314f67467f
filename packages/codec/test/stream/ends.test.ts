/**
 * A value only when the provider finished (issue 42): every stream shape
 * streamCalls reads, cut at every event boundary, never gives a `decoded`
 * update for a call whose end event was not among the events read; every call
 * it opened ends exactly once, as `decoded` or as `cut`. The oracle of where a
 * call ends is written here from each API's events, apart from the readers.
 * Then each adapter's edge cases: they fail closed and say why.
 */
import { type CallUpdate, compileCodec, streamCalls, toolDefinition } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { split } from "./support.js";

const weather = compileCodec(
  {
    type: "object",
    properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
    required: ["city"],
    additionalProperties: false,
  },
  { name: "get_weather" },
);
if (!weather.ok) throw new Error(weather.error.message);
const codecs = { get_weather: weather.value };
const wireOf = (value: unknown): string => {
  const encoded = weather.value.encode(value as { city: string });
  if (!encoded.ok) throw new Error(encoded.error.message);
  return JSON.stringify(encoded.value);
};
const WIRES = [wireOf({ city: "Paris" }), wireOf({ city: "Oslo", unit: "c" })];

type Shape = "openai-responses" | "openai-chat" | "anthropic" | "gemini" | "bedrock-converse";
type Event = Record<string, unknown>;

/** A recorded stream of two calls (and text around them) in `shape`, the arguments in `sizes`-character deltas. */
function recorded(shape: Shape, sizes: readonly number[]): Event[] {
  const [a, b] = WIRES as [string, string];
  switch (shape) {
    case "openai-responses": {
      const item = (n: number) => ({ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "get_weather" });
      const call = (n: number, text: string): Event[] => [
        {
          type: "response.output_item.added",
          output_index: n,
          item: { ...item(n), arguments: "", status: "in_progress" },
        },
        ...split(text, sizes).map((delta) => ({
          type: "response.function_call_arguments.delta",
          item_id: `fc_${n}`,
          delta,
        })),
        { type: "response.function_call_arguments.done", item_id: `fc_${n}`, arguments: text },
        {
          type: "response.output_item.done",
          output_index: n,
          item: { ...item(n), arguments: text, status: "completed" },
        },
      ];
      return [
        { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
        ...call(1, a),
        ...call(2, b),
        { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
      ];
    }
    case "openai-chat": {
      const chunk = (toolCall: Event | undefined, finish: string | null = null): Event => ({
        id: "chatcmpl_1",
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: toolCall ? { tool_calls: [toolCall] } : {}, finish_reason: finish }],
      });
      const call = (index: number, text: string): Event[] => [
        chunk({ index, id: `call_${index}`, type: "function", function: { name: "get_weather", arguments: "" } }),
        ...split(text, sizes).map((piece) => chunk({ index, function: { arguments: piece } })),
      ];
      return [...call(0, a), ...call(1, b), chunk(undefined, "tool_calls")];
    }
    case "anthropic": {
      const call = (index: number, text: string): Event[] => [
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: `toolu_${index}`, name: "get_weather", input: {} },
        },
        ...split(text, sizes).map((partial_json) => ({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json },
        })),
        { type: "content_block_stop", index },
      ];
      return [
        { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking." } },
        { type: "content_block_stop", index: 0 },
        ...call(1, a),
        ...call(2, b),
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ];
    }
    case "bedrock-converse": {
      const call = (index: number, text: string): Event[] => [
        {
          contentBlockStart: {
            contentBlockIndex: index,
            start: { toolUse: { toolUseId: `tu_${index}`, name: "get_weather" } },
          },
        },
        ...split(text, sizes).map((input) => ({
          contentBlockDelta: { contentBlockIndex: index, delta: { toolUse: { input } } },
        })),
        { contentBlockStop: { contentBlockIndex: index } },
      ];
      return [
        { messageStart: { role: "assistant" } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Checking." } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        ...call(1, a),
        ...call(2, b),
        { messageStop: { stopReason: "tool_use" } },
      ];
    }
    case "gemini": {
      const chunk = (parts: Event[], finishReason?: string): Event => ({
        candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }],
      });
      return [
        chunk([{ text: "Checking." }]),
        chunk([{ functionCall: { id: "g_1", name: "get_weather", args: JSON.parse(a) } }]),
        chunk([{ functionCall: { id: "g_2", name: "get_weather", args: JSON.parse(b) } }], "STOP"),
      ];
    }
  }
}

/** Where each call's end event stands in `events` (the oracle): call id to index. */
function endsOf(shape: Shape, events: readonly Event[]): Map<string, number> {
  const ends = new Map<string, number>();
  events.forEach((e, i) => {
    if (shape === "openai-responses" && e.type === "response.function_call_arguments.done") {
      const id = `call_${String(e.item_id).slice(3)}`;
      if (!ends.has(id)) ends.set(id, i);
    }
    if (shape === "openai-chat") {
      const choice = (e.choices as Event[])[0]!;
      if (choice.finish_reason === "tool_calls") for (const id of ["call_0", "call_1"]) ends.set(id, i);
    }
    if (shape === "anthropic" && e.type === "content_block_stop" && e.index !== 0) ends.set(`toolu_${e.index}`, i);
    if (shape === "bedrock-converse" && e.contentBlockStop) {
      const index = (e.contentBlockStop as Event).contentBlockIndex;
      if (index !== 0) ends.set(`tu_${index}`, i);
    }
    if (shape === "gemini") {
      const parts = ((e.candidates as Event[])[0]!.content as Event).parts as Event[];
      for (const part of parts) if (part.functionCall) ends.set(String((part.functionCall as Event).id), i);
    }
  });
  return ends;
}

const SHAPES: readonly Shape[] = ["openai-responses", "openai-chat", "anthropic", "gemini", "bedrock-converse"];

describe("a value only when the provider finished", () => {
  it("every shape, cut at every event boundary: decoded only after the call's end event, every call ended once", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SHAPES),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        (shape, sizes) => {
          const events = recorded(shape, sizes);
          const ends = endsOf(shape, events);
          expect(ends.size).toBe(2);
          for (let cut = 0; cut <= events.length; cut++) {
            const streams = streamCalls(shape, codecs);
            const updates: CallUpdate[] = [];
            for (const e of events.slice(0, cut)) updates.push(...streams.event(e));
            updates.push(...streams.finish());
            const finals = updates.filter((u) => u.kind === "decoded" || u.kind === "cut");
            const ids = finals.map((u) => u.id);
            // One final update per call opened, and no call twice.
            expect(new Set(ids).size).toBe(ids.length);
            for (const u of finals) {
              const end = ends.get(u.id);
              expect(end, `${shape} ${u.id}`).toBeDefined();
              if (u.kind === "decoded") {
                expect(end!, `${shape} cut at ${cut}: ${u.id} decoded before its end event`).toBeLessThan(cut);
                expect(u.result.ok).toBe(true);
              } else {
                expect(end!, `${shape} cut at ${cut}: ${u.id} cut after its end event`).toBeGreaterThanOrEqual(cut);
              }
            }
            // Every call whose end event was read is decoded.
            for (const [id, end] of ends) {
              if (end < cut) expect(finals.find((u) => u.id === id)?.kind, `${shape} ${id}`).toBe("decoded");
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a whole text the provider never ended is cut, with what decode would have said, for logging", () => {
    const streams = streamCalls("anthropic", codecs);
    const events = recorded("anthropic", [5]);
    const stop = events.findIndex((e) => e.type === "content_block_stop" && e.index === 1);
    for (const e of events.slice(0, stop)) streams.event(e);
    expect(streams.finish()).toEqual([
      { kind: "cut", id: "toolu_1", name: "get_weather", result: weather.value.decode(WIRES[0]!) },
    ]);
  });

  it("Chat Completions: a choice cut by the token limit cuts its last call; earlier calls are ended", () => {
    const events = recorded("openai-chat", [3]);
    const last = events.at(-1)!;
    const lengthCut = { ...last, choices: [{ index: 0, delta: {}, finish_reason: "length" }] };
    const streams = streamCalls("chat", codecs);
    const updates = [...events.slice(0, -1), lengthCut].flatMap((e) => [...streams.event(e)]);
    const finals = updates.filter((u) => u.kind === "decoded" || u.kind === "cut");
    expect(finals.map((u) => [u.id, u.kind])).toEqual([
      ["call_0", "decoded"],
      ["call_1", "cut"],
    ]);
    expect(streams.finish()).toEqual([]);
  });
});

describe("adapters fail closed and say why", () => {
  const finals = (updates: readonly CallUpdate[]) =>
    updates.filter((u) => u.kind === "decoded" || u.kind === "cut" || u.kind === "refused");

  it("Anthropic: one reader across two messages keeps both calls at block index 0", () => {
    const message = (n: number): Event[] => [
      { type: "message_start", message: { id: `msg_${n}`, type: "message", role: "assistant", content: [] } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: `toolu_${n}`, name: "get_weather", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: WIRES[n - 1]! } },
      { type: "content_block_stop", index: 0 },
      { type: "message_stop" },
    ];
    const streams = streamCalls("anthropic", codecs);
    const updates = [...message(1), ...message(2)].flatMap((e) => [...streams.event(e)]);
    const decoded = updates.filter((u) => u.kind === "decoded");
    expect(decoded).toEqual([
      { kind: "decoded", id: "toolu_1", name: "get_weather", result: weather.value.decode(WIRES[0]!) },
      { kind: "decoded", id: "toolu_2", name: "get_weather", result: weather.value.decode(WIRES[1]!) },
    ]);
  });

  it("Responses: a call_id given to a second item refuses it with a typed error; one already ended stands", () => {
    const events = recorded("openai-responses", [4]).map((e) =>
      e.type === "response.output_item.added" ? { ...e, item: { ...(e.item as Event), call_id: "call_same" } } : e,
    );
    const streams = streamCalls("responses", codecs);
    const updates = finals(events.flatMap((e) => [...streams.event(e)]));
    expect(updates.map((u) => u.kind)).toEqual(["decoded", "refused", "decoded"]);
    expect(updates[0]).toMatchObject({ id: "call_same", result: { ok: true } });
    expect(updates[1]).toMatchObject({ id: "call_same", error: { code: "stream-violation" } });
    expect(updates[2]).toMatchObject({ id: "call_same", result: { ok: false, error: { code: "stream-violation" } } });
  });

  it("a block index or item id given to a second call refuses both, never joins their text into one call", () => {
    // The second call's start and its events name the first's key: its text would have gone to the first call.
    const start = (id: string) => ({
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id, name: "get_weather", input: {} },
    });
    const delta = (partial_json: string) => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json },
    });
    const item = (id: string) => ({
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_1", call_id: id, name: "get_weather", arguments: "" },
    });
    const argDelta = (delta: string) => ({ type: "response.function_call_arguments.delta", item_id: "fc_1", delta });
    const converse = (id: string) => ({
      contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: id, name: "get_weather" } } },
    });
    const input = (text: string) => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: text } } },
    });
    const shapes = {
      anthropic: [
        { type: "message_start", message: {} },
        start("toolu_a"),
        delta('{"city":'),
        start("toolu_b"),
        delta('"Rome"}'),
        { type: "content_block_stop", index: 0 },
        { type: "message_stop" },
      ],
      "openai-responses": [
        item("call_a"),
        argDelta('{"city":'),
        item("call_b"),
        argDelta('"Rome"}'),
        { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: "" },
      ],
      "bedrock-converse": [
        converse("tool_a"),
        input('{"city":'),
        converse("tool_b"),
        input('"Rome"}'),
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: "tool_use" } },
      ],
    } as const;
    for (const [api, events] of Object.entries(shapes)) {
      const streams = streamCalls(api as keyof typeof shapes, codecs);
      const updates = [...events.flatMap((e) => [...streams.event(e)]), ...streams.finish()];
      const ends = updates.filter((u) => u.kind === "decoded" || u.kind === "cut");
      expect(ends, api).toHaveLength(2);
      for (const u of ends) {
        expect(u, api).toMatchObject({ result: { ok: false, error: { code: "stream-violation", path: "" } } });
      }
      expect(
        updates.filter((u) => u.kind === "refused").map((u) => u.id),
        api,
      ).toHaveLength(2);
    }
  });

  it("Responses: two items open at once under one call_id are both refused, and neither decodes", () => {
    const item = (n: number) => ({ type: "function_call", id: `fc_${n}`, call_id: "call_same", name: "get_weather" });
    const streams = streamCalls("responses", codecs);
    const updates = finals(
      [
        { type: "response.output_item.added", output_index: 0, item: { ...item(1), arguments: "" } },
        { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: WIRES[0] },
        { type: "response.output_item.added", output_index: 1, item: { ...item(2), arguments: "" } },
        { type: "response.function_call_arguments.delta", item_id: "fc_2", delta: WIRES[1] },
        { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: WIRES[0] },
        { type: "response.function_call_arguments.done", item_id: "fc_2", arguments: WIRES[1] },
      ].flatMap((e) => [...streams.event(e)]),
    );
    expect(updates.filter((u) => u.kind === "refused")).toHaveLength(2);
    const decoded = updates.filter((u) => u.kind === "decoded");
    expect(decoded).toHaveLength(2);
    for (const u of decoded) expect(u).toMatchObject({ result: { ok: false, error: { code: "stream-violation" } } });
  });

  it("Responses: deltas that disagree with the final arguments are refused, never resolved silently", () => {
    const events = recorded("openai-responses", [4]).map((e) =>
      e.type === "response.function_call_arguments.done" && e.item_id === "fc_1"
        ? { ...e, arguments: wireOf({ city: "Rome" }) }
        : e,
    );
    const streams = streamCalls("responses", codecs);
    const updates = finals(events.flatMap((e) => [...streams.event(e)]));
    expect(updates.filter((u) => u.id === "call_1").map((u) => u.kind)).toEqual(["refused", "decoded"]);
    expect(updates.find((u) => u.id === "call_1" && u.kind === "decoded")).toMatchObject({
      result: { ok: false, error: { code: "stream-violation" } },
    });
    expect(updates.find((u) => u.id === "call_2" && u.kind === "decoded")).toMatchObject({ result: { ok: true } });
  });

  it("Responses: arguments on output_item.added and streamed as well count once", () => {
    const events = recorded("openai-responses", [4]).map((e) =>
      e.type === "response.output_item.added" && (e.item as Event).id === "fc_1"
        ? { ...e, item: { ...(e.item as Event), arguments: WIRES[0] } }
        : e,
    );
    const streams = streamCalls("responses", codecs);
    const updates = events.flatMap((e) => [...streams.event(e)]);
    expect(updates.find((u) => u.kind === "decoded" && u.id === "call_1")).toEqual({
      kind: "decoded",
      id: "call_1",
      name: "get_weather",
      result: weather.value.decode(WIRES[0]!),
    });
  });

  it("Responses: arguments given only on output_item.added, ended by output_item.done, decode once", () => {
    const item = { type: "function_call", id: "fc_9", call_id: "call_9", name: "get_weather" };
    const streams = streamCalls("responses", codecs);
    const updates = [
      { type: "response.output_item.added", output_index: 0, item: { ...item, arguments: WIRES[1] } },
      { type: "response.output_item.done", output_index: 0, item: { ...item, arguments: WIRES[1] } },
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates.filter((u) => u.kind === "decoded")).toEqual([
      { kind: "decoded", id: "call_9", name: "get_weather", result: weather.value.decode(WIRES[1]!) },
    ]);
  });

  it("a delta addressed to an open call that carries no text refuses that call, never decodes it without the piece", () => {
    // Where each shape's first call (its second, for Chat Completions' index 1 too) carries a delta's text.
    const pieceOf: Record<Exclude<Shape, "gemini">, (e: Event) => [Event, string] | undefined> = {
      "openai-responses": (e) =>
        e.type === "response.function_call_arguments.delta" && e.item_id === "fc_1" ? [e, "delta"] : undefined,
      "openai-chat": (e) => {
        const fragment = ((e.choices as Event[])[0]!.delta as { tool_calls?: Event[] }).tool_calls?.[0];
        return fragment !== undefined && fragment.index === 0 && fragment.id === undefined
          ? [fragment.function as Event, "arguments"]
          : undefined;
      },
      anthropic: (e) =>
        e.type === "content_block_delta" && e.index === 1 ? [e.delta as Event, "partial_json"] : undefined,
      "bedrock-converse": (e) => {
        const d = e.contentBlockDelta as Event | undefined;
        return d?.contentBlockIndex === 1 ? [(d.delta as Event).toolUse as Event, "input"] : undefined;
      },
    };
    const ids: Record<Exclude<Shape, "gemini">, [string, string]> = {
      "openai-responses": ["call_1", "call_2"],
      "openai-chat": ["call_0", "call_1"],
      anthropic: ["toolu_1", "toolu_2"],
      "bedrock-converse": ["tu_1", "tu_2"],
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(pieceOf) as Exclude<Shape, "gemini">[])),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.constantFrom<unknown>(42, true, {}, [], ["{"], { text: "{" }),
        (shape, sizes, pick, junk) => {
          const events = structuredClone(recorded(shape, sizes));
          const pieces = events.flatMap((e) => {
            const piece = pieceOf[shape](e);
            return piece === undefined ? [] : [piece];
          });
          const [holder, field] = pieces[pick % pieces.length]!;
          holder[field] = junk;
          const streams = streamCalls(shape, codecs);
          const updates = [...events.flatMap((e) => [...streams.event(e)]), ...streams.finish()];
          const [broken, whole] = ids[shape];
          expect(finals(updates.filter((u) => u.id === broken))).toMatchObject([
            { kind: "refused", error: { code: "stream-violation" } },
            { kind: "decoded", result: { ok: false, error: { code: "stream-violation" } } },
          ]);
          expect(finals(updates.filter((u) => u.id === whole))).toEqual([
            { kind: "decoded", id: whole, name: "get_weather", result: weather.value.decode(WIRES[1]!) },
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("Chat Completions: a fragment's null arguments carry no text and break nothing", () => {
    const events = recorded("openai-chat", [3]).flatMap((e) => {
      const fragment = ((e.choices as Event[])[0]!.delta as { tool_calls?: Event[] }).tool_calls?.[0];
      if (fragment === undefined || fragment.id !== undefined) return [e];
      // Some servers send a fragment with null arguments between the ones that carry text.
      const empty = {
        ...e,
        choices: [{ index: 0, delta: { tool_calls: [{ index: fragment.index, function: { arguments: null } }] } }],
      };
      return [e, empty];
    });
    const streams = streamCalls("openai-chat", codecs);
    const updates = finals(events.flatMap((e) => [...streams.event(e)]));
    expect(updates.map((u) => [u.id, u.kind, u.kind === "decoded" && u.result.ok])).toEqual([
      ["call_0", "decoded", true],
      ["call_1", "decoded", true],
    ]);
  });

  it("Chat Completions without indexes (Ollama, Gemini's compatibility endpoint): the updates of the stream with them, cut anywhere", () => {
    /** The stream with every fragment's index left out; with `ids`, every fragment of a call repeating its id. */
    const unindexed = (events: readonly Event[], ids: boolean): Event[] => {
      const byIndex = new Map<unknown, unknown>();
      return events.map((e) => {
        const choice = (e.choices as Event[])[0]!;
        const fragments = (choice.delta as { tool_calls?: Event[] }).tool_calls;
        if (fragments === undefined) return e;
        const rewritten = fragments.map(({ index, ...rest }) => {
          if (rest.id !== undefined) byIndex.set(index, rest.id);
          return ids ? { id: byIndex.get(index), ...rest } : rest;
        });
        return { ...e, choices: [{ ...choice, delta: { ...(choice.delta as Event), tool_calls: rewritten } }] };
      });
    };
    const run = (events: readonly Event[], cut: number): CallUpdate[] => {
      const streams = streamCalls("openai-chat", codecs);
      return [...events.slice(0, cut).flatMap((e) => [...streams.event(e)]), ...streams.finish()];
    };
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (sizes, ids) => {
          const events = recorded("openai-chat", sizes);
          const stripped = unindexed(events, ids);
          const fragments = stripped.flatMap(
            (e) => ((e.choices as Event[])[0]!.delta as { tool_calls?: Event[] }).tool_calls ?? [],
          );
          expect(fragments.filter((f) => "index" in f)).toEqual([]);
          for (let cut = 0; cut <= events.length; cut++) expect(run(stripped, cut)).toEqual(run(events, cut));
          expect(finals(run(stripped, events.length)).map((u) => [u.id, u.kind])).toEqual([
            ["call_0", "decoded"],
            ["call_1", "decoded"],
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("Chat Completions: arguments sent before the call's name (vercel/ai#14722's shape) are kept, never dropped", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.boolean(),
        (sizes, late, empty) => {
          const events = recorded("openai-chat", sizes);
          // Each call's name moved from its first fragment to a later one (an empty name left in its place, or none).
          const moved = structuredClone(events);
          const fragmentsOf = (index: number) =>
            moved.flatMap((e) =>
              (((e.choices as Event[])[0]!.delta as { tool_calls?: Event[] }).tool_calls ?? []).filter(
                (f) => f.index === index,
              ),
            );
          for (const index of [0, 1]) {
            const fragments = fragmentsOf(index);
            const first = fragments[0]!.function as Event;
            const at = fragments[1 + (late % (fragments.length - 1))]!;
            at.function = { ...(at.function as Event), name: first.name };
            if (empty) first.name = "";
            else delete first.name;
            first.arguments = (fragments[1]!.function as Event).arguments;
            (fragments[1]!.function as Event).arguments = "";
          }
          const run = (stream: readonly Event[]) => {
            const streams = streamCalls("openai-chat", codecs);
            return finals([...stream.flatMap((e) => [...streams.event(e)]), ...streams.finish()]);
          };
          expect(run(moved)).toEqual(run(events));
          expect(run(moved).map((u) => [u.id, u.kind, u.kind === "decoded" && u.result.ok])).toEqual([
            ["call_0", "decoded", true],
            ["call_1", "decoded", true],
          ]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("Chat Completions: a tool name split across fragments is joined, one repeated on every fragment read once, never another tool's", () => {
    // Gemini's compatibility endpoint splits names ("edit_ex" + "isting_file", continuedev/continue#5849); MiniMax
    // behind NVIDIA NIM repeats the whole name on every fragment (NousResearch/hermes-agent#11984). A tool whose name
    // is a prefix of the one called takes these arguments too: opened on the first piece, it would be dispatched.
    const prefix = compileCodec(
      { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
      { name: "get" },
    );
    if (!prefix.ok) throw new Error(prefix.error.message);
    const both = { ...codecs, get: prefix.value };
    const run = (stream: readonly Event[]) => {
      const streams = streamCalls("openai-chat", both);
      return [...stream.flatMap((e) => [...streams.event(e)]), ...streams.finish()];
    };
    const NAME = "get_weather";
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: NAME.length - 1 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        (sizes, cuts, repeated, emptyArguments) => {
          const events = recorded("openai-chat", sizes);
          const rewritten = events.flatMap((e) => {
            const choice = (e.choices as Event[])[0]!;
            const fragment = (choice.delta as { tool_calls?: Event[] }).tool_calls?.[0];
            if (fragment === undefined || fragment.id === undefined) {
              // Repeated: every later fragment of the call names it again.
              if (!repeated || fragment === undefined) return [e];
              const again = { ...fragment, function: { ...(fragment.function as Event), name: NAME } };
              return [{ ...e, choices: [{ ...choice, delta: { tool_calls: [again] } }] }];
            }
            if (repeated) return [e];
            // Split: the name in pieces, one fragment each, the first with the id.
            const at = [...new Set([0, ...cuts.map((c) => c % NAME.length), NAME.length])].sort((a, b) => a - b);
            return at.slice(1).map((end, k) => {
              const fn: Event = { name: NAME.slice(at[k], end) };
              if (emptyArguments) fn.arguments = "";
              const piece: Event = k === 0 ? { ...fragment, function: fn } : { index: fragment.index, function: fn };
              return { ...e, choices: [{ ...choice, delta: { tool_calls: [piece] } }] };
            });
          });
          expect(run(rewritten)).toEqual(run(events));
          expect(
            finals(run(rewritten)).map((u) => [u.id, u.name, u.kind, u.kind === "decoded" && u.result.ok]),
          ).toEqual([
            ["call_0", NAME, "decoded", true],
            ["call_1", NAME, "decoded", true],
          ]);
        },
      ),
      { numRuns: 60 },
    );
    // A name that changes once the arguments have begun: refused, never read as either tool.
    const chunk = (toolCall: Event, finish: string | null = null) => ({
      choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: finish }],
    });
    const text = WIRES[0]!;
    const changed = finals(
      run([
        chunk({ index: 0, id: "call_x", type: "function", function: { name: "get", arguments: text.slice(0, 4) } }),
        chunk({ index: 0, function: { name: "_weather", arguments: text.slice(4) } }),
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ]),
    );
    expect(changed.map((u) => [u.id, u.kind])).toEqual([
      ["call_x", "refused"],
      ["call_x", "decoded"],
    ]);
    expect(changed[1]).toMatchObject({ result: { ok: false, error: { code: "stream-violation" } } });
  });

  it("Chat Completions: a call whose id or name never comes is opened with what it has when its choice ends, never dropped unseen", () => {
    const chunk = (toolCalls: Event[], finish: string | null = null): Event => ({
      choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }],
    });
    const text = WIRES[0]!;
    const run = (events: Event[], finished: boolean) => {
      const streams = streamCalls("openai-chat", codecs);
      const updates = events.flatMap((e) => [...streams.event(e)]);
      return finished ? updates : [...updates, ...streams.finish()];
    };
    // No name ever: a call that names no tool.
    const nameless = [
      chunk([{ index: 0, id: "call_n", function: { arguments: text.slice(0, 5) } }]),
      chunk([{ index: 0, function: { arguments: text.slice(5) } }]),
      chunk([], "tool_calls"),
    ];
    expect(run(nameless, true)).toEqual([{ kind: "unknown-tool", id: "call_n", name: "" }]);
    // No id ever (a server that sends none): decoded at the choice's end, answered by position.
    const idless = [
      chunk([{ index: 0, function: { name: "get_weather", arguments: text.slice(0, 5) } }]),
      chunk([{ index: 0, function: { arguments: text.slice(5) } }]),
    ];
    expect(finals(run([...idless, chunk([], "tool_calls")], true))).toEqual([
      { kind: "decoded", id: "", name: "get_weather", result: weather.value.decode(text) },
    ]);
    // The stream stops before the choice ends: cut, with what decode would have said, never decoded.
    expect(finals(run(idless, false))).toEqual([
      { kind: "cut", id: "", name: "get_weather", result: weather.value.decode(text) },
    ]);
    // Cut by the token limit: the last call that began is cut, earlier ones end.
    const two = [
      chunk([{ index: 0, function: { name: "get_weather", arguments: text } }]),
      chunk([{ index: 1, function: { name: "get_weather", arguments: text.slice(0, 4) } }]),
      chunk([], "length"),
    ];
    expect(finals(run(two, true)).map((u) => [u.id, u.kind])).toEqual([
      ["", "decoded"],
      ["", "cut"],
    ]);
  });

  it("Chat Completions: a server that resends the arguments so far in each chunk is refused, never repaired by a guess", () => {
    // Cumulative mode (DeepSeek, Qianfan behind some gateways): each chunk repeats what came before it.
    const streams = streamCalls("openai-chat", codecs);
    const chunk = (toolCall: Event, finish: string | null = null) => ({
      choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: finish }],
    });
    const text = WIRES[1]!;
    const updates = finals(
      [
        chunk({ index: 0, id: "call_c", type: "function", function: { name: "get_weather", arguments: "" } }),
        ...[6, 12, text.length].map((n) => chunk({ index: 0, function: { arguments: text.slice(0, n) } })),
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ].flatMap((e) => [...streams.event(e)]),
    );
    expect(updates.map((u) => u.kind)).toEqual(["refused", "decoded"]);
    expect(updates[1]).toMatchObject({ result: { ok: false } });
  });

  it("Chat Completions: parallel calls that all carry index 0 (Ollama, LiteLLM, Responses-to-Chat gateways) are told apart by their ids", () => {
    // ollama/ollama#15457, mcowger/plexus#691: each call's first fragment has its own id, every fragment index 0.
    // Read by index alone, the calls merge into one text that is no JSON, and every call of the batch is lost.
    const run = (events: readonly Event[], cut: number): CallUpdate[] => {
      const streams = streamCalls("openai-chat", codecs);
      return [...events.slice(0, cut).flatMap((e) => [...streams.event(e)]), ...streams.finish()];
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 }), (sizes) => {
        const events = recorded("openai-chat", sizes);
        const zeroed = events.map((e) => {
          const choice = (e.choices as Event[])[0]!;
          const fragments = (choice.delta as { tool_calls?: Event[] }).tool_calls;
          if (fragments === undefined) return e;
          const rewritten = fragments.map((f) => ({ ...f, index: 0 }));
          return { ...e, choices: [{ ...choice, delta: { ...(choice.delta as Event), tool_calls: rewritten } }] };
        });
        for (let cut = 0; cut <= events.length; cut++) expect(run(zeroed, cut)).toEqual(run(events, cut));
      }),
      { numRuns: 40 },
    );
  });

  it("Chat Completions: fragments of one call sharing an index in one chunk (Azure Foundry, openai/openai-python#3201) are read in order", () => {
    const text = WIRES[1]!;
    const streams = streamCalls("openai-chat", codecs);
    const updates = finals(
      [
        {
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, id: "call_d", type: "function", function: { name: "get_weather", arguments: "" } },
                  { index: 0, function: { arguments: text.slice(0, 7) } },
                  { index: 0, function: { arguments: text.slice(7, 12) } },
                ],
              },
            },
          ],
        },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: text.slice(12) } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ].flatMap((e) => [...streams.event(e)]),
    );
    expect(updates).toEqual([
      { kind: "decoded", id: "call_d", name: "get_weather", result: weather.value.decode(text) },
    ]);
  });

  it("Chat Completions: several whole calls in one chunk with no index (Gemini's compatibility endpoint) decode each", () => {
    const streams = streamCalls("openai-chat", codecs);
    const whole = (id: string, text: string) => ({
      id,
      type: "function",
      function: { name: "get_weather", arguments: text },
    });
    const updates = finals(
      [
        {
          choices: [
            { index: 0, delta: { role: "assistant", tool_calls: [whole("a", WIRES[0]!), whole("b", WIRES[1]!)] } },
          ],
        },
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ].flatMap((e) => [...streams.event(e)]),
    );
    expect(updates).toEqual([
      { kind: "decoded", id: "a", name: "get_weather", result: weather.value.decode(WIRES[0]!) },
      { kind: "decoded", id: "b", name: "get_weather", result: weather.value.decode(WIRES[1]!) },
    ]);
  });

  it("Gemini: whole calls per chunk decode; the call a MAX_TOKENS chunk ends in is cut", () => {
    const events = recorded("gemini", [1]);
    const last = events.at(-1)!;
    const maxTokens = { candidates: [{ ...(last.candidates as Event[])[0]!, finishReason: "MAX_TOKENS" }] };
    const streams = streamCalls("gemini", codecs);
    const updates = finals([...events.slice(0, -1), maxTokens].flatMap((e) => [...streams.event(e)]));
    expect(updates.map((u) => [u.id, u.kind])).toEqual([
      ["g_1", "decoded"],
      ["g_2", "cut"],
    ]);
  });

  it("Vertex AI partialArgs are refused with what to turn off, never assembled", () => {
    const streams = streamCalls("gemini", codecs);
    const chunk = (functionCall: Event): Event => ({
      candidates: [{ content: { role: "model", parts: [{ functionCall }] } }],
    });
    const updates = [
      chunk({
        name: "get_weather",
        partialArgs: [{ jsonPath: "$.city", stringValue: "Par", willContinue: true }],
        willContinue: true,
      }),
      chunk({ partialArgs: [{ jsonPath: "$.city", stringValue: "is" }], willContinue: false }),
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({ kind: "refused", error: { code: "stream-violation" } });
    expect((updates[0] as { error: { message: string } }).error.message).toMatch(/streamFunctionCallArguments/);
    expect(updates[1]).toMatchObject({ kind: "decoded", result: { ok: false, error: { code: "stream-violation" } } });
  });

  it("Anthropic eager_input_streaming: asked for on the tool definition; deltas that never form JSON are refused early", () => {
    const anthropicCodec = compileCodec(
      { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
      { name: "get_weather", target: "anthropic" },
    );
    if (!anthropicCodec.ok) throw new Error(anthropicCodec.error.message);
    const definition = toolDefinition(anthropicCodec.value.bundle, "anthropic", { eagerInputStreaming: true });
    expect(definition).toMatchObject({
      ok: true,
      value: { name: "get_weather", strict: true, eager_input_streaming: true },
    });
    const plain = toolDefinition(anthropicCodec.value.bundle, "anthropic");
    expect(plain.ok && "eager_input_streaming" in plain.value).toBe(false);
    // Not an option of the OpenAI APIs: refused, never dropped.
    expect(toolDefinition(weather.value.bundle, "openai-responses", { eagerInputStreaming: true })).toMatchObject({
      ok: false,
      error: { code: "invalid-options" },
    });
    // Fine-grained streaming sends what the model wrote, unchecked: a broken text is refused at its delta.
    const streams = streamCalls("anthropic", { get_weather: anthropicCodec.value });
    const deltas = ['{"city": "Par', 'is", "city', '": "Rome"}'];
    const events: Event[] = [
      { type: "message_start", message: { id: "m", type: "message", role: "assistant", content: [] } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_e", name: "get_weather", input: {} },
      },
      ...deltas.map((partial_json) => ({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json },
      })),
    ];
    const byEvent = events.map((e) => streams.event(e));
    // Refused in the delta that repeats the name, before the text ends.
    const at = byEvent.findIndex((updates) => updates.some((u) => u.kind === "refused"));
    expect(at).toBeGreaterThan(1);
    expect(at).toBeLessThan(events.length);
    expect(byEvent[at]!.find((u) => u.kind === "refused")).toMatchObject({ error: { code: "duplicate-key" } });
    expect(streams.finish()).toMatchObject([{ kind: "cut", id: "toolu_e" }]);
  });
});

describe("Responses: the text kept to compare with the restated arguments is bounded", () => {
  const small = compileCodec(
    { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
    { name: "get_weather", limits: { maxBytes: 200 } },
  );
  if (!small.ok) throw new Error(small.error.message);
  const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather" };
  const events = (text: string, restated: string): Event[] => [
    { type: "response.output_item.added", output_index: 0, item: { ...item, arguments: "" } },
    ...split(text, [7]).map((delta) => ({ type: "response.function_call_arguments.delta", item_id: "fc_1", delta })),
    { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: restated },
  ];

  // The restated arguments disagree with the deltas: past the byte limit, or once the decoder refused, the call's
  // end is decode's refusal of the whole text (what was not kept is not compared).
  const cases: [string, string][] = [
    ["past the byte limit", `{"city":"${"\u00e9".repeat(150)}"}`],
    ["refused early, then within the limit", `{"city":1${" ".repeat(150)}}`],
  ];
  for (const [what, text] of cases) {
    it(`${what}: the call ends as decode of the whole text says`, () => {
      const streams = streamCalls("responses", { get_weather: small.value });
      const updates = events(text, `{"city":"Rome"}`).flatMap((e) => [...streams.event(e)]);
      const whole = small.value.decode(text);
      expect(whole.ok).toBe(false);
      const ends = updates.filter((u) => u.kind !== "partial");
      expect(ends.map((u) => u.kind)).toEqual(["refused", "decoded"]);
      expect(ends[0]).toMatchObject({ error: { code: whole.ok ? "" : whole.error.code } });
      expect(ends[1]).toEqual({ kind: "decoded", id: "call_1", name: "get_weather", result: whole });
    });
  }
});

describe("Chat Completions: the text of a call not named yet is bounded", () => {
  const small = compileCodec(
    { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
    { name: "get_weather", limits: { maxBytes: 100 } },
  );
  if (!small.ok) throw new Error(small.error.message);
  const chunk = (toolCall: Event | undefined, finish: string | null = null): Event => ({
    id: "chatcmpl_1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: toolCall ? { tool_calls: [toolCall] } : {}, finish_reason: finish }],
  });
  const violation = "the stream sent more than 100 bytes of a call's arguments before its id and name";
  // 96 bytes in pairs split between fragments (each half alone would count 3): within the limit.
  const [high, low] = ["\u{1F600}".charAt(0), "\u{1F600}".charAt(1)];
  const within = `{"city":"${Array.from({ length: 21 }, () => high + low).join("")}"}`;

  /** The first fragment gives `first` (an id, a name), the text follows a code unit a fragment, then `late`. */
  const run = (first: Event, text: string, late: Event | undefined): CallUpdate[] => {
    const streams = streamCalls("chat-completions", { get_weather: small.value });
    const events = [
      chunk({ index: 0, type: "function", ...first }),
      ...text.split("").map((piece) => chunk({ index: 0, function: { arguments: piece } })),
      ...(late === undefined ? [] : [chunk({ index: 0, ...late })]),
      chunk(undefined, "tool_calls"),
    ];
    return [...events.flatMap((e) => [...streams.event(e)]), ...streams.finish()];
  };

  it("a name that comes after the limit: the call is refused as the stream's fault", () => {
    const updates = run({ id: "call_0", function: { arguments: "" } }, `${within}${" ".repeat(200)}`, {
      function: { name: "get_weather", arguments: "" },
    });
    expect(updates.filter((u) => u.kind !== "partial")).toEqual([
      { kind: "refused", id: "call_0", name: "get_weather", error: expect.objectContaining({ message: violation }) },
      {
        kind: "decoded",
        id: "call_0",
        name: "get_weather",
        result: { ok: false, error: expect.objectContaining({ code: "stream-violation", message: violation }) },
      },
    ]);
  });

  it("an id that never comes: refused once its choice ends it", () => {
    const updates = run({ function: { name: "get_weather", arguments: "" } }, `${within}${" ".repeat(200)}`, undefined);
    expect(
      updates.filter((u) => u.kind !== "partial").map((u) => [u.kind, u.id, "error" in u ? u.error.code : ""]),
    ).toEqual([
      ["refused", "", "stream-violation"],
      ["decoded", "", ""],
    ]);
  });

  it("a name that keeps growing is held to the limit too", () => {
    const streams = streamCalls("chat-completions", { get_weather: small.value });
    const pieces = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? "a" : "b"));
    const updates = [
      ...pieces.map((name) => chunk({ index: 0, id: "call_0", function: { name, arguments: "" } })),
      chunk(undefined, "tool_calls"),
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates.map((u) => [u.kind, u.name.length <= 1024])).toEqual([["unknown-tool", true]]);
  });

  it("a limit smaller than the tool's name holds the name all the same", () => {
    const tiny = compileCodec(
      { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
      { name: "get_weather", limits: { maxBytes: 8 } },
    );
    if (!tiny.ok) throw new Error(tiny.error.message);
    const streams = streamCalls("chat-completions", { get_weather: tiny.value });
    const updates = [
      chunk({ index: 0, id: "call_0", type: "function", function: { name: "get_weather", arguments: "" } }),
      chunk({ index: 0, function: { arguments: "{}" } }),
      chunk(undefined, "tool_calls"),
    ].flatMap((e) => [...streams.event(e)]);
    expect(updates.filter((u) => u.kind !== "partial" && u.kind !== "refused")).toEqual([
      { kind: "decoded", id: "call_0", name: "get_weather", result: tiny.value.decode("{}") },
    ]);
  });

  it("within the limit (pairs split between fragments counted as 4 bytes), the name coming late decodes", () => {
    const updates = run({ id: "call_0", function: { arguments: "" } }, within, {
      function: { name: "get_weather", arguments: "" },
    });
    expect(updates.filter((u) => u.kind !== "partial")).toEqual([
      { kind: "decoded", id: "call_0", name: "get_weather", result: small.value.decode(within) },
    ]);
    expect(small.value.decode(within).ok).toBe(true);
  });
});
