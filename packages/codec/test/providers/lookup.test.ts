/**
 * The names over the registry: one name per API, the earlier spellings still
 * accepted, and the generic routes giving what the per-API ones give.
 */
import { type Codec, compileCodec, createDispatcher, type ToolApi } from "@strictwire/codec";
import {
  PROVIDER_API_NAMES,
  type ProviderApi,
  providerApi,
  providerModule,
  storedCalls,
} from "@strictwire/codec/providers";
import { describe, expect, expectTypeOf, it } from "vitest";

describe("provider API names", () => {
  it("every module is in the table under its own name", () => {
    expect([...PROVIDER_API_NAMES].sort()).toEqual([
      "anthropic",
      "bedrock-converse",
      "gemini",
      "openai-chat",
      "openai-responses",
    ]);
    for (const api of PROVIDER_API_NAMES) expect(providerModule(api).name).toBe(api);
  });

  it("the earlier spellings name the same APIs; anything else names none", () => {
    expect(providerApi("responses")).toBe("openai-responses");
    expect(providerApi("chat-completions")).toBe("openai-chat");
    expect(providerApi("chat")).toBe("openai-chat");
    expect(providerModule("chat")).toBe(providerModule("openai-chat"));
    for (const junk of ["", "openai", "toString", "__proto__", "Chat"]) expect(providerApi(junk)).toBeUndefined();
    expect(() => providerModule("toString" as ProviderApi)).toThrow(TypeError);
    expectTypeOf<ToolApi>().toEqualTypeOf<ProviderApi>();
  });
});

describe("the generic routes", () => {
  const compiled = compileCodec(
    { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false },
    { name: "search", target: "openai" },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codecs: Record<string, Codec<unknown>> = { search: compiled.value };
  const dispatcher = createDispatcher(codecs, { search: async (args) => args });

  it("Dispatcher.answer gives what the per-API method gives", async () => {
    const chat = {
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }],
          },
        },
      ],
    };
    expect(await dispatcher.answer("openai-chat", chat)).toEqual(await dispatcher.chat(chat));
    const responses = {
      output: [{ type: "function_call", call_id: "r1", name: "search", arguments: '{"q":1}' }],
    };
    expect(await dispatcher.answer("openai-responses", responses)).toEqual(await dispatcher.responses(responses));
  });

  it("storedCalls reads each API's response with that API's reader", () => {
    const gemini = { candidates: [{ content: { parts: [{ functionCall: { name: "search", args: { q: "y" } } }] } }] };
    expect(storedCalls(gemini)).toEqual(providerModule("gemini").calls(gemini));
    expect(storedCalls({ content: [{ type: "tool_use", id: "a", name: "search", input: {} }] }).calls).toHaveLength(1);
    expect(storedCalls(null)).toEqual({ calls: [], truncation: undefined });
  });
});

describe("a stored response that is no object", () => {
  it("holds no calls for every API's reader and the dispatcher, never a throw (JSON's null, a number, an array)", async () => {
    const compiled = compileCodec({ type: "object", properties: {}, additionalProperties: false }, { name: "t" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const dispatcher = createDispatcher({ t: compiled.value }, { t: () => "ok" });
    for (const api of PROVIDER_API_NAMES) {
      for (const response of [null, undefined, 5, "text", [], true]) {
        const at = `${api} ${JSON.stringify(response)}`;
        expect(providerModule(api).calls(response as never), at).toEqual({ calls: [], truncation: undefined });
        expect(await dispatcher.answer(api, response as never), at).toEqual({
          messages: [],
          calls: [],
          truncation: undefined,
        });
      }
    }
  });
});

describe("a response whose reading throws (a getter or proxy in a crafted or wrapped object)", () => {
  const boom = (): never => {
    throw new Error("boom");
  };
  /** An object every trap of which throws. */
  const proxy = (): object =>
    new Proxy({}, { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom, getOwnPropertyDescriptor: boom });
  /** `value` with `key` a getter that throws. */
  const throwing = (value: Record<string, unknown>, key: string): Record<string, unknown> =>
    Object.defineProperty({ ...value }, key, { get: boom, enumerable: true });
  // Per API: a response with two calls, the second given (a proxy, or its name a getter that throws: read after the
  // first call was).
  const responses: Record<ProviderApi, (second: Record<string, unknown>) => unknown> = {
    "openai-chat": (second) => ({
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            tool_calls: [
              { id: "c1", type: "function", function: { name: "t", arguments: "{}" } },
              { id: "c2", type: "function", function: second },
            ],
          },
        },
      ],
    }),
    "openai-responses": (second) => ({
      status: "completed",
      output: [{ type: "function_call", call_id: "c1", name: "t", arguments: "{}" }, second],
    }),
    anthropic: (second) => ({
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "c1", name: "t", input: {} }, second],
    }),
    gemini: (second) => ({
      candidates: [
        {
          index: 0,
          content: { parts: [{ functionCall: { id: "c1", name: "t", args: {} } }, { functionCall: second }] },
        },
      ],
    }),
    "bedrock-converse": (second) => ({
      stopReason: "tool_use",
      output: {
        message: {
          content: [{ toolUse: { toolUseId: "c1", name: "t", input: {} } }, { toolUse: second }],
        },
      },
    }),
  };
  const compiled = compileCodec({ type: "object", properties: {}, additionalProperties: false }, { name: "t" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const dispatcher = createDispatcher({ t: compiled.value }, { t: () => "ok" });

  it("holds no calls for every API's reader, storedCalls and the dispatcher, never a throw", async () => {
    for (const api of PROVIDER_API_NAMES) {
      const second = {
        type: api === "anthropic" ? "tool_use" : "function_call",
        id: "c2",
        call_id: "c2",
        toolUseId: "c2",
        arguments: "{}",
        input: {},
        args: {},
      };
      const whole = responses[api]({ ...second, name: "t" });
      // The same response read whole has both calls: the throw is what takes them.
      expect(providerModule(api).calls(whole as never).calls, api).toHaveLength(2);
      const cases: [string, unknown][] = [
        ["a proxy", proxy()],
        ["a proxy call", responses[api](proxy() as Record<string, unknown>)],
        ["a getter", responses[api](throwing(second, "name"))],
      ];
      for (const [what, response] of cases) {
        const at = `${api}, ${what}`;
        // No call, and said so: "no calls" alone would read as a model that is done.
        expect(providerModule(api).calls(response as never), at).toEqual({ calls: [], truncation: "unreadable" });
        expect(storedCalls(response), at).toEqual({ calls: [], truncation: "unreadable" });
        expect(await dispatcher.answer(api, response as never), at).toEqual({
          messages: [],
          calls: [],
          truncation: "unreadable",
        });
      }
      // A proxy or getter at the top: the field that tells the API (storedCalls asks each module's `holds`).
      expect(storedCalls(throwing({}, "output")), api).toEqual({ calls: [], truncation: "unreadable" });
    }
  });
});
