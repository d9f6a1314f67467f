/**
 * The AI SDK adapter against both supported majors (ai 6 and ai 7), with a Zod
 * tool: the SDK sends the wire schema, `execute` receives the decoded value
 * with absent members absent, and a call the Zod refinement refuses reaches
 * the model as a tool error carrying strictwire's feedback. The model is the
 * SDK's own mock (no network): what is under test is the SDK's handling of
 * the schema, not a provider.
 */
import { aiSdkInputSchema, compileCodec } from "@strictwire/codec";
import * as ai6 from "ai";
import { MockLanguageModelV3 } from "ai/test";
import * as ai7 from "ai-v7";
import { MockLanguageModelV4 } from "ai-v7/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Weather = z.object({
  city: z.string().refine((c) => c.trim() !== "", "city must not be blank"),
  unit: z.enum(["C", "F"]).optional(),
});

const CALLS = [
  {
    type: "tool-call",
    toolCallId: "c1",
    toolName: "get_weather",
    input: '{"city":"Oslo","unit":{"state":"absent"}}',
  },
  {
    type: "tool-call",
    toolCallId: "c2",
    toolName: "get_weather",
    input: '{"city":" ","unit":{"state":"absent"}}',
  },
] as const;

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

/** A model that calls the tool twice, then answers; it keeps the tool schema it was given. */
function scripted() {
  let step = 0;
  const sent: unknown[] = [];
  const doGenerate = async (options: { tools?: readonly { inputSchema?: unknown }[] }) => {
    sent.push(options.tools?.[0]?.inputSchema);
    step++;
    const content = step === 1 ? [...CALLS] : [{ type: "text", text: "done" }];
    const finish = step === 1 ? "tool-calls" : "stop";
    return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] };
  };
  return { doGenerate, sent };
}

function outcomes(content: readonly { type: string; output?: unknown; error?: unknown }[]) {
  return content
    .filter((p) => p.type === "tool-result" || p.type === "tool-error")
    .map((p) => (p.type === "tool-error" ? `error: ${String((p.error as Error)?.message ?? p.error)}` : p.output));
}

const codec = compileCodec(Weather, { name: "get_weather" });
if (!codec.ok) throw new Error(codec.error.message);

describe("AI SDK adapter with a Zod tool", () => {
  it.each([
    ["ai 6", ai6, () => MockLanguageModelV3],
    ["ai 7", ai7, () => MockLanguageModelV4],
  ] as const)("%s: wire schema sent, absent kept, refinement feedback returned", async (_name, anySdk, mock) => {
    // One body for both majors: typed as ai 7, run against each.
    const sdk = anySdk as unknown as typeof ai7;
    const seen: unknown[] = [];
    const model = scripted();
    const Mock = mock() as unknown as new (o: unknown) => Parameters<typeof sdk.generateText>[0]["model"];
    const result = await sdk.generateText({
      model: new Mock({ doGenerate: model.doGenerate }),
      prompt: "weather in Oslo",
      stopWhen: sdk.stepCountIs(3),
      tools: {
        get_weather: sdk.tool({
          description: "Get the weather",
          inputSchema: aiSdkInputSchema(codec.value),
          execute: async (args: unknown) => {
            seen.push(args);
            return "ok";
          },
        }),
      },
    });
    expect(model.sent[0]).toEqual(codec.value.wire);
    expect(seen).toStrictEqual([{ city: "Oslo" }]);
    const out = outcomes(result.steps[0]!.content as never);
    expect(out).toHaveLength(2);
    expect(out).toContain("ok");
    expect(out.find((o) => typeof o === "string" && o.startsWith("error:"))).toMatch(
      /well-formed but not acceptable: \/city: city must not be blank/,
    );
    expect(result.text).toBe("done");
  });
});
