/**
 * The classifier predicts what a dispatcher can use, so it must see exactly the
 * calls the codec's dispatcher answers, with the same ids and the same
 * truncation verdict. Both read through the codec's one provider reader; this
 * pins that on the responses where the two used to disagree.
 */
import { compileCodec, createDispatcher } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { functionCalls, reportCalls, truncation, wasTruncated } from "../src/index.js";

const compiled = compileCodec<{ city: string }>(
  { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  { name: "get_weather" },
);
if (!compiled.ok) throw new Error(compiled.error.message);
const dispatcher = createDispatcher({ get_weather: compiled.value }, { get_weather: (v) => v.city });

const fn = (call_id: string | undefined, args: string) => ({
  type: "function_call",
  ...(call_id === undefined ? {} : { call_id }),
  id: `fc_${call_id ?? "none"}`,
  name: "get_weather",
  arguments: args,
});
const chatCall = (id: string, args: string) => ({
  id,
  type: "function",
  function: { name: "get_weather", arguments: args },
});

const RESPONSES: Record<string, unknown> = {
  "Responses, a call without call_id": { output: [fn(undefined, "{}"), fn("call_2", "{}")] },
  "Responses, cut off by the output ceiling": {
    status: "incomplete",
    incomplete_details: { reason: "max_output_tokens" },
    output: [fn("call_1", '{"arguments":{"ci')],
  },
  "Responses, cut off by a content filter": {
    status: "incomplete",
    incomplete_details: { reason: "content_filter" },
    output: [fn("call_1", '{"arguments":{"ci')],
  },
  "Responses, incomplete with no reason": { status: "incomplete", output: [fn("call_1", "{")] },
};
const CHATS: Record<string, unknown> = {
  "Chat, two choices, only the second cut": {
    choices: [
      { finish_reason: "tool_calls", message: { tool_calls: [chatCall("call_a", "{}")] } },
      { finish_reason: "length", message: { tool_calls: [chatCall("call_b", "{"), chatCall("call_c", "{}")] } },
    ],
  },
  "Chat, content filter": {
    choices: [{ finish_reason: "content_filter", message: { tool_calls: [chatCall("call_1", '{"a')] } }],
  },
  "Chat, length": { choices: [{ finish_reason: "length", message: { tool_calls: [chatCall("call_1", '{"a')] } }] },
};
const MESSAGES: Record<string, unknown> = {
  "Anthropic, context window exceeded": {
    stop_reason: "model_context_window_exceeded",
    content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: {} }],
  },
  "Anthropic, max_tokens": {
    stop_reason: "max_tokens",
    content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: {} }],
  },
  "Anthropic, end_turn": {
    stop_reason: "end_turn",
    content: [{ type: "tool_use", id: "toolu_1", name: "x", input: {} }],
  },
};

async function dispatched(stored: unknown) {
  // biome-ignore lint/suspicious/noExplicitAny: the stored response is fed as the SDK object it was.
  const any = stored as any;
  if (Array.isArray(any.output)) return dispatcher.responses(any);
  if (Array.isArray(any.choices)) return dispatcher.chat(any);
  return dispatcher.anthropic(any);
}

describe("the classifier and the dispatcher read a stored response alike", () => {
  for (const [name, stored] of Object.entries({ ...RESPONSES, ...CHATS, ...MESSAGES })) {
    it(`${name}: the same calls, ids and truncation verdict`, async () => {
      const r = await dispatched(stored);
      expect(functionCalls(stored).map((c) => c.callId)).toEqual(r.calls.map((c) => c.id));
      expect(reportCalls("resp_1", stored).map((c) => c.callId)).toEqual(r.calls.map((c) => c.id));
      expect(truncation(stored)).toBe(r.truncation);
      expect(wasTruncated(stored)).toBe(r.truncation !== undefined);
    });
  }

  it("a cut the dispatcher answers as truncated is arguments-truncated in the classifier", async () => {
    for (const stored of [RESPONSES["Responses, cut off by a content filter"], CHATS["Chat, content filter"]]) {
      const r = await dispatched(stored);
      expect(r.calls.map((c) => c.kind)).toEqual(["truncated"]);
      expect(reportCalls("resp_1", stored).map((c) => c.state)).toEqual(["arguments-truncated"]);
    }
  });

  it("a custom tool call is answered by the dispatcher but not classified: it has no JSON arguments", async () => {
    const stored = {
      choices: [
        {
          message: {
            tool_calls: [
              { id: "call_x", type: "custom", custom: { name: "shell", input: "ls" } },
              chatCall("call_1", "{}"),
            ],
          },
        },
      ],
    };
    const r = await dispatcher.chat(stored);
    expect(r.calls.map((c) => c.id)).toEqual(["call_x", "call_1"]);
    expect(functionCalls(stored).map((c) => c.callId)).toEqual(["call_1"]);
  });
});
