/**
 * Gemini: the declarations never travel without the toolConfig that makes
 * them strict (VALIDATED), and a generateContent response's functionCall
 * parts are answered with functionResponse parts.
 */
import { type Codec, compileCodec, createDispatcher, geminiToolConfig, geminiTools } from "@strictwire/codec";
import { geminiCalls, storedCalls } from "@strictwire/codec/providers";
import { describe, expect, it } from "vitest";

interface Weather {
  city: string;
  unit?: "celsius" | "fahrenheit";
}

function codec<T>(name: string, target: "gemini" | "openai" = "gemini"): Codec<T> {
  const schema = {
    type: "object",
    description: `The ${name} tool.`,
    properties: { city: { type: "string", minLength: 2 }, unit: { enum: ["celsius", "fahrenheit"] } },
    required: ["city"],
    additionalProperties: false,
  };
  const r = compileCodec<T>(schema, { name, target });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const weather = codec<Weather>("get_weather");
const forecast = codec<Weather>("get_forecast");

describe("geminiTools", () => {
  it("gives the declarations under parametersJsonSchema and the VALIDATED toolConfig", () => {
    const r = geminiTools([weather.bundle, forecast.bundle]);
    expect(r.ok && r.value).toEqual({
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", description: "The get_weather tool.", parametersJsonSchema: weather.wire },
            { name: "get_forecast", description: "The get_forecast tool.", parametersJsonSchema: forecast.wire },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "VALIDATED" } },
      nonStrict: [],
    });
    // Never both: Gemini refuses a declaration with parameters and parametersJsonSchema.
    const declaration = r.ok ? r.value.tools[0].functionDeclarations[0] : undefined;
    expect(declaration !== undefined && "parameters" in declaration).toBe(false);
  });

  it('a tool compiled with strict "auto" over a limit turns the request\'s mode to AUTO, and says which', () => {
    // Past Gemini's schema-size guard: 50,000 characters of enum values.
    const big = {
      type: "object",
      properties: { pick: { enum: Array.from({ length: 6000 }, (_, i) => `v${i}-xxxx`) } },
    };
    const wide = compileCodec(big, { name: "wide", target: "gemini", strict: "auto" });
    if (!wide.ok) throw new Error(JSON.stringify(wide.error));
    expect(wide.value.bundle.nonStrict).toBeDefined();
    const r = geminiTools([weather.bundle, wide.value.bundle]);
    expect(r.ok && r.value.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expect(r.ok && r.value.nonStrict).toEqual(["wide"]);
  });

  it("limits the calls to allowed names, and refuses a name the set lacks", () => {
    const r = geminiTools([weather.bundle], { allowedFunctionNames: ["get_weather"] });
    expect(r.ok && r.value.toolConfig).toEqual(geminiToolConfig(["get_weather"]));
    expect(r.ok && r.value.toolConfig.functionCallingConfig.allowedFunctionNames).toEqual(["get_weather"]);
    const missing = geminiTools([weather.bundle], { allowedFunctionNames: ["send_sms"] });
    expect(!missing.ok && missing.error.code).toBe("invalid-options");
    expect(!missing.ok && missing.error.message).toContain("send_sms");
  });

  it("refuses a bundle compiled for another target, and two tools of one name", () => {
    const other = geminiTools([codec("get_weather", "openai").bundle]);
    expect(!other.ok && other.error.message).toContain("compiled for the openai target");
    const twice = geminiTools([weather.bundle, weather.bundle]);
    expect(!twice.ok && twice.error.message).toBe("two tools are named get_weather");
  });

  it("is the dispatcher's geminiTools()", () => {
    const dispatcher = createDispatcher({ get_weather: weather }, { get_weather: () => "ok" });
    expect(dispatcher.geminiTools()).toEqual(geminiTools([weather.bundle]));
  });
});

const response = (parts: unknown[], finishReason = "STOP") => ({
  candidates: [{ content: { role: "model", parts }, finishReason }],
});

