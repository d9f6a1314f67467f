/**
 * aiSdkMiddleware with the real AI SDK (ai 6, @ai-sdk/openai's Chat Completions model) over 127.0.0.1:
 * the SDK parses a call's text with JSON.parse before any schema sees it, so without the middleware a
 * repeated member name runs with the last value; with it, every call decode refuses (a repeated name, a
 * lone surrogate, the byte, depth and node limits) is the SDK's tool error carrying decode's own feedback,
 * which goes back to the model as the call's result, and `execute` never runs. generateText (wrapGenerate)
 * and streamText (wrapStream) alike; ai 7 (specification v4) through its own mock model.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { type AiSdkRefusal, aiSdkMiddleware, aiSdkSourceInput, aiSdkTool, compileCodec } from "@strictwire/codec";
import { generateText, type LanguageModelMiddleware, stepCountIs, streamText, wrapLanguageModel } from "ai";
import * as ai7 from "ai-v7";
import { MockLanguageModelV4 } from "ai-v7/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const compiled = compileCodec(
  {
    type: "object",
    properties: {
      id: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
      note: { type: "string" },
    },
    required: ["id", "tags", "note"],
    additionalProperties: false,
  },
  { name: "update_contact", target: "openai", limits: { maxBytes: 300, maxNodes: 12, maxDepth: 3 } },
);
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;
const codecs = { update_contact: codec };

/** Texts decode refuses, each for one of its promises, with the code it refuses them with. */
const REFUSED = {
  "a repeated member name": ['{"id":"attacker","id":"c-1","tags":[],"note":"x"}', "duplicate-key"],
  "a lone surrogate": ['{"id":"\\ud800","tags":[],"note":"x"}', "invalid-utf8"],
  "the byte limit": [`{"id":"c-1","tags":[],"note":"${"x".repeat(400)}"}`, "input-too-large"],
  "the depth limit": ['{"id":"c-1","tags":[[["x"]]],"note":"x"}', "too-deep"],
  "the node limit": [`{"id":"c-1","tags":[${Array(20).fill('"t"').join(",")}],"note":"x"}`, "too-many-nodes"],
} as const;
const VALID = '{"id":"c-1","tags":["a"],"note":"hi"}';

/** What the server answers the first request of a turn with: one call of `toolName` whose arguments are `args`. */
let args = VALID;
let toolName = "update_contact";
/** The tool messages the model was sent back, in order. */
let toolMessages: string[] = [];
let origin = "";

