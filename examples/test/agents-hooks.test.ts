/**
 * strictTool's hooks with the real OpenAI Agents SDK: the SDK's Runner against a local Responses server
 * (the recorded agents turn: a valid call, one repeating "id", one a Zod refinement refuses). Every hook
 * that receives a call's arguments receives the DECODED value, never the wire form ({"state":"absent"}
 * members); a call that does not decode always asks for approval and never reaches a hook of the caller's;
 * the timeout passes to the SDK's own invokeFunctionTool; options strictTool cannot honour are refused.
 */
import { Agent, invokeFunctionTool, OpenAIProvider, RunContext, Runner, setTracingDisabled } from "@openai/agents";
import { type AgentInputGuardrail, strictTool } from "@strictwire/codec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ReplayServer, readRecording, startReplay } from "../src/replay-server.js";

setTracingDisabled(true);

const UpdateContact = z.object({
  id: z
    .string()
    .min(1)
    .refine((id) => id === id.toLowerCase(), "contact ids are lower case"),
  email: z.email().optional(),
  phone: z.string().nullable().optional(),
});
type Contact = z.output<typeof UpdateContact>;

const ADA = "call_Ag1ZtK7mQ2wE9rT4yU6iO8pL";
const REPEATED = "call_Ag2XcV5bN7mQ1wE3rT9yU4iO";
const GRACE = "call_Ag3PlK8jH6gF4dS2aZ0xC7vB";

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplay(readRecording("agents"));
});
afterEach(async () => {
  await server.close();
});

function runner(): Runner {
  const modelProvider = new OpenAIProvider({
    apiKey: "sk-loopback-test",
    baseURL: `${server.origin}/v1`,
    useResponses: true,
  });
  return new Runner({ modelProvider });
}

function made(options: Partial<Parameters<typeof strictTool<typeof UpdateContact>>[0]>, executed: Contact[]) {
  const tool = strictTool({
    name: "update_contact",
    description: "Update a contact.",
    parameters: UpdateContact,
    execute: (args) => {
      executed.push(args);
      return "updated";
    },
    ...options,
  });
  if (!tool.ok) throw new Error(tool.error.message);
  return tool.value;
}

function outputs(items: readonly { type: string; rawItem: unknown; output?: unknown }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    if (item.type !== "tool_call_output_item") continue;
    out[(item.rawItem as { callId: string }).callId] = String(item.output);
  }
  return out;
}

describe("strictTool's needsApproval through the SDK's Runner", () => {
  it("asks with the decoded value, always asks for a call that does not decode, and runs only approved decoded calls", async () => {
    const asked: { input: Contact; callId: string | undefined }[] = [];
    const executed: Contact[] = [];
    const tool = made(
      {
        // Wants approval to clear a phone: true only on the decoded value (the wire says {"state":"present","value":null}).
        needsApproval: async (_ctx, input, callId) => {
          asked.push({ input, callId });
          return input.phone === null;
        },
      },
      executed,
    );
    const agent = new Agent({ name: "contacts", model: "gpt-5", tools: [tool] });
    const first = await runner().run(agent, "Clear Ada's phone number.");
    // The policy saw decoded values only: Ada's call, and the repeated-id call as the SDK's JSON.parse
    // leaves it (last "id" wins; decode of the text refuses it at invoke). Grace's does not decode: never asked.
    expect(asked.sort((a, b) => String(a.callId).localeCompare(String(b.callId)))).toStrictEqual([
      { input: { id: "ada", phone: null }, callId: ADA },
      { input: { id: "bob" }, callId: REPEATED },
    ]);
    const waiting = first.interruptions.map((i) => (i.rawItem as { callId: string }).callId).sort();
    expect(waiting).toEqual([ADA, GRACE]);
    expect(executed).toEqual([]);

    for (const item of first.interruptions) first.state.approve(item);
    const second = await runner().run(agent, first.state);
    expect(executed).toStrictEqual([{ id: "ada", phone: null }]);
    const results = outputs(second.newItems as never);
    expect(results[ADA]).toBe("updated");
    expect(results[REPEATED]).toMatch(/duplicate-key at \/id\)/);
    expect(results[GRACE]).toMatch(/contact ids are lower case/);
    expect(second.finalOutput).toMatch(/I cleared Ada's phone number/);
  });

  it("needsApproval: true asks for every call, the one that does not decode included", async () => {
    const executed: Contact[] = [];
    const agent = new Agent({ name: "contacts", model: "gpt-5", tools: [made({ needsApproval: true }, executed)] });
    const first = await runner().run(agent, "Clear Ada's phone number.");
    expect(first.interruptions.map((i) => (i.rawItem as { callId: string }).callId).sort()).toEqual([
      ADA,
      REPEATED,
      GRACE,
    ]);
    expect(executed).toEqual([]);
  });
});

