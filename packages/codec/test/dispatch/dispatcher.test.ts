/**
 * guardedCall and the dispatcher: what reaches a handler, what goes back to
 * the model, and in which provider format.
 */
import {
  type CallReport,
  type Codec,
  compileCodec,
  createDispatcher,
  type GuardedResult,
  guardedCall,
} from "@strictwire/codec";
import { describe, expect, it } from "vitest";

interface Contact {
  id: string;
  email?: string;
  phone?: string | null;
}

interface Weather {
  city: string;
  unit?: "celsius" | "fahrenheit";
}

function codec<T>(schema: unknown, name: string): Codec<T> {
  const r = compileCodec<T>(schema, { name, description: `The ${name} tool.` });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const contact = codec<Contact>(
  {
    type: "object",
    properties: {
      id: { type: "string", minLength: 1 },
      email: { type: "string" },
      phone: { type: ["string", "null"], description: "null clears the number" },
    },
    required: ["id"],
    additionalProperties: false,
  },
  "update_contact",
);

const weather = codec<Weather>(
  {
    type: "object",
    properties: { city: { type: "string", minLength: 2 }, unit: { enum: ["celsius", "fahrenheit"] } },
    required: ["city"],
    additionalProperties: false,
  },
  "get_weather",
);

/** What a model writes for a value: its wire form, as the provider's arguments text. */
function args<T>(c: Codec<T>, value: T): string {
  const wire = c.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}

/** Wire text that parses and fits the wire schema but breaks the contract (minLength). */
const shortCity = JSON.stringify({ city: "X", unit: { state: "absent" } });

function tools(log: unknown[] = []) {
  return createDispatcher(
    { update_contact: contact, get_weather: weather },
    {
      update_contact: (value) => {
        log.push(value);
        return { updated: value.id };
      },
      get_weather: async (value) => {
        log.push(value);
        return `${value.city}: 21 ${value.unit ?? "celsius"}`;
      },
    },
  );
}

describe("guardedCall", () => {
  it("hands the handler the exact original value: absent stays absent, null stays null", async () => {
    const seen: Contact[] = [];
    const call = guardedCall(contact, (value, info) => {
      seen.push(value);
      return `updated ${value.id} for call ${info.id}`;
    });
    const result = await call(args(contact, { id: "c-7", phone: null }), { id: "call_1" });
    expect(result).toEqual({ ok: true, output: "updated c-7 for call call_1" });
    expect(seen).toStrictEqual([{ id: "c-7", phone: null }]);
    expect(Object.hasOwn(seen[0]!, "email")).toBe(false);
    expect(seen[0]!.phone).toBeNull();
  });

  it("accepts an already-parsed arguments object and bytes as well as text", async () => {
    const call = guardedCall(weather, (value) => value.city);
    const text = args(weather, { city: "Oslo" });
    expect(await call(JSON.parse(text))).toEqual({ ok: true, output: "Oslo" });
    expect(await call(new TextEncoder().encode(text))).toEqual({ ok: true, output: "Oslo" });
  });

  it("never runs the handler on a contract-breaking call and returns the feedback as the result", async () => {
    let ran = false;
    const call = guardedCall(weather, () => {
      ran = true;
      return "sunny";
    });
    const result = await call(shortCity);
    expect(ran).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.kind).toBe("rejected");
    if (result.kind !== "rejected") return;
    expect(result.error.code).toBe("contract-violation");
    expect(result.output).toBe(result.error.feedback);
    expect(result.output).toContain("get_weather");
    expect(result.output).toContain("/city");
  });

  it("rejects text that is not JSON and a wire-shape violation without running the handler", async () => {
    let runs = 0;
    const call = guardedCall(weather, () => ++runs);
    const broken = await call('{"arguments": {"city": "Oslo"');
    const misshapen = await call(' {"city": "Oslo"}');
    expect(runs).toBe(0);
    expect(broken).toMatchObject({ ok: false, kind: "rejected", error: { code: "invalid-json" } });
    expect(misshapen).toMatchObject({ ok: false, kind: "rejected", error: { code: "wire-violation" } });
  });

  it("turns a throwing handler into a handler-error result that keeps the error and hides its message", async () => {
    const boom = new Error("database password is hunter2");
    const call = guardedCall(weather, () => {
      throw boom;
    });
    const result = await call(args(weather, { city: "Oslo" }));
    expect(result).toMatchObject({ ok: false, kind: "handler-error" });
    if (result.ok || result.kind !== "handler-error") return;
    expect(result.error).toBe(boom);
    expect(result.output).toContain("get_weather failed");
    expect(result.output).not.toContain("hunter2");
  });

  it("catches a rejected promise and lets the caller word the error text", async () => {
    const call = guardedCall(weather, async () => Promise.reject(new RangeError("no data for Oslo")), {
      describeHandlerError: (error, info) => `${info.name}: ${(error as Error).message}`,
    });
    const result = await call(args(weather, { city: "Oslo" }));
    expect(result).toMatchObject({ ok: false, kind: "handler-error", output: "get_weather: no data for Oslo" });
  });

  it("falls back to the default text when the error describer itself throws", async () => {
    const call = guardedCall(
      weather,
      () => {
        throw new Error("first");
      },
      {
        describeHandlerError: () => {
          throw new Error("second");
        },
      },
    );
    const result: GuardedResult<never> = await call(args(weather, { city: "Oslo" }));
    expect(result).toMatchObject({ ok: false, kind: "handler-error" });
    expect(result.output).toContain("get_weather failed");
  });
});

