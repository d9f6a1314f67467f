/**
 * Structured outputs, the library side: the request fragment per API (strict,
 * named, the API's target only, strict "auto"), one budget per request with
 * the dispatcher's tools, hostile responses and events read without a throw,
 * and the conversation going on (the answer in the wire form, a repair turn).
 */
import {
  checkToolSet,
  compileCodec,
  createDispatcher,
  decodeOutput,
  describeFinding,
  type OutputApi,
  outputFormat,
  outputMessage,
  outputRepairMessage,
  streamOutput,
} from "@strictwire/codec";
import { anthropic } from "@strictwire/codec/providers";
import { describe, expect, it } from "vitest";

const APIS: readonly OutputApi[] = ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"];
const TARGET = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  gemini: "gemini",
  "bedrock-converse": "anthropic",
} as const;

const SCHEMA = {
  type: "object",
  description: "A ticket's triage.",
  properties: {
    summary: { type: "string" },
    team: { type: ["string", "null"] },
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["summary"],
  additionalProperties: false,
};

function codecFor(target: "openai" | "anthropic" | "gemini", schema: unknown = SCHEMA, strict?: "auto") {
  const compiled = compileCodec(schema, { name: "triage", target, ...(strict ? { strict } : {}) });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

/** An object schema with `n` optional string members. */
function optionals(n: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) properties[`o${i}`] = { type: "string" };
  return { type: "object", properties, additionalProperties: false };
}

/** An object schema with `n` required nullable members (each a union parameter for Anthropic). */
function nullables(n: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) properties[`u${i}`] = { type: ["string", "null"] };
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

describe("outputFormat", () => {
  it("writes each API's request member(s) around the wire, strict on where the API has the switch", () => {
    const openai = codecFor("openai");
    expect(outputFormat(openai, "openai-chat")).toEqual({
      ok: true,
      value: {
        response_format: {
          type: "json_schema",
          json_schema: { name: "triage", description: "A ticket's triage.", schema: openai.wire, strict: true },
        },
      },
    });
    expect(outputFormat(openai, "openai-responses", { name: "t2", description: "d" })).toEqual({
      ok: true,
      value: {
        text: { format: { type: "json_schema", name: "t2", description: "d", schema: openai.wire, strict: true } },
      },
    });
    const anthropic = codecFor("anthropic");
    expect(outputFormat(anthropic, "anthropic")).toEqual({
      ok: true,
      value: { output_config: { format: { type: "json_schema", schema: anthropic.wire } } },
    });
    const gemini = codecFor("gemini");
    expect(outputFormat(gemini.bundle, "gemini")).toEqual({
      ok: true,
      value: { generationConfig: { responseMimeType: "application/json", responseJsonSchema: gemini.wire } },
    });
  });

  it("refuses a wire compiled for another API's target, a name OpenAI would refuse, an unknown API", () => {
    expect(outputFormat(codecFor("openai"), "anthropic")).toMatchObject({
      ok: false,
      error: { code: "invalid-options", message: expect.stringContaining('target "anthropic"') },
    });
    expect(outputFormat(codecFor("openai"), "openai-chat", { name: "a b" })).toMatchObject({
      ok: false,
      error: { code: "invalid-options" },
    });
    expect(outputFormat(codecFor("openai"), "no-such-api" as OutputApi)).toMatchObject({
      ok: false,
      error: { code: "invalid-options" },
    });
  });

  it('strict "auto" applies: over the limits, OpenAI gets strict false, and an API with no switch refuses', () => {
    // Anthropic allows 16 parameters with union types per request: 20 nullable members cannot be strict.
    const over = codecFor("anthropic", nullables(20), "auto");
    expect(over.bundle.nonStrict).toBeDefined();
    expect(outputFormat(over, "anthropic")).toMatchObject({ ok: false, error: { code: "invalid-options" } });
    // OpenAI allows 1,000 enum values per schema.
    const values = Array.from({ length: 1200 }, (_, i) => `v${i}`);
    const openaiOver = compileCodec(
      { type: "object", properties: { e: { enum: values } }, required: ["e"], additionalProperties: false },
      { name: "big", target: "openai", strict: "auto" },
    );
    expect(openaiOver.ok && openaiOver.value.bundle.nonStrict).toBeTruthy();
    if (!openaiOver.ok) return;
    expect(outputFormat(openaiOver.value, "openai-chat")).toMatchObject({
      ok: true,
      value: { response_format: { json_schema: { strict: false } } },
    });
  });
});

describe("one budget per request", () => {
  it("checkToolSet counts the answer's optional parameters with the tools' (Anthropic), not as a strict tool", () => {
    const tool = codecFor("anthropic", optionals(15));
    expect(checkToolSet([tool.bundle], "anthropic", { output: codecFor("anthropic", optionals(9)).bundle })).toEqual(
      [],
    );
    const crosses = codecFor("anthropic", optionals(10));
    expect(outputFormat(crosses, "anthropic").ok).toBe(true);
    const findings = checkToolSet([tool.bundle], "anthropic", { output: crosses.bundle });
    expect(findings).toEqual([
      expect.objectContaining({
        limit: "maxOptionalParameters",
        measured: 25,
        max: 24,
        scope: "request",
        tool: "triage (answer format)",
      }),
    ]);
    expect(describeFinding(findings[0]!, "anthropic")).toContain("25 optional parameters");
  });

  it("the dispatcher's outputFormat: the fragment, refused for a codec of another target than its tools'", () => {
    const dispatcher = createDispatcher({ triage: codecFor("anthropic") }, { triage: async () => "done" });
    expect(dispatcher.outputFormat(codecFor("anthropic"), "anthropic")).toEqual(
      outputFormat(codecFor("anthropic"), "anthropic"),
    );
    expect(dispatcher.outputFormat(codecFor("openai"), "openai-chat")).toMatchObject({
      ok: false,
      error: { code: "invalid-options", message: expect.stringContaining("one request has one target") },
    });
  });
});

describe("decodeOutput and streamOutput never throw on hostile input", () => {
  const hostile: unknown[] = [
    null,
    undefined,
    42,
    "text",
    [],
    { choices: "x", output: 3, content: null, candidates: {} },
    { choices: [{ message: { content: 7 } }] },
    { output: [{ type: "message", content: [{ type: "output_text", text: 5 }] }] },
    { content: [{ type: "text", text: ["a"] }], stop_reason: {} },
    { candidates: [{ content: { parts: [{ text: null }] }, finishReason: 9 }] },
    new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
      },
    ),
    Object.defineProperty({}, "choices", {
      get() {
        throw new Error("boom");
      },
      enumerable: true,
    }),
  ];

  for (const api of APIS) {
    it(api, () => {
      const codec = codecFor(TARGET[api]);
      for (const response of hostile) {
        const result = decodeOutput(codec, api, response);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(["no-answer", "invalid-json"]).toContain(result.error.code);
        const answer = streamOutput(codec, api);
        expect(() => answer.event(response)).not.toThrow();
        const last = answer.finish().at(-1);
        if (last !== undefined) expect(last.kind).not.toBe("decoded");
      }
    });
  }
});