function completion(message: Record<string, unknown>, finish: string): Record<string, unknown> {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4.1",
    choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function frame(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4.1" };
  return `data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function answer(res: ServerResponse, body: { stream?: boolean; messages: { role: string; content: unknown }[] }) {
  const tool = body.messages.filter((m) => m.role === "tool");
  const call = { id: "call_1", type: "function", function: { name: toolName, arguments: args } };
  if (tool.length > 0) toolMessages.push(...tool.map((m) => String(m.content)));
  if (body.stream === true) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (tool.length > 0) res.write(frame({ role: "assistant", content: "done" }) + frame({}, "stop"));
    else {
      res.write(frame({ role: "assistant", content: null }));
      res.write(frame({ tool_calls: [{ index: 0, ...call, function: { name: toolName, arguments: "" } }] }));
      // The arguments in three deltas, as a provider streams them.
      const third = Math.ceil(args.length / 3);
      for (let i = 0; i < args.length; i += third) {
        res.write(frame({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + third) } }] }));
      }
      res.write(frame({}, "tool_calls"));
    }
    res.end("data: [DONE]\n\n");
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify(
      tool.length > 0 ? completion({ content: "done" }, "stop") : completion({ tool_calls: [call] }, "tool_calls"),
    ),
  );
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => answer(res, JSON.parse(Buffer.concat(chunks).toString("utf8"))));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

let executed: unknown[] = [];
beforeEach(() => {
  executed = [];
  toolMessages = [];
  args = VALID;
  toolName = "update_contact";
});

const tools = {
  update_contact: aiSdkTool(codec, {
    execute: async (input: unknown) => {
      executed.push(input);
      return "updated";
    },
  }),
};
const base = () => createOpenAI({ baseURL: `${origin}/v1`, apiKey: "sk-loopback-test" }).chat("gpt-4.1");
const guarded = () => wrapLanguageModel({ model: base(), middleware: aiSdkMiddleware(codecs) });

/**
 * The feedback decode gives the text, as the SDK words it in its tool error and sends it to the model:
 * inside the list of issues it writes as JSON (so JSON-escaped), as for every refusal through aiSdkTool.
 */
function feedbackOf(text: string): string {
  const decoded = codec.decode(text);
  if (decoded.ok) throw new Error(`${text} decodes`);
  return JSON.stringify(decoded.error.feedback).slice(1, -1);
}

describe("the AI SDK without aiSdkMiddleware", () => {
  it("runs a call that repeats a member name with the last value (the SDK's JSON.parse): the gap the middleware closes", async () => {
    args = REFUSED["a repeated member name"][0];
    await generateText({ model: base(), tools, prompt: "update", stopWhen: stepCountIs(2), maxRetries: 0 });
    expect(executed).toEqual([{ id: "c-1", tags: [], note: "x" }]);
  });

  // What the codec can still check on the value the SDK parsed: its depth and node count, not what only the text shows.
  it.each([
    ["a lone surrogate", true],
    ["the byte limit", true],
    ["the depth limit", false],
    ["the node limit", false],
  ] as const)("%s: runs %s", async (promise, runs) => {
    args = REFUSED[promise][0];
    await generateText({ model: base(), tools, prompt: "update", stopWhen: stepCountIs(2), maxRetries: 0 });
    expect(executed.length).toBe(runs ? 1 : 0);
  });
});

describe.each([
  ["generateText (wrapGenerate)", false],
  ["streamText (wrapStream)", true],
] as const)("aiSdkMiddleware through %s", (_, streaming) => {
  async function run(): Promise<{ errors: string[] }> {
    const options = { model: guarded(), tools, prompt: "update", stopWhen: stepCountIs(2), maxRetries: 0 };
    const steps = streaming
      ? await (async () => {
          const result = streamText(options);
          await result.consumeStream();
          return result.steps;
        })()
      : (await generateText(options)).steps;
    const errors = steps[0]!.content.flatMap((p) => (p.type === "tool-error" ? [String(p.error)] : []));
    return { errors };
  }

  it("runs a valid call with the decoded value", async () => {
    const { errors } = await run();
    expect(errors).toEqual([]);
    expect(executed).toEqual([{ id: "c-1", tags: ["a"], note: "hi" }]);
    expect(toolMessages).toEqual(["updated"]);
  });

  it.each(Object.entries(REFUSED))("refuses %s as decode does, execute never reached", async (_, [text, code]) => {
    args = text;
    const decoded = codec.decode(text);
    expect(decoded.ok === false && decoded.error.code).toBe(code);
    const { errors } = await run();
    expect(executed).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(feedbackOf(text));
    // The model is sent decode's feedback as the call's result.
    expect(toolMessages).toHaveLength(1);
    expect(toolMessages[0]).toContain(feedbackOf(text));
  });
});

describe("aiSdkMiddleware types and ai 7", () => {
  it("is the ai package's LanguageModelMiddleware (v3), and ai 7's (v4) with specificationVersion", () => {
    const v3: LanguageModelMiddleware = aiSdkMiddleware(codecs);
    const v4: ai7.LanguageModelMiddleware = aiSdkMiddleware(codecs, { specificationVersion: "v4" });
    expect([v3.specificationVersion, v4.specificationVersion]).toEqual(["v3", "v4"]);
  });

  it("refuses a repeated member name under ai 7's generateText", async () => {
    const text = REFUSED["a repeated member name"][0];
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        return {
          content:
            calls === 1
              ? [{ type: "tool-call", toolCallId: "call_1", toolName: "update_contact", input: text }]
              : [{ type: "text", text: "done" }],
          finishReason: { unified: calls === 1 ? "tool-calls" : "stop", raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const result = await ai7.generateText({
      model: ai7.wrapLanguageModel({ model, middleware: aiSdkMiddleware(codecs, { specificationVersion: "v4" }) }),
      tools,
      prompt: "update",
      stopWhen: ai7.isStepCount(2),
    });
    expect(executed).toEqual([]);
    const error = result.steps[0]!.content.find((p) => p.type === "tool-error");
    expect(error !== undefined && String(error.error)).toContain(feedbackOf(text));
  });
});

describe("aiSdkSourceInput (the streamText transform) refuses what decode refuses", () => {
  it.each(Object.entries(REFUSED))(
    "%s: onRefusal with decode's code, no more deltas shown",
    async (_, [text, code]) => {
      args = text;
      const refusals: AiSdkRefusal[] = [];
      const result = streamText({
        model: base(),
        tools,
        prompt: "update",
        stopWhen: stepCountIs(1),
        maxRetries: 0,
        experimental_transform: aiSdkSourceInput(codecs, { onRefusal: (r) => refusals.push(r) }),
      });
      await result.consumeStream();
      expect(refusals.map((r) => [r.toolCallId, r.toolName, r.error.code])).toEqual([
        ["call_1", "update_contact", code],
      ]);
    },
  );
});

describe("aiSdkTool's onInputDelta", () => {
  const optional = compileCodec(
    {
      type: "object",
      properties: { id: { type: "string" }, email: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    { name: "set_email", target: "openai" },
  );
  if (!optional.ok) throw new Error(optional.error.message);
  const wire = '{"id":"ada","email":{"state":"present","value":"ada@example.com"}}';

  it("receives the partial SOURCE value, never the wire text", async () => {
    toolName = "set_email";
    args = wire;
    const partials: unknown[] = [];
    const ids: string[] = [];
    const available: unknown[] = [];
    const approvals: unknown[] = [];
    const set_email = aiSdkTool(optional.value, {
      execute: async () => "ok",
      onInputDelta: ({ partial, toolCallId }) => {
        ids.push(toolCallId);
        partials.push(structuredClone(partial));
      },
      onInputAvailable: ({ input }: { input: unknown }) => {
        available.push(input);
      },
      needsApproval: (input: unknown) => {
        approvals.push(input);
        return false;
      },
    });
    const result = streamText({
      model: base(),
      tools: { set_email },
      prompt: "set",
      stopWhen: stepCountIs(1),
      maxRetries: 0,
    });
    await result.consumeStream();
    expect(partials.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set(["call_1"]));
    // The last partial is the decoded value; none shows the wire's {"state": ...} wrapper.
    expect(partials.at(-1)).toStrictEqual({ id: "ada", email: "ada@example.com" });
    expect(JSON.stringify(partials)).not.toContain("state");
    // The SDK's own hooks after validation receive the decoded value (the caller's onInputAvailable still called).
    expect(available).toStrictEqual([{ id: "ada", email: "ada@example.com" }]);
    expect(approvals).toStrictEqual([{ id: "ada", email: "ada@example.com" }]);
  });
});