describe("dispatcher: OpenAI Responses", () => {
  it("answers every function call with a function_call_output, ids matched, order kept", async () => {
    const log: unknown[] = [];
    const d = tools(log);
    // Held in a variable first, as an SDK response would be: no excess-property check on extra fields.
    const response = {
      status: "completed",
      incomplete_details: null,
      output: [
        { type: "reasoning", id: "rs_1", summary: [] },
        {
          type: "function_call",
          call_id: "call_a",
          name: "update_contact",
          arguments: args(contact, { id: "c1", phone: null }),
          status: "completed",
        },
        { type: "message", id: "msg_1", content: [] },
        { type: "function_call", call_id: "call_b", name: "get_weather", arguments: shortCity, status: "completed" },
        { type: "function_call", call_id: "call_c", name: "send_email", arguments: "{}", status: "completed" },
      ],
    };
    const r = await d.responses(response);
    expect(r.truncation).toBeUndefined();
    expect(r.messages.map((m) => [m.type, m.call_id])).toEqual([
      ["function_call_output", "call_a"],
      ["function_call_output", "call_b"],
      ["function_call_output", "call_c"],
    ]);
    expect(r.messages[0]!.output).toBe('{"updated":"c1"}');
    expect(r.messages[1]!.output).toContain("/city");
    expect(r.messages[2]!.output).toBe(
      'There is no tool named "send_email". The tools are: update_contact, get_weather. Call one of them instead.',
    );
    expect(r.calls.map((c) => c.kind)).toEqual(["ok", "rejected", "unknown-tool"]);
    // Only the valid call reached a handler, with the original value.
    expect(log).toStrictEqual([{ id: "c1", phone: null }]);
  });

  it("answers calls cut off by max_output_tokens as cut off and still runs the complete ones", async () => {
    const log: unknown[] = [];
    const whole = args(weather, { city: "Oslo", unit: "fahrenheit" });
    const r = await tools(log).responses({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: whole, status: "completed" },
        {
          type: "function_call",
          call_id: "call_2",
          name: "update_contact",
          arguments: '{"arguments":{"id":"c1","email":{"state":"pres',
          status: "incomplete",
        },
      ],
    });
    expect(r.truncation).toBe("max_output_tokens");
    expect(r.calls.map((c) => c.kind)).toEqual(["ok", "truncated"]);
    expect(r.messages[0]).toEqual({ type: "function_call_output", call_id: "call_1", output: "Oslo: 21 fahrenheit" });
    expect(r.messages[1]!.call_id).toBe("call_2");
    expect(r.messages[1]!.output).toContain("cut off (max_output_tokens)");
    expect(r.messages[1]!.output).toContain("update_contact");
    expect(log).toStrictEqual([{ city: "Oslo", unit: "fahrenheit" }]);
  });

  it("treats unparsable arguments in an incomplete response as cut off even when the item is not marked", async () => {
    const r = await tools().responses({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"arguments":{"ci' }],
    });
    expect(r.calls[0]).toMatchObject({ kind: "truncated", error: { code: "invalid-json" } });
  });

  it("runs no call whose item is still in_progress (a background response retrieved mid-run), whole or not", async () => {
    const log: unknown[] = [];
    const whole = args(weather, { city: "Oslo", unit: "fahrenheit" });
    const r = await tools(log).responses({
      status: "in_progress",
      output: [
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: whole, status: "completed" },
        { type: "function_call", call_id: "call_2", name: "get_weather", arguments: whole, status: "in_progress" },
      ],
    });
    expect(r.calls.map((c) => c.kind)).toEqual(["ok", "truncated"]);
    expect(log).toStrictEqual([{ city: "Oslo", unit: "fahrenheit" }]);
  });

  it("answers nothing for a response without tool calls", async () => {
    const response = { status: "completed", output: [{ type: "message", content: [] }] };
    const r = await tools().responses(response);
    expect(r).toEqual({ messages: [], calls: [], truncation: undefined });
  });
});