describe("strictTool's guardrails and errorFunction through the SDK's Runner", () => {
  it("give the guardrails and errorFunction the decoded value; a call that does not decode is rejected with its feedback", async () => {
    const guarded: Contact[] = [];
    const outputGuarded: { input: Contact; output: unknown }[] = [];
    const failed: unknown[] = [];
    const inputGuardrail: AgentInputGuardrail<Contact> = {
      name: "no-bob",
      run: async ({ input, toolCall }) => {
        guarded.push(input);
        expect(typeof toolCall.arguments).toBe("string");
        return { behavior: { type: "allow" } };
      },
    };
    const executed: Contact[] = [];
    const tool = made(
      {
        inputGuardrails: [inputGuardrail],
        outputGuardrails: [
          {
            name: "log",
            run: async ({ input, output }) => {
              outputGuarded.push({ input, output });
              return { behavior: { type: "allow" } };
            },
          },
        ],
        execute: (args) => {
          executed.push(args);
          throw new Error("address book offline");
        },
        errorFunction: (_ctx, error, details) => {
          failed.push(details.input);
          return `could not update: ${(error as Error).message}`;
        },
      },
      executed,
    );
    const agent = new Agent({ name: "contacts", model: "gpt-5", tools: [tool] });
    const result = await runner().run(agent, "Clear Ada's phone number.");
    expect(guarded).toStrictEqual([{ id: "ada", phone: null }]);
    expect(executed).toStrictEqual([{ id: "ada", phone: null }]);
    expect(failed).toStrictEqual([{ id: "ada", phone: null }]);
    expect(outputGuarded).toStrictEqual([
      { input: { id: "ada", phone: null }, output: "could not update: address book offline" },
    ]);
    const results = outputs(result.newItems as never);
    expect(results[ADA]).toBe("could not update: address book offline");
    // Refused by the guardrail wrapper with decode's feedback, before any guardrail of the caller's.
    expect(results[REPEATED]).toMatch(/duplicate-key at \/id\)/);
    expect(results[GRACE]).toMatch(/contact ids are lower case/);
  });
});

describe("strictTool's timeout through the SDK's invokeFunctionTool", () => {
  it("is enforced by the SDK, and timeoutErrorFunction gets the decoded value", async () => {
    const seen: unknown[] = [];
    const tool = made(
      {
        timeoutMs: 20,
        timeoutErrorFunction: (_ctx, _error, details) => {
          seen.push(details.input);
          return "timed out";
        },
        // Never settles until the SDK aborts it.
        execute: (_args, _ctx, details) =>
          new Promise((resolve) =>
            (details as { signal?: AbortSignal }).signal?.addEventListener("abort", () => resolve("late")),
          ),
      },
      [],
    );
    const text = '{"id":"ada","email":{"state":"absent"},"phone":{"state":"present","value":null}}';
    const toolCall = { type: "function_call", callId: "c1", name: "update_contact", arguments: text } as const;
    const out = await invokeFunctionTool({
      tool: tool as never,
      runContext: new RunContext(),
      input: text,
      details: { toolCall },
    });
    expect(out).toBe("timed out");
    expect(seen).toStrictEqual([{ id: "ada", phone: null }]);
  });
});

describe("strictTool keeps decode's promises on the text the SDK hands invoke", () => {
  it.each([
    [
      "a repeated member name",
      '{"id":"ada","id":"bob","email":{"state":"absent"},"phone":{"state":"absent"}}',
      "duplicate-key",
    ],
    ["a lone surrogate", '{"id":"\\ud800","email":{"state":"absent"},"phone":{"state":"absent"}}', "invalid-utf8"],
    ["the depth limit", `{"id":${"[".repeat(70)}${"]".repeat(70)}}`, "too-deep"],
    ["the node limit", `{"id":[${Array(25_000).fill(1).join(",")}]}`, "too-many-nodes"],
    ["the byte limit", `{"id":"${"x".repeat(1_100_000)}"}`, "input-too-large"],
  ])("%s: refused with decode's feedback through the SDK's invokeFunctionTool", async (_, text, code) => {
    const executed: Contact[] = [];
    const tool = made({}, executed);
    const toolCall = { type: "function_call", callId: "c1", name: "update_contact", arguments: text } as const;
    const out = await invokeFunctionTool({
      tool: tool as never,
      runContext: new RunContext(),
      input: text,
      details: { toolCall },
    });
    expect(String(out)).toContain(`(${code}`);
    expect(executed).toEqual([]);
  });
});

describe("strictTool refuses what it cannot pass on", () => {
  it.each([
    ["outputSchema", { outputSchema: { type: "object", properties: {} } }],
    ["customDataExtractor", { customDataExtractor: () => ({}) }],
    ["an option it does not know", { needsAproval: true }],
    ["a timeout out of range", { timeoutMs: 0 }],
  ])("%s, with a typed error", (_, extra) => {
    const tool = strictTool({
      name: "update_contact",
      description: "Update a contact.",
      parameters: UpdateContact,
      execute: () => "x",
      ...(extra as object),
    });
    expect(tool.ok).toBe(false);
    expect(tool.ok === false && tool.error.code).toBe("invalid-options");
  });
});