describe("a whole response gives a value only when the provider ended the answer", () => {
  /** The answer `text` in each API's whole response, its end as `end` says (undefined: the member left out). */
  const responses: Record<OutputApi, (end: unknown, text: string) => unknown> = {
    "openai-chat": (end, text) => ({
      choices: [{ index: 0, ...(end === undefined ? {} : { finish_reason: end }), message: { content: text } }],
    }),
    "openai-responses": (end, text) => ({
      ...(end === undefined ? {} : { status: end }),
      output: [{ type: "message", content: [{ type: "output_text", text }] }],
    }),
    anthropic: (end, text) => ({
      ...(end === undefined ? {} : { stop_reason: end }),
      content: [{ type: "text", text }],
    }),
    gemini: (end, text) => ({
      candidates: [{ ...(end === undefined ? {} : { finishReason: end }), content: { parts: [{ text }] } }],
    }),
    "bedrock-converse": (end, text) => ({
      ...(end === undefined ? {} : { stopReason: end }),
      output: { message: { content: [{ text }] } },
    }),
  };
  /** Each API's own end of an answer, and ends that are not one (unfinished, paused, a tool's turn, none said). */
  const ends: Record<OutputApi, { ended: string; not: unknown[] }> = {
    "openai-chat": { ended: "stop", not: [undefined, null, "tool_calls", "function_call"] },
    "openai-responses": { ended: "completed", not: [undefined, null, "in_progress", "queued", "cancelled"] },
    anthropic: { ended: "end_turn", not: [undefined, null, "pause_turn", "tool_use"] },
    gemini: { ended: "STOP", not: [undefined, null, "FINISH_REASON_UNSPECIFIED"] },
    "bedrock-converse": { ended: "end_turn", not: [undefined, null, "tool_use"] },
  };

  for (const api of APIS) {
    it(api, () => {
      const codec = codecFor(TARGET[api]);
      const wire = codec.encode({ summary: "jam" });
      if (!wire.ok) throw new Error(wire.error.message);
      const text = JSON.stringify(wire.value);
      expect(decodeOutput(codec, api, responses[api](ends[api].ended, text))).toEqual({
        ok: true,
        value: { summary: "jam" },
      });
      for (const end of ends[api].not) {
        expect(decodeOutput(codec, api, responses[api](end, text)), `${api} ${String(end)}`).toMatchObject({
          ok: false,
          error: { code: "no-answer" },
        });
      }
    });
  }

  it("a Responses stream's response.incomplete still cuts the answer when its response object says no status", () => {
    const codec = codecFor("openai");
    const answer = streamOutput(codec, "openai-responses");
    answer.event({ type: "response.output_text.delta", delta: '{"summary":"jam"' });
    expect(answer.event({ type: "response.incomplete", response: {} })).toMatchObject([
      { kind: "cut", error: { code: "answer-cut" } },
    ]);
  });
});

