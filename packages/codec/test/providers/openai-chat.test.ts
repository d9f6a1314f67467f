/**
 * OpenAI Chat Completions, whole responses: with n > 1 the choices are
 * alternative replies, and choice 0 (the one whose index is 0) is the one
 * read, for calls, for the answer and by the dispatcher.
 */
import { compileCodec, createDispatcher, decodeOutput } from "@strictwire/codec";
import { chatCalls, storedCalls } from "@strictwire/codec/providers";
import { describe, expect, it } from "vitest";

const compiled = compileCodec<{ city: string }>(
  {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  { name: "get_weather" },
);
if (!compiled.ok) throw new Error(compiled.error.message);
const weather = compiled.value;
const text = (value: { city: string }): string => {
  const wire = weather.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
};

const choice = (index: number | undefined, name: string) => ({
  ...(index === undefined ? {} : { index }),
  finish_reason: "tool_calls",
  message: {
    role: "assistant",
    content: null,
    tool_calls: [{ id: `${name}-id`, type: "function", function: { name, arguments: text({ city: "Oslo" }) } }],
  },
});
const names = (choices: unknown[]) => chatCalls({ choices } as never).calls.map((c) => c.name);

describe("choice 0", () => {
  it("is the choice whose index is 0, wherever the list has it", () => {
    expect(names([choice(1, "rm_rf"), choice(0, "get_weather")])).toEqual(["get_weather"]);
    expect(storedCalls({ choices: [choice(2, "a"), choice(0, "b"), choice(1, "c")] }).calls[0]?.name).toBe("b");
  });

  it("is a choice with no index only when it comes first", () => {
    expect(names([choice(undefined, "get_weather")])).toEqual(["get_weather"]);
    expect(names([choice(1, "rm_rf"), choice(undefined, "other")])).toEqual([]);
  });

  it("is none when no choice is 0, or two claim it", () => {
    expect(names([choice(1, "rm_rf")])).toEqual([]);
    expect(names([choice(0, "a"), choice(0, "b")])).toEqual([]);
  });

  it("is the choice the dispatcher answers", async () => {
    const dispatcher = createDispatcher({ get_weather: weather }, { get_weather: (args) => args.city });
    const done = await dispatcher.chat({ choices: [choice(1, "rm_rf"), choice(0, "get_weather")] } as never);
    expect(done.calls.map((c) => [c.name, c.kind])).toEqual([["get_weather", "ok"]]);
  });

  it("holds the answer of a structured output", () => {
    const answer = (index: number, city: string) => ({
      index,
      finish_reason: "stop",
      message: { role: "assistant", content: text({ city }) },
    });
    const choices = [answer(1, "Lima"), answer(0, "Oslo")];
    expect(decodeOutput(weather, "openai-chat", { choices })).toEqual({ ok: true, value: { city: "Oslo" } });
    expect(decodeOutput(weather, "openai-chat", { choices: [choices[0]] })).toMatchObject({
      ok: false,
      error: { code: "no-answer" },
    });
  });
});