describe("dispatcher.gemini", () => {
  const seen: unknown[] = [];
  const dispatcher = createDispatcher(
    { get_weather: weather },
    {
      get_weather: (args) => {
        seen.push(args);
        return { city: args.city, c: 4 };
      },
    },
  );

  it("answers each functionCall with a functionResponse, ids kept, failures under error", async () => {
    const wire = weather.encode({ city: "Oslo" });
    const out = await dispatcher.gemini(
      response([
        { text: "Checking." },
        { functionCall: { id: "c1", name: "get_weather", args: wire.ok ? wire.value : null } },
        { functionCall: { id: "c2", name: "get_weather", args: { city: "O" } } },
        { functionCall: { name: "send_sms", args: {} } },
      ]),
    );
    expect(out.calls.map((c) => c.kind)).toEqual(["ok", "rejected", "unknown-tool"]);
    expect(seen).toEqual([{ city: "Oslo" }]);
    const [message] = out.messages;
    expect(message?.role).toBe("user");
    expect(message?.parts[0]).toEqual({
      functionResponse: { id: "c1", name: "get_weather", response: { output: '{"city":"Oslo","c":4}' } },
    });
    expect(message?.parts[1]?.functionResponse.response).toEqual({ error: out.calls[1]?.output });
    // A call Gemini gave no id is answered by name, with no invented id.
    expect(message?.parts[2]?.functionResponse).toEqual({
      name: "send_sms",
      response: { error: out.calls[2]?.output },
    });
  });

  it("marks the last call of a MAX_TOKENS response as cut off", async () => {
    const out = await dispatcher.gemini(
      response([{ functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } } }], "MAX_TOKENS"),
    );
    expect(out.truncation).toBe("MAX_TOKENS");
    expect(out.calls.map((c) => c.kind)).toEqual(["truncated"]);
  });

  it("sends nothing back for a response without calls, and never throws on junk", async () => {
    expect((await dispatcher.gemini(response([{ text: "Hi." }]))).messages).toEqual([]);
    for (const junk of [{}, { candidates: null }, { candidates: [null] }, { candidates: [{ content: 7 }] }]) {
      expect(geminiCalls(junk as never)).toEqual({ calls: [], truncation: undefined });
    }
    const odd = geminiCalls(response([{ functionCall: { id: 7, name: "get_weather" } }]));
    expect(odd.calls).toEqual([{ id: undefined, name: "get_weather", kind: "function", arguments: {}, cutOff: false }]);
  });

  it("never runs a piece of Vertex AI's streamed arguments read as a whole response", async () => {
    const piece = response([
      {
        functionCall: {
          id: "c1",
          name: "get_weather",
          partialArgs: [{ jsonPath: "$.city", stringValue: "Os" }],
          willContinue: true,
        },
      },
      { functionCall: { id: "c2", name: "get_weather", args: { city: "Bergen" } } },
    ]);
    expect(geminiCalls(piece).calls.map((c) => c.cutOff)).toEqual([true, false]);
    const out = await dispatcher.gemini(piece);
    expect(out.calls.map((c) => c.kind)).toEqual(["truncated", "ok"]);
  });

  it("is read by storedCalls too (the classifier's reader)", () => {
    const stored = storedCalls(response([{ functionCall: { id: "c1", name: "get_weather", args: { city: "Oslo" } } }]));
    expect(stored.calls.map((c) => c.id)).toEqual(["c1"]);
  });
});

describe("candidate 0", () => {
  const wire = weather.encode({ city: "Oslo" });
  const candidate = (index: number | undefined, name: string) => ({
    ...(index === undefined ? {} : { index }),
    finishReason: "STOP",
    content: { role: "model", parts: [{ functionCall: { id: `${name}-id`, name, args: wire.ok && wire.value } }] },
  });
  const names = (candidates: unknown[]) => geminiCalls({ candidates } as never).calls.map((c) => c.name);

  it("is the candidate whose index is 0, wherever the list has it", () => {
    expect(names([candidate(1, "rm_rf"), candidate(0, "get_weather")])).toEqual(["get_weather"]);
    expect(storedCalls({ candidates: [candidate(2, "a"), candidate(0, "b"), candidate(1, "c")] }).calls[0]?.name).toBe(
      "b",
    );
  });

  it("is a candidate with no index only when it comes first (proto3 JSON leaves the 0 out; the SDK reads [0])", () => {
    expect(names([candidate(undefined, "get_weather")])).toEqual(["get_weather"]);
    expect(names([candidate(undefined, "get_weather"), candidate(1, "rm_rf")])).toEqual(["get_weather"]);
    expect(names([candidate(1, "rm_rf"), candidate(undefined, "other")])).toEqual([]);
  });

  it("is none when no candidate is 0, or two claim it", () => {
    expect(names([candidate(1, "rm_rf")])).toEqual([]);
    expect(names([candidate(undefined, "a"), candidate(0, "b")])).toEqual([]);
    expect(names([candidate(0, "a"), candidate(0, "b")])).toEqual([]);
  });

  it("is the candidate the dispatcher answers", async () => {
    const dispatcher = createDispatcher({ get_weather: weather }, { get_weather: (args) => args.city });
    const done = await dispatcher.gemini({ candidates: [candidate(1, "rm_rf"), candidate(0, "get_weather")] } as never);
    expect(done.calls.map((c) => [c.name, c.kind])).toEqual([["get_weather", "ok"]]);
  });
});