describe("an answer beside a call of the caller's tools is no answer: the turn is the tools'", () => {
  /** The answer `text` and a call of a tool, in a whole response and in a stream, as each API sends them. */
  const shapes: Record<OutputApi, (text: string) => { whole: unknown; events: unknown[] }> = {
    "openai-chat": (text) => {
      const call = { index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } };
      return {
        whole: { choices: [{ index: 0, finish_reason: "tool_calls", message: { content: text, tool_calls: [call] } }] },
        events: [
          { choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
          { choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] },
          { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
        ],
      };
    },
    "openai-responses": (text) => {
      const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "lookup", arguments: "{}" };
      const message = { type: "message", id: "msg_1", content: [{ type: "output_text", text }] };
      return {
        whole: { status: "completed", output: [message, call] },
        events: [
          { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
          { type: "response.output_text.delta", item_id: "msg_1", delta: text },
          { type: "response.output_text.done", item_id: "msg_1", text },
          { type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "" } },
          { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: "{}" },
          { type: "response.output_item.done", output_index: 1, item: call },
          { type: "response.completed", response: { status: "completed", output: [message, call] } },
        ],
      };
    },
    anthropic: (text) => ({
      whole: {
        stop_reason: "tool_use",
        content: [
          { type: "text", text },
          { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
        ],
      },
      events: [
        { type: "message_start", message: { content: [] } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "lookup" } },
        { type: "content_block_stop", index: 1 },
        { type: "message_delta", delta: { stop_reason: "tool_use" } },
        { type: "message_stop" },
      ],
    }),
    // Gemini ends a turn of function calls with STOP, as it ends an answer.
    gemini: (text) => ({
      whole: {
        candidates: [
          { finishReason: "STOP", content: { parts: [{ text }, { functionCall: { name: "lookup", args: {} } }] } },
        ],
      },
      events: [
        { candidates: [{ content: { parts: [{ text }] } }] },
        {
          candidates: [{ content: { parts: [{ functionCall: { name: "lookup", args: {} } }] }, finishReason: "STOP" }],
        },
      ],
    }),
    "bedrock-converse": (text) => ({
      whole: {
        stopReason: "tool_use",
        output: { message: { content: [{ text }, { toolUse: { toolUseId: "t1", name: "lookup", input: {} } }] } },
      },
      events: [
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } },
        { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "t1", name: "lookup" } } } },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: "{}" } } } },
        { contentBlockStop: { contentBlockIndex: 1 } },
        { messageStop: { stopReason: "tool_use" } },
      ],
    }),
  };

  for (const api of APIS) {
    it(api, () => {
      const codec = codecFor(TARGET[api]);
      const wire = codec.encode({ summary: "jam" });
      if (!wire.ok) throw new Error(wire.error.message);
      const { whole, events } = shapes[api](JSON.stringify(wire.value));
      expect(decodeOutput(codec, api, whole)).toMatchObject({ ok: false, error: { code: "no-answer" } });
      const answer = streamOutput(codec, api);
      const updates = [...events.flatMap((e) => answer.event(e)), ...answer.finish()];
      expect(updates.some((u) => u.kind === "decoded")).toBe(false);
      expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "no-answer" } });
    });
  }

  it('openai-chat from a server that ends a turn of calls with "stop" (as some compatible servers do)', () => {
    const codec = codecFor("openai");
    const wire = codec.encode({ summary: "jam" });
    if (!wire.ok) throw new Error(wire.error.message);
    const { whole, events } = shapes["openai-chat"](JSON.stringify(wire.value));
    const stopped = structuredClone(whole) as { choices: [{ finish_reason: string }] };
    stopped.choices[0].finish_reason = "stop";
    expect(decodeOutput(codec, "openai-chat", stopped)).toMatchObject({ ok: false, error: { code: "no-answer" } });
    const answer = streamOutput(codec, "openai-chat");
    const last = { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
    const updates = [...[...events.slice(0, -1), last].flatMap((e) => answer.event(e)), ...answer.finish()];
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "no-answer" } });
  });
});

