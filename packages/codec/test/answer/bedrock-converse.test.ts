/**
 * Structured outputs on Amazon Bedrock Converse with the real AWS SDK
 * (`@aws-sdk/client-bedrock-runtime`, requests signed by the SDK) against a
 * server on 127.0.0.1 (HTTP/2 in clear text, as the SDK speaks it; streams in
 * AWS's binary event-stream framing, encoded with the SDK's own codec): the
 * request carries `outputConfig.textFormat` with the wire as JSON text, the
 * answer decodes exactly, a cut and a filtered answer give their typed
 * errors, and a stream gives source-form partials and a value only at
 * `messageStop`.
 */
import type { Http2ServerResponse } from "node:http2";
import { ConverseCommand, ConverseStreamCommand, type OutputConfig } from "@aws-sdk/client-bedrock-runtime";
import { type AnswerUpdate, compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BedrockLoopback, bedrockLoopback, eventFrame, json } from "../providers/bedrock-loopback.js";

const SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    team: { type: ["string", "null"] },
    due: { type: "string" },
    labels: { type: "object", additionalProperties: { type: "string" } },
    action: {
      anyOf: [
        {
          type: "object",
          properties: { type: { const: "reply" }, text: { type: "string" } },
          required: ["type", "text"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { type: { const: "escalate" }, level: { type: "integer" } },
          required: ["type", "level"],
          additionalProperties: false,
        },
      ],
    },
    sla: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 },
  },
  required: ["summary", "team", "labels", "action", "sla"],
  additionalProperties: false,
};
const VALUE = {
  summary: "printer jams",
  team: null,
  labels: { area: "hardware", floor: "2" },
  action: { type: "escalate", level: 2 },
  sla: [4, 48],
};

const compiled = compileCodec(SCHEMA, { name: "triage", target: "anthropic" });
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;
const wire = codec.encode(VALUE);
if (!wire.ok) throw new Error(wire.error.message);
const TEXT = JSON.stringify(wire.value);

let loop: BedrockLoopback;
beforeAll(async () => {
  loop = await bedrockLoopback();
});
afterAll(() => loop.close());

function format(): OutputConfig {
  const f = outputFormat(codec, "bedrock-converse");
  if (!f.ok) throw new Error(f.error.message);
  return f.value.outputConfig as OutputConfig;
}

const converse = (text: string | undefined, stopReason: string) =>
  json({
    output: { message: { role: "assistant", content: text === undefined ? [] : [{ text }] } },
    stopReason,
    usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
    metrics: { latencyMs: 3 },
  });

async function ask(): Promise<unknown> {
  return loop.client.send(
    new ConverseCommand({
      modelId: "anthropic.claude-test",
      messages: [{ role: "user", content: [{ text: "triage" }] }],
      outputConfig: format(),
    }),
  );
}

/** A ConverseStream of the text in `size`-character deltas, ended by messageStop unless `stop` is undefined. */
function streamed(text: string, size: number, stop: string | undefined) {
  const deltas: Uint8Array[] = [];
  for (let i = 0; i < text.length; i += size) {
    deltas.push(eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: text.slice(i, i + size) } }));
  }
  const all = [
    eventFrame("messageStart", { role: "assistant" }),
    ...deltas,
    ...(stop === undefined
      ? []
      : [eventFrame("contentBlockStop", { contentBlockIndex: 0 }), eventFrame("messageStop", { stopReason: stop })]),
  ];
  return (res: Http2ServerResponse) => {
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    res.end(Buffer.concat(all));
  };
}

async function askStreamed(): Promise<AnswerUpdate[]> {
  const out = await loop.client.send(
    new ConverseStreamCommand({
      modelId: "anthropic.claude-test",
      messages: [{ role: "user", content: [{ text: "triage" }] }],
      outputConfig: format(),
    }),
  );
  const answer = streamOutput(codec, "bedrock-converse");
  const updates: AnswerUpdate[] = [];
  for await (const e of out.stream ?? []) {
    for (const u of answer.event(e)) {
      updates.push(u.kind === "partial" ? { kind: "partial", value: structuredClone(u.value) } : u);
    }
  }
  updates.push(...answer.finish());
  return updates;
}

describe("structured outputs on Bedrock Converse through the AWS SDK", () => {
  it("sends outputConfig.textFormat with the wire as JSON text, and decodes the answer exactly", async () => {
    loop.answer = converse(TEXT, "end_turn");
    const decoded = decodeOutput(codec, "bedrock-converse", await ask());
    expect(decoded).toStrictEqual({ ok: true, value: VALUE });
    expect(decoded.ok && Object.hasOwn(decoded.value as object, "due")).toBe(false);
    expect(loop.seen.at(-1)?.path).toBe("/model/anthropic.claude-test/converse");
    const sent = loop.seen.at(-1)?.body.outputConfig as { textFormat: Record<string, never> };
    expect(sent.textFormat).toEqual({
      type: "json_schema",
      structure: { jsonSchema: { schema: JSON.stringify(codec.wire), name: "triage" } },
    });
  });

  it("gives a cut, a filtered and a broken answer their typed errors", async () => {
    loop.answer = converse(TEXT, "max_tokens");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "answer-cut" },
    });
    loop.answer = converse(undefined, "content_filtered");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "answer-blocked" },
    });
    loop.answer = converse(JSON.stringify({ ...wire.value, labels: { area: "hardware" } }), "end_turn");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/labels" },
    });
  });

  it("streams source-form partials and gives the value only at messageStop", async () => {
    loop.answer = streamed(TEXT, 7, "end_turn");
    const updates = await askStreamed();
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(3);
    for (const p of partials) expect(JSON.stringify(p.value)).not.toMatch(/"key":/);
    expect(updates.at(-1)).toStrictEqual({ kind: "decoded", result: { ok: true, value: VALUE } });

    // The whole text, then the stream ends with no messageStop: no value.
    loop.answer = streamed(TEXT, 7, undefined);
    const cut = await askStreamed();
    expect(cut.some((u) => u.kind === "decoded")).toBe(false);
    expect(cut.at(-1)).toMatchObject({ kind: "cut", error: { code: "answer-cut" }, unfinished: { ok: true } });
  });
});
