import { describe, expect, test } from "vitest";
import { classify, declaredTools, functionCalls, truncation, wasTruncated } from "../src/index.js";

const WEATHER_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
};

const anthropic = (input: unknown, stopReason = "tool_use") => ({
  id: "msg_01",
  type: "message",
  role: "assistant",
  stop_reason: stopReason,
  tools: [
    { name: "get_weather", description: "Weather", input_schema: WEATHER_SCHEMA, strict: true },
    { name: "loose_tool", input_schema: { type: "object" } },
    { type: "bash_20250124", name: "bash" },
  ],
  content: [
    { type: "text", text: "Let me check." },
    { type: "tool_use", id: "toolu_1", name: "get_weather", input },
  ],
});

describe("the Anthropic Messages shape", () => {
  test("tool_use blocks are calls, and their input is already an object", () => {
    const calls = functionCalls(anthropic({ city: "Paris" }));
    expect(calls).toEqual([{ name: "get_weather", callId: "toolu_1", arguments: { city: "Paris" } }]);
  });

  test("tools declare input_schema, strict only when it says true, and versioned client tools by name", () => {
    const tools = declaredTools(anthropic({}));
    expect(tools.get("get_weather")).toEqual({ parameters: WEATHER_SCHEMA, strict: true });
    expect(tools.get("loose_tool")).toEqual({ parameters: { type: "object" }, strict: false });
    expect(tools.get("bash")).toEqual({ parameters: undefined, strict: false });
  });

  test("a valid tool_use against a strict tool is dispatchable, a bad one violates the schema", () => {
    const good = anthropic({ city: "Paris", unit: "c" });
    expect(classify(functionCalls(good)[0], declaredTools(good)).state).toBe("dispatchable");
    const bad = anthropic({ city: "Paris", unit: "kelvin", when: "now" });
    const { state, detail } = classify(functionCalls(bad)[0], declaredTools(bad));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toContain('arguments.unit: "kelvin" is not one of the 2 declared value(s)');
    expect(detail).toContain("arguments.when: not declared, and the schema forbids extra keys");
  });

  test("stop_reason max_tokens is the output ceiling", () => {
    expect(wasTruncated(anthropic({}, "max_tokens"))).toBe(true);
    expect(wasTruncated(anthropic({}, "tool_use"))).toBe(false);
    expect(wasTruncated(anthropic({}, "end_turn"))).toBe(false);
  });

  test("a tool_use with no input is absent arguments, and truncation explains it", () => {
    const cut = { ...anthropic(undefined, "max_tokens") };
    expect(classify(functionCalls(cut)[0], declaredTools(cut), wasTruncated(cut)).state).toBe("arguments-truncated");
  });
});

describe("the OpenAI shapes, beyond the seed", () => {
  test("a Responses item without call_id has no call id: its item id cannot be answered, so it is not shown as one", () => {
    const stored = {
      output: [
        { type: "message", content: [] },
        { type: "function_call", id: "fc_1", name: "ping", arguments: "{}" },
        { type: "custom_tool_call", call_id: "c_2", name: "grammar", input: "x" },
      ],
    };
    expect(functionCalls(stored)).toEqual([{ name: "ping", callId: "", arguments: "{}" }]);
  });

  test("Chat Completions custom tool calls carry no JSON arguments and are not classified", () => {
    const chat = {
      choices: [
        {
          message: {
            tool_calls: [
              { id: "call_1", type: "custom", custom: { name: "grammar", input: "x" } },
              { id: "call_2", type: "function", function: { name: "ping", arguments: "{}" } },
            ],
          },
        },
      ],
    };
    expect(functionCalls(chat).map((c) => c.callId)).toEqual(["call_2"]);
  });

  test("only choice 0 of a Chat Completion is read: other choices are alternative replies, not calls of the turn", () => {
    const call = (id: string) => ({ id, type: "function", function: { name: "ping", arguments: "{}" } });
    const chat = {
      choices: [
        { finish_reason: "tool_calls", message: { tool_calls: [call("call_a")] } },
        { finish_reason: "length", message: { tool_calls: [call("call_b"), call("call_c")] } },
      ],
    };
    expect(functionCalls(chat).map((c) => c.callId)).toEqual(["call_a"]);
    expect(wasTruncated(chat)).toBe(false);
  });

  test("tool declarations: nested and flat functions, non-function tools skipped, junk survived", () => {
    const tools = declaredTools({
      tools: [
        { type: "function", function: { name: "nested", parameters: { type: "object" }, strict: true } },
        { type: "function", name: "flat", parameters: { type: "object" } },
        { type: "web_search" },
        { type: "custom", name: "grammar", format: { type: "grammar" } },
        null,
        "junk",
        { type: "function", function: { parameters: {} } },
      ],
    });
    expect([...tools.keys()]).toEqual(["nested", "flat"]);
    expect(tools.get("nested")?.strict).toBe(true);
    expect(tools.get("flat")?.strict).toBe(false);
  });

  test("truncation: any cut counts, whatever the reason, as the dispatcher counts it", () => {
    expect(truncation({ choices: [{ finish_reason: "length" }] })).toBe("length");
    expect(truncation({ choices: [{ finish_reason: "content_filter" }] })).toBe("content_filter");
    expect(truncation({ choices: [{ finish_reason: "stop" }] })).toBeUndefined();
    expect(truncation({ output: [], status: "incomplete", incomplete_details: { reason: "content_filter" } })).toBe(
      "content_filter",
    );
    expect(truncation({ output: [], status: "incomplete" })).toBe("incomplete");
    expect(truncation({ content: [], stop_reason: "model_context_window_exceeded" })).toBe(
      "model_context_window_exceeded",
    );
    expect(wasTruncated({ content: [], stop_reason: "end_turn" })).toBe(false);
    expect(wasTruncated("junk")).toBe(false);
  });

  test("a cut that is not the output ceiling is named by its reason in the detail", () => {
    const stored = {
      output: [{ type: "function_call", call_id: "call_1", name: "ping", arguments: '{"a":' }],
      status: "incomplete",
      incomplete_details: { reason: "content_filter" },
      tools: [{ type: "function", name: "ping", parameters: { type: "object" }, strict: true }],
    };
    const cut = classify(functionCalls(stored)[0], declaredTools(stored), truncation(stored) ?? false);
    expect(cut.state).toBe("arguments-truncated");
    expect(cut.detail).toContain("the response was cut off (content_filter)");
    const ceiling = classify(functionCalls(stored)[0], declaredTools(stored), "max_output_tokens");
    expect(ceiling.detail).toContain("the response stopped on the output ceiling");
  });

  test("calls from a non-object response, or from junk members, are none", () => {
    expect(functionCalls([1, 2])).toEqual([]);
    expect(functionCalls({ output: "x", choices: [null, { message: null }], content: {} })).toEqual([]);
  });
});