describe("a Responses stream's output_text.done restates its part's text", () => {
  const codec = codecFor("openai");
  const wire = codec.encode({ summary: "/home/user/docs" });
  if (!wire.ok) throw new Error(wire.error.message);
  const text = JSON.stringify(wire.value);
  const at = (item: string, part: number) => ({ item_id: item, output_index: 0, content_index: part });
  const completed = { type: "response.completed", response: { status: "completed" } };
  const run = (events: unknown[]) => {
    const answer = streamOutput(codec, "openai-responses");
    return [...events.flatMap((e) => answer.event(e)), ...answer.finish()];
  };

  it("a done whose text differs from the deltas (a delta lost on the way) fails the answer, never decodes it short", () => {
    // The lost piece leaves JSON that still decodes: {"summary":"/home/…"} short of "user/".
    const cut = text.indexOf("user/");
    const updates = run([
      { type: "response.output_text.delta", ...at("msg_1", 0), delta: text.slice(0, cut) },
      { type: "response.output_text.delta", ...at("msg_1", 0), delta: text.slice(cut + "user/".length) },
      { type: "response.output_text.done", ...at("msg_1", 0), text },
      completed,
    ]);
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "stream-violation" } });
  });

  it("a part given only by its done is read, after another part that came as deltas", () => {
    const half = text.length >> 1;
    const updates = run([
      { type: "response.output_text.delta", ...at("msg_1", 0), delta: text.slice(0, half) },
      { type: "response.output_text.done", ...at("msg_1", 0), text: text.slice(0, half) },
      { type: "response.output_text.done", ...at("msg_1", 1), text: text.slice(half) },
      completed,
    ]);
    expect(updates.at(-1)).toEqual({ kind: "decoded", result: codec.decode(text) });
    expect(codec.decode(text).ok).toBe(true);
  });
});