describe("dispatcher: a call id given twice in one response", () => {
  it("runs and answers the first call under an id only, as the stream readers do", async () => {
    const log: unknown[] = [];
    const item = {
      type: "function_call",
      call_id: "call_a",
      name: "get_weather",
      arguments: args(weather, { city: "Oslo" }),
      status: "completed",
    };
    // A replayed item: run twice, the action would happen twice, and two results would answer one id.
    const r = await tools(log).responses({ status: "completed", output: [item, { ...item }] });
    expect(log).toStrictEqual([{ city: "Oslo" }]);
    expect(r.messages.map((m) => m.call_id)).toEqual(["call_a"]);
    expect(r.calls.map((c) => [c.id, c.kind])).toEqual([
      ["call_a", "ok"],
      ["call_a", "malformed"],
    ]);
    const anthropic = await tools(log).anthropic({
      stop_reason: "tool_use",
      content: [
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: JSON.parse(args(weather, { city: "Rome" })) },
        { type: "tool_use", id: "toolu_1", name: "update_contact", input: JSON.parse(args(contact, { id: "c9" })) },
      ],
    });
    expect(anthropic.calls.map((c) => c.kind)).toEqual(["ok", "malformed"]);
    expect(anthropic.messages[0]!.content.map((b) => b.tool_use_id)).toEqual(["toolu_1"]);
    expect(log).toStrictEqual([{ city: "Oslo" }, { city: "Rome" }]);
  });
});

describe("dispatcher: OpenAI Chat Completions", () => {
  it("answers every tool call with a tool message, ids matched, order kept", async () => {
    const log: unknown[] = [];
    const completion = {
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_w",
                type: "function",
                function: { name: "get_weather", arguments: args(weather, { city: "Lima" }) },
              },
              {
                id: "call_c",
                type: "function",
                function: { name: "update_contact", arguments: args(contact, { id: "c2", email: "a@b.c" }) },
              },
              { id: "call_x", type: "custom", custom: { name: "shell", input: "rm -rf /" } },
            ],
          },
        },
      ],
    };
    const r = await tools(log).chat(completion);
    expect(r.messages).toEqual([
      { role: "tool", tool_call_id: "call_w", content: "Lima: 21 celsius" },
      { role: "tool", tool_call_id: "call_c", content: '{"updated":"c2"}' },
      {
        role: "tool",
        tool_call_id: "call_x",
        content:
          'There is no tool named "shell". The tools are: update_contact, get_weather. Call one of them instead.',
      },
    ]);
    expect(log).toStrictEqual([{ city: "Lima" }, { id: "c2", email: "a@b.c" }]);
    expect(Object.hasOwn(log[1] as object, "phone")).toBe(false);
  });

  it("answers the call a length cut-off ended in as cut off", async () => {
    const r = await tools().chat({
      choices: [
        {
          finish_reason: "length",
          message: {
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "get_weather", arguments: '{"arguments":{"city":"Os' },
              },
            ],
          },
        },
      ],
    });
    expect(r.truncation).toBe("length");
    expect(r.calls[0]).toMatchObject({ id: "call_1", kind: "truncated" });
    expect(r.messages[0]!.content).toContain("cut off (length)");
  });

  it("does not call it a cut-off when the response finished normally: broken JSON is rejected with feedback", async () => {
    const r = await tools().chat({
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{city: Oslo}" } },
            ],
          },
        },
      ],
    });
    expect(r.calls[0]).toMatchObject({ kind: "rejected", error: { code: "invalid-json" } });
  });

  it("reports a call without an id and sends no message for it", async () => {
    const r = await tools().chat({
      choices: [
        { message: { tool_calls: [{ type: "function", function: { name: "get_weather", arguments: "{}" } }] } },
      ],
    });
    expect(r.calls).toEqual([
      { id: "", name: "get_weather", ok: false, kind: "malformed", output: "The tool call had no id or no name." },
    ]);
    expect(r.messages).toEqual([]);
  });

  it("answers nothing for a completion without choices", async () => {
    const r = await tools().chat({ choices: [] });
    expect(r.messages).toEqual([]);
  });
});

