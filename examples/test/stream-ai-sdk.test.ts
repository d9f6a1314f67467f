/**
 * aiSdkSourceInput with the real AI SDK (ai 6, @ai-sdk/openai's Chat
 * Completions model) over 127.0.0.1: a local server streams recorded-shape
 * chunks of a strict tool call written in the wire form; the UI message
 * stream's `input-streaming` parts show the partial SOURCE value, the tool
 * still receives decode's value, and an early refusal lets the caller abort
 * the request before the server has sent the rest. ai 7 (whose providers
 * are a major apart) is run with its own mock model: the same parts, the
 * same display.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { type AiSdkRefusal, aiSdkSourceInput, aiSdkTool, compileCodec } from "@strictwire/codec";
import { readUIMessageStream, stepCountIs, streamText } from "ai";
import * as ai7 from "ai-v7";
import { MockLanguageModelV4 } from "ai-v7/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const compiled = compileCodec(
  {
    type: "object",
    properties: {
      to: { type: "string" },
      body: { type: "string" },
      cc: { type: "string" },
      headers: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["to", "body", "headers"],
    additionalProperties: false,
  },
  { name: "send_email", target: "openai" },
);
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;
const email = { to: "ada@example.com", body: "Dear Ada,\nthe engine runs.", headers: { "X-Tag": "a", Lang: "en" } };
const encoded = codec.encode(email);
if (!encoded.ok) throw new Error(encoded.error.message);
const wire = JSON.stringify(encoded.value);

/** The server's script: SSE frames, and how many to send before waiting for the client to go away. */
interface Script {
  readonly frames: readonly string[];
  readonly holdAfter?: number;
}
let script: Script = { frames: [] };
let origin = "";
/** What the last request saw: frames sent, and whether the client closed before all were. */
let sent = { frames: 0, closedEarly: false };
/** Settles when the server is done with the last request (all sent, or the client gone). */
let served: Promise<void> = Promise.resolve();

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4.1" };
  return `data: ${JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A Chat Completions stream: one call to `send_email` whose arguments come in `deltas`, then a text turn. */
function callFrames(deltas: readonly string[]): string[] {
  return [
    chunk({ role: "assistant", content: null }),
    chunk({
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "send_email", arguments: "" } }],
    }),
    ...deltas.map((d) => chunk({ tool_calls: [{ index: 0, function: { arguments: d } }] })),
    chunk({}, "tool_calls"),
    "data: [DONE]\n\n",
  ];
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on("end", () => {
    served = stream(res, script);
  });
});

async function stream(res: ServerResponse, { frames, holdAfter }: Script): Promise<void> {
  sent = { frames: 0, closedEarly: false };
  const current = sent;
  let closed = false;
  res.on("close", () => {
    closed = true;
    if (current.frames < frames.length) current.closedEarly = true;
  });
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const [i, frame] of frames.entries()) {
    if (closed) return;
    if (holdAfter !== undefined && i === holdAfter) {
      // Wait for the client to abort; a guard sends the rest after 10 s so a missing abort fails instead of hanging.
      await new Promise<void>((resolve) => {
        const guard = setTimeout(resolve, 10_000);
        res.on("close", () => {
          clearTimeout(guard);
          resolve();
        });
      });
      if (closed) return;
    }
    res.write(frame);
    current.frames++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

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

const model = () => createOpenAI({ baseURL: `${origin}/v1`, apiKey: "sk-loopback-test" }).chat("gpt-4.1");

/** Each `input-streaming` input the UI message stream shows for the call, in order, and the input it ends with. */
async function uiInputs(stream: ReadableStream<never>) {
  const shown: unknown[] = [];
  let available: unknown;
  for await (const message of readUIMessageStream({ stream })) {
    for (const part of message.parts) {
      if (part.type !== "tool-send_email" || !("state" in part)) continue;
      if (part.state === "input-streaming" && part.input !== undefined) shown.push(structuredClone(part.input));
      if (part.state === "input-available" || part.state === "output-available") available = part.input;
    }
  }
  return { shown: shown.filter((v, i) => i === 0 || JSON.stringify(v) !== JSON.stringify(shown[i - 1])), available };
}

describe("aiSdkSourceInput with streamText (ai 6, @ai-sdk/openai chat)", () => {
  it("control: without it, the UI shows the wire form while the call streams", async () => {
    script = { frames: callFrames(pieces(wire, 5)) };
    const result = streamText({
      model: model(),
      prompt: "write to Ada",
      tools: { send_email: aiSdkTool(codec, {}) },
    });
    const { shown } = await uiInputs(result.toUIMessageStream() as ReadableStream<never>);
    expect(wire).toContain('{"key":"X-Tag","value":"a"}');
    expect(JSON.stringify(shown.at(-1))).toContain('"key":"X-Tag"');
  });

  it("shows the partial source value in input-streaming parts; the tool gets decode's value", async () => {
    script = { frames: callFrames(pieces(wire, 3)) };
    const executed: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: "write to Ada",
      tools: { send_email: aiSdkTool(codec, { execute: async (input: unknown) => executed.push(input) }) },
      stopWhen: stepCountIs(1),
      experimental_transform: aiSdkSourceInput({ send_email: codec }),
    });
    const { shown, available } = await uiInputs(result.toUIMessageStream() as ReadableStream<never>);
    expect(shown.length).toBeGreaterThan(10);
    for (const value of shown) {
      const text = JSON.stringify(value);
      // No wire artefact ever shows: no entry arrays, no presence wrapper for the absent `cc`.
      expect(text).not.toContain('"key"');
      expect(text).not.toContain('"state"');
      // Consistent with the final value: members it has, strings as prefixes.
      const v = value as Record<string, unknown>;
      for (const [name, member] of Object.entries(v)) {
        expect(Object.keys(email)).toContain(name);
        if (typeof member === "string") expect(email[name as "to" | "body"].startsWith(member)).toBe(true);
      }
    }
    // The body is seen being written, in the source form.
    const bodies = shown.map((v) => (v as { body?: string }).body ?? "");
    expect(bodies.filter((b) => b.length > 0 && b.length < email.body.length).length).toBeGreaterThan(3);
    expect(shown.at(-1)).toEqual(email);
    const decoded = codec.decode(wire);
    expect(decoded).toEqual({ ok: true, value: email });
    expect(available).toEqual(email);
    expect(executed).toEqual([email]);
  });

  it("leaves the deltas of a tool it has no codec for as they are", async () => {
    script = { frames: callFrames(pieces(wire, 7)) };
    const seen: string[] = [];
    const result = streamText({
      model: model(),
      prompt: "write to Ada",
      tools: { send_email: aiSdkTool(codec, {}) },
      stopWhen: stepCountIs(1),
      experimental_transform: aiSdkSourceInput({ other_tool: codec }),
    });
    for await (const part of result.fullStream) if (part.type === "tool-input-delta") seen.push(part.delta);
    expect(seen).toEqual(pieces(wire, 7));
  });

  it("reports an early refusal, so the caller aborts the request before the server has sent the rest", async () => {
    // A comma missing after the first member: no text that begins so decodes.
    const broken = `{"to":"ada@example.com" "body":"${"x".repeat(200)}"}`;
    const frames = callFrames(pieces(broken, 4));
    // The server waits after the first 20 frames (the break is in frames 2-9).
    script = { frames, holdAfter: 20 };
    const abort = new AbortController();
    const refusals: AiSdkRefusal[] = [];
    const result = streamText({
      model: model(),
      prompt: "write to Ada",
      tools: { send_email: aiSdkTool(codec, {}) },
      abortSignal: abort.signal,
      experimental_transform: aiSdkSourceInput(
        { send_email: codec },
        {
          onRefusal: (refusal) => {
            refusals.push(refusal);
            abort.abort();
          },
        },
      ),
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    await served;
    expect(refusals).toHaveLength(1);
    const final = codec.decode(broken);
    if (final.ok) throw new Error("the broken call decodes");
    expect(refusals[0]).toMatchObject({ toolCallId: "call_1", toolName: "send_email" });
    expect(refusals[0]?.error.code).toBe(final.error.code);
    expect(parts).toContain("abort");
    expect(parts).not.toContain("tool-call");
    expect(sent.closedEarly).toBe(true);
    expect(sent.frames).toBeLessThanOrEqual(20);
  });
});

describe("aiSdkSourceInput with ai 7 (the SDK's mock model)", () => {
  it("shows the partial source value in input-streaming parts", async () => {
    const deltas = pieces(wire, 6);
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: ai7.simulateReadableStream({
          chunks: [
            { type: "tool-input-start", id: "call_1", toolName: "send_email" },
            ...deltas.map((delta) => ({ type: "tool-input-delta", id: "call_1", delta }) as const),
            { type: "tool-input-end", id: "call_1" },
            { type: "tool-call", toolCallId: "call_1", toolName: "send_email", input: wire },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
          ],
        }),
      }),
    });
    const executed: unknown[] = [];
    const result = ai7.streamText({
      model,
      prompt: "write to Ada",
      tools: { send_email: aiSdkTool(codec, { execute: async (input: unknown) => executed.push(input) }) },
      stopWhen: ai7.isStepCount(1),
      experimental_transform: aiSdkSourceInput({ send_email: codec }),
    });
    const shown: string[] = [];
    for await (const message of ai7.readUIMessageStream({ stream: result.toUIMessageStream() })) {
      for (const part of message.parts) {
        if (part.type === "tool-send_email" && "state" in part && part.state === "input-streaming") {
          if (part.input !== undefined) shown.push(JSON.stringify(part.input));
        }
      }
    }
    expect(shown.length).toBeGreaterThan(5);
    for (const text of shown) expect(text).not.toMatch(/"key"|"state"/);
    expect(JSON.parse(shown.at(-1) ?? "null")).toEqual(email);
    expect(executed).toEqual([email]);
  });
});