describe("an Anthropic text_delta is answer text wherever it is addressed", () => {
  it("one addressed to no open text block (its start lost) fails the answer, never decodes it short of the piece", () => {
    const codec = codecFor("anthropic");
    const wire = codec.encode({ summary: "/home/user/docs" });
    if (!wire.ok) throw new Error(wire.error.message);
    const text = JSON.stringify(wire.value);
    const [from, to] = [text.indexOf("user/"), text.indexOf("user/") + "user/".length];
    // Without the middle block the text is still JSON that decodes: {"summary":"/home/docs",…}.
    expect(codec.decode(text.slice(0, from) + text.slice(to))).toMatchObject({
      ok: true,
      value: { summary: "/home/docs" },
    });
    const block = (index: number, piece: string, started: boolean) => [
      ...(started ? [{ type: "content_block_start", index, content_block: { type: "text", text: "" } }] : []),
      { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
      { type: "content_block_stop", index },
    ];
    const events = [
      { type: "message_start", message: { content: [] } },
      ...block(0, text.slice(0, from), true),
      ...block(1, text.slice(from, to), false),
      ...block(2, text.slice(to), true),
      { type: "message_delta", delta: { stop_reason: "end_turn" } },
      { type: "message_stop" },
    ];
    const answer = streamOutput(codec, "anthropic");
    const updates = [...events.flatMap((e) => answer.event(e)), ...answer.finish()];
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "stream-violation" } });
  });
});

describe("the conversation goes on", () => {
  it("puts the decoded answer back in the wire form, and decode's feedback in a repair turn", () => {
    const codec = codecFor("openai");
    const value = { summary: "jam", labels: { area: "hw" } };
    const wire = codec.encode(value);
    expect(wire.ok).toBe(true);
    const text = JSON.stringify(wire.ok && wire.value);
    expect(outputMessage(codec, "openai-chat", value)).toEqual({
      ok: true,
      value: { role: "assistant", content: text },
    });
    expect(outputMessage(codec, "gemini", value)).toEqual({ ok: true, value: { role: "model", parts: [{ text }] } });
    // A value the contract refuses is not put in the model's mouth.
    expect(outputMessage(codec, "anthropic", { summary: 3 } as never).ok).toBe(false);

    const refused = codec.decode('{"summary":"jam","team":null,"labels":{"area":"hw"}}');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(outputRepairMessage("anthropic", refused.error)).toEqual({
      ok: true,
      value: { role: "user", content: refused.error.feedback },
    });
  });
});

describe("Gemini: the answer is candidate 0's, the one whose index is 0", () => {
  const codec = codecFor("gemini");
  const textOf = (value: unknown): string => {
    const wire = codec.encode(value as never);
    if (!wire.ok) throw new Error(wire.error.message);
    return JSON.stringify(wire.value);
  };
  const zero = textOf({ summary: "candidate zero" });
  const one = textOf({ summary: "candidate one" });

  it("whole: a list out of order gives candidate 0's answer; no candidate 0 is no-answer", () => {
    const candidates = [
      { index: 1, finishReason: "STOP", content: { parts: [{ text: one }] } },
      { index: 0, finishReason: "STOP", content: { parts: [{ text: zero }] } },
    ];
    expect(decodeOutput(codec, "gemini", { candidates })).toEqual({ ok: true, value: { summary: "candidate zero" } });
    expect(decodeOutput(codec, "gemini", { candidates: [candidates[0]] })).toMatchObject({
      ok: false,
      error: { code: "no-answer", path: "" },
    });
  });

  it("streamed: a chunk of candidate 1 alone, or listed first, is not read as candidate 0", () => {
    const answer = streamOutput(codec, "gemini");
    const updates = [
      { candidates: [{ index: 1, content: { parts: [{ text: one.slice(0, 5) }] } }] },
      {
        candidates: [
          { index: 1, content: { parts: [{ text: one.slice(5) }] }, finishReason: "STOP" },
          { index: 0, content: { parts: [{ text: zero.slice(0, 7) }] } },
        ],
      },
      { candidates: [{ index: 0, content: { parts: [{ text: zero.slice(7) }] }, finishReason: "STOP" }] },
    ].flatMap((e) => [...answer.event(e)]);
    expect(updates.at(-1)).toEqual({ kind: "decoded", result: { ok: true, value: { summary: "candidate zero" } } });
  });
});