describe("dispatcher: Anthropic Messages", () => {
  it("answers with one user message of tool_result blocks, is_error on failures only", async () => {
    const log: unknown[] = [];
    const d = createDispatcher(
      { update_contact: contact, get_weather: weather },
      {
        update_contact: (value) => {
          log.push(value);
          throw new Error("CRM is down");
        },
        get_weather: (value) => {
          log.push(value);
          return `${value.city}: rain`;
        },
      },
    );
    const message = {
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Let me check." },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "get_weather",
          input: JSON.parse(args(weather, { city: "Bergen" })) as unknown,
        },
        {
          type: "tool_use",
          id: "toolu_2",
          name: "update_contact",
          input: JSON.parse(args(contact, { id: "c3" })) as unknown,
        },
        { type: "tool_use", id: "toolu_3", name: "get_weather", input: JSON.parse(shortCity) as unknown },
        { type: "tool_use", id: "toolu_4", name: "lookup", input: {} },
      ],
    };
    const r = await d.anthropic(message);
    expect(r.messages).toHaveLength(1);
    const [results] = r.messages;
    expect(results!.role).toBe("user");
    expect(results!.content.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ["toolu_1", undefined],
      ["toolu_2", true],
      ["toolu_3", true],
      ["toolu_4", true],
    ]);
    expect(Object.hasOwn(results!.content[0]!, "is_error")).toBe(false);
    expect(results!.content[0]!.content).toBe("Bergen: rain");
    expect(r.calls.map((c) => c.kind)).toEqual(["ok", "handler-error", "rejected", "unknown-tool"]);
    const failed = r.calls[1] as CallReport & { kind: "handler-error" };
    expect((failed.error as Error).message).toBe("CRM is down");
    expect(log).toStrictEqual([{ city: "Bergen" }, { id: "c3" }]);
  });

  it("answers the tool_use block a max_tokens stop ended in as cut off, without running it", async () => {
    const log: unknown[] = [];
    const r = await tools(log).anthropic({
      stop_reason: "max_tokens",
      content: [
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: JSON.parse(args(weather, { city: "Rome" })) },
        // Looks whole, but the output ended inside it: nothing says the input is complete.
        { type: "tool_use", id: "toolu_2", name: "get_weather", input: JSON.parse(args(weather, { city: "Pa" })) },
      ],
    });
    expect(r.truncation).toBe("max_tokens");
    expect(r.calls.map((c) => c.kind)).toEqual(["ok", "truncated"]);
    expect(r.messages[0]!.content[1]).toMatchObject({ tool_use_id: "toolu_2", is_error: true });
    expect(r.messages[0]!.content[1]!.content).toContain("cut off (max_tokens)");
    expect(log).toStrictEqual([{ city: "Rome" }]);
  });

  it("holds an input the SDK gave parsed to the byte limit and refuses a lone surrogate in it, as in a text", async () => {
    // Anthropic (like Gemini and Bedrock) gives a call's input as an object, which the SDK's JSON.parse built.
    const log: unknown[] = [];
    const d = createDispatcher(
      { get_weather: weather },
      { get_weather: (value) => log.push(value) },
      { decode: { limits: { maxBytes: 64 } } },
    );
    const r = await d.anthropic({
      stop_reason: "tool_use",
      content: [
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: JSON.parse(args(weather, { city: "Oslo" })) },
        {
          type: "tool_use",
          id: "toolu_2",
          name: "get_weather",
          input: { city: "B".repeat(80), unit: { state: "absent" } },
        },
        {
          type: "tool_use",
          id: "toolu_3",
          name: "get_weather",
          input: JSON.parse('{"city":"Bergen\\ud800","unit":{"state":"absent"}}'),
        },
      ],
    });
    expect(r.calls.map((c) => [c.kind, "error" in c ? (c.error as { code?: string }).code : undefined])).toEqual([
      ["ok", undefined],
      ["rejected", "input-too-large"],
      ["rejected", "invalid-utf8"],
    ]);
    expect(log).toStrictEqual([{ city: "Oslo" }]);
  });

  it("refuses an input that cannot be read (a getter or proxy that throws) as no JSON data, never a throw", async () => {
    const boom = (): never => {
      throw new Error("boom");
    };
    const log: unknown[] = [];
    const d = createDispatcher({ get_weather: weather }, { get_weather: (value) => log.push(value) });
    const inputs = [
      JSON.parse(args(weather, { city: "Oslo" })),
      Object.defineProperty({ unit: { state: "absent" } }, "city", { get: boom, enumerable: true }),
      new Proxy({}, { get: boom, ownKeys: boom, getOwnPropertyDescriptor: boom }),
      new Proxy({}, { get: boom, getPrototypeOf: boom, ownKeys: boom, getOwnPropertyDescriptor: boom }),
    ];
    const r = await d.anthropic({
      stop_reason: "tool_use",
      content: inputs.map((input, i) => ({ type: "tool_use", id: `toolu_${i}`, name: "get_weather", input })),
    });
    expect(r.calls.map((c) => [c.kind, "error" in c ? (c.error as { code?: string }).code : undefined])).toEqual([
      ["ok", undefined],
      ["rejected", "invalid-json"],
      ["rejected", "invalid-json"],
      ["rejected", "invalid-json"],
    ]);
    expect(r.calls[1]).toMatchObject({ error: { path: "", message: expect.stringContaining("could not be read") } });
    expect(r.messages[0]!.content.map((block) => block.is_error)).toEqual([undefined, true, true, true]);
    expect(log).toStrictEqual([{ city: "Oslo" }]);
  });

  it("sends no message when the turn has no tool_use block", async () => {
    const message = { stop_reason: "end_turn", content: [{ type: "text", text: "Done." }] };
    const r = await tools().anthropic(message);
    expect(r.messages).toEqual([]);
  });
});

describe("dispatcher: parallel calls", () => {
  it("runs the calls of one turn concurrently and keeps their order in the results", async () => {
    // Each handler waits until all three have started: run one after another, this never resolves.
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const finished: string[] = [];
    const d = createDispatcher(
      { get_weather: weather },
      {
        get_weather: async (value) => {
          if (++started === 3) release();
          await allStarted;
          // Finish in reverse order of arrival, so order kept is order of calls, not of completion.
          await new Promise((resolve) => setTimeout(resolve, value.city === "Aa" ? 30 : value.city === "Bb" ? 15 : 0));
          finished.push(value.city);
          return value.city;
        },
      },
    );
    const r = await d.chat({
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            tool_calls: ["Aa", "Bb", "Cc"].map((city, i) => ({
              id: `call_${i}`,
              type: "function",
              function: { name: "get_weather", arguments: args(weather, { city }) },
            })),
          },
        },
      ],
    });
    expect(finished).toEqual(["Cc", "Bb", "Aa"]);
    expect(r.messages.map((m) => [m.tool_call_id, m.content])).toEqual([
      ["call_0", "Aa"],
      ["call_1", "Bb"],
      ["call_2", "Cc"],
    ]);
  });
});

describe("dispatcher: set-up and single calls", () => {
  it("gives each API's tool definitions from the bundles, in tool-set order", () => {
    const d = tools();
    const responses = d.tools("openai-responses");
    const chat = d.tools("openai-chat");
    expect(responses.ok && responses.value[0]).toEqual({
      type: "function",
      name: "update_contact",
      description: "The update_contact tool.",
      parameters: contact.wire,
      strict: true,
    });
    expect(chat.ok && chat.value[1]).toEqual({
      type: "function",
      function: { name: "get_weather", description: "The get_weather tool.", parameters: weather.wire, strict: true },
    });
  });

  it("refuses, as a value, definitions for an API the tools were not compiled for", () => {
    const r = tools().tools("anthropic");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("invalid-options");
    expect(r.error.message).toContain('target "anthropic"');
  });

  it("dispatches Anthropic calls for tools compiled for Anthropic, optional members left out", async () => {
    const compiled = compileCodec<Contact>(contact.bundle.source, { name: "update_contact", target: "anthropic" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const seen: Contact[] = [];
    const d = createDispatcher({ update_contact: compiled.value }, { update_contact: (v) => seen.push(v) });
    const definitions = d.tools("anthropic");
    expect(definitions.ok && definitions.value[0]).toMatchObject({ name: "update_contact", strict: true });
    const message = {
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "toolu_1", name: "update_contact", input: { id: "c9", phone: null } }],
    };
    const r = await d.anthropic(message);
    expect(r.calls[0]).toMatchObject({ kind: "ok" });
    expect(seen).toStrictEqual([{ id: "c9", phone: null }]);
  });

  it("refuses a tool set whose key is not its codec's name, or that lacks a handler", () => {
    expect(() => createDispatcher({ weather }, { weather: () => "" })).toThrow(/holds codec get_weather/);
    const handlers = {} as { get_weather: () => string };
    expect(() => createDispatcher({ get_weather: weather }, handlers)).toThrow(/no handler for tool get_weather/);
  });

  it("runs one call by name with the same checks", async () => {
    const d = tools();
    expect(await d.call("get_weather", args(weather, { city: "Oslo" }), "id1")).toEqual({
      id: "id1",
      name: "get_weather",
      ok: true,
      kind: "ok",
      output: "Oslo: 21 celsius",
      result: "Oslo: 21 celsius",
    });
    expect(await d.call("nope", "{}")).toMatchObject({ kind: "unknown-tool" });
  });

  it("reports a handler result that is not JSON as a handler error", async () => {
    const d = createDispatcher({ get_weather: weather }, { get_weather: () => ({ n: 10n }) });
    const r = await d.call("get_weather", args(weather, { city: "Oslo" }));
    expect(r).toMatchObject({ ok: false, kind: "handler-error" });
    expect(r.output).toContain("get_weather failed");
  });

  it("passes the call id and name to the handler", async () => {
    const seen: unknown[] = [];
    const d = createDispatcher({ get_weather: weather }, { get_weather: (_v, call) => seen.push(call) });
    await d.responses({
      output: [
        { type: "function_call", call_id: "call_9", name: "get_weather", arguments: args(weather, { city: "Oslo" }) },
      ],
    });
    expect(seen).toEqual([{ id: "call_9", name: "get_weather" }]);
  });
});