describe("streamOutput: an event that cannot be read", () => {
  const unreadable = new Proxy(
    {},
    {
      get() {
        throw new Error("boom");
      },
    },
  );
  it("fails the answer (stream-violation): the lost event may have held a piece, and the rest still decodes", () => {
    const codec = codecFor("anthropic");
    const wire = codec.encode({ summary: "jammed door" });
    if (!wire.ok) throw new Error(wire.error.message);
    const text = JSON.stringify(wire.value);
    const cut = text.indexOf("jam") + 3;
    const answer = streamOutput(codec, "anthropic");
    const delta = (t: string) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } });
    const updates = [
      { type: "message_start", message: { content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      delta(text.slice(0, cut)),
      unreadable,
      delta(text.slice(text.indexOf("door") + 4)),
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" } },
      { type: "message_stop" },
    ].flatMap((e) => [...answer.event(e)]);
    // Without the lost piece the text is still an answer the codec takes: "jam".
    expect(codec.decode(text.slice(0, cut) + text.slice(text.indexOf("door") + 4)).ok).toBe(true);
    expect(updates.some((u) => u.kind === "decoded")).toBe(false);
    expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "stream-violation", path: "" } });
    expect(answer.settled).toBe(true);
  });
});

describe("a streamed refusal keeps only the words an error shows", () => {
  const codecOf = (target: "openai" | "anthropic") => {
    const compiled = compileCodec(SCHEMA, { name: "triage", target });
    if (!compiled.ok) throw new Error(compiled.error.message);
    return compiled.value;
  };
  const words = Array.from({ length: 2000 }, (_, i) => `no ${i}. `);
  const says = words.join("");

  it("Chat Completions: delta.refusal, thousands of times; the error is the whole response's", () => {
    const codec = codecOf("openai");
    const answer = streamOutput(codec, "openai-chat");
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const updates = [...words.map((refusal) => chunk({ refusal })), chunk({}, "stop")].flatMap((e) => [
      ...answer.event(e),
    ]);
    const whole = decodeOutput(codec, "openai-chat", {
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: null, refusal: says } }],
    });
    expect(whole.ok).toBe(false);
    expect(updates).toEqual([{ kind: "failed", error: whole.ok ? undefined : whole.error }]);
    expect((answer as unknown as { refusal: string }).refusal.length).toBeLessThanOrEqual(301);
  });

  it("Anthropic: the text deltas of a refused answer, as the slot's end gives them; the error is the whole message's", () => {
    const codec = codecOf("anthropic");
    const events = [
      { type: "message_start", message: { id: "msg_1", content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ...words.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "refusal" } },
      { type: "message_stop" },
    ];
    const signals = anthropic.answer.events();
    const ended = events.flatMap((e) => [...signals(e)]).filter((s) => s.kind === "ended");
    expect(ended).toHaveLength(1);
    const read = ended[0]!.kind === "ended" ? ended[0]!.read : undefined;
    expect(read?.kind === "refused" ? read.message.length : 0).toBeLessThanOrEqual(301);
    const answer = streamOutput(codec, "anthropic");
    const updates = events.flatMap((e) => [...answer.event(e)]).filter((u) => u.kind !== "partial");
    const whole = decodeOutput(codec, "anthropic", {
      content: [{ type: "text", text: says }],
      stop_reason: "refusal",
    });
    expect(whole.ok).toBe(false);
    expect(updates.filter((u) => u.kind !== "refused")).toEqual([
      { kind: "failed", error: whole.ok ? undefined : whole.error },
    ]);
  });
});