describe("dispatcher: what a response holds (the reader the classifier shares)", () => {
  const weatherCall = (id: string) => ({
    id,
    type: "function",
    function: { name: "get_weather", arguments: args(weather, { city: "Oslo" }) },
  });

  it("does not answer a Responses call by its item id: only call_id names it, so a call without one is malformed", async () => {
    const r = await tools().responses({
      output: [{ type: "function_call", id: "fc_1", name: "get_weather", arguments: args(weather, { city: "Oslo" }) }],
    });
    expect(r.calls).toEqual([
      { id: "", name: "get_weather", ok: false, kind: "malformed", output: "The tool call had no id or no name." },
    ]);
    expect(r.messages).toEqual([]);
  });

  it("counts an incomplete Responses reply as cut off whatever the reason", async () => {
    const r = await tools().responses({
      status: "incomplete",
      incomplete_details: { reason: "content_filter" },
      output: [{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"arguments":{"ci' }],
    });
    expect(r.truncation).toBe("content_filter");
    expect(r.calls[0]).toMatchObject({ id: "call_1", kind: "truncated" });
  });

  it("counts a Chat content_filter stop as a cut-off, like length", async () => {
    const r = await tools().chat({
      choices: [
        {
          finish_reason: "content_filter",
          message: {
            tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"argu' } }],
          },
        },
      ],
    });
    expect(r.truncation).toBe("content_filter");
    expect(r.calls[0]).toMatchObject({ id: "call_1", kind: "truncated" });
    expect(r.messages[0]!.content).toContain("cut off (content_filter)");
  });

  it("answers only choice 0 of a Chat Completion: other choices are alternative replies, not calls of this turn", async () => {
    const log: unknown[] = [];
    const r = await tools(log).chat({
      choices: [
        { finish_reason: "tool_calls", message: { tool_calls: [weatherCall("call_a")] } },
        { finish_reason: "length", message: { tool_calls: [weatherCall("call_b")] } },
      ],
    });
    expect(r.messages.map((m) => m.tool_call_id)).toEqual(["call_a"]);
    expect(r.truncation).toBeUndefined();
    expect(log).toHaveLength(1);
  });

  it("counts an Anthropic model_context_window_exceeded stop as a cut-off of the last tool_use", async () => {
    const r = await tools().anthropic({
      stop_reason: "model_context_window_exceeded",
      content: [
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: JSON.parse(args(weather, { city: "Oslo" })) },
        { type: "tool_use", id: "toolu_2", name: "get_weather", input: JSON.parse(args(weather, { city: "Lima" })) },
      ],
    });
    expect(r.truncation).toBe("model_context_window_exceeded");
    expect(r.calls.map((c) => [c.id, c.kind])).toEqual([
      ["toolu_1", "ok"],
      ["toolu_2", "truncated"],
    ]);
  });
});
