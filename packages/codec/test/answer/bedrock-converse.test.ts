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
import { createServer, type Http2Server, type Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type OutputConfig,
} from "@aws-sdk/client-bedrock-runtime";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { type AnswerUpdate, compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

const seen: { path: string | undefined; body: Record<string, unknown> }[] = [];
let answer: (res: Http2ServerResponse) => void = (res) => res.writeHead(500).end();
let server: Http2Server;
let client: BedrockRuntimeClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      seen.push({ path: req.url, body: text ? JSON.parse(text) : {} });
      answer(res);
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  client = new BedrockRuntimeClient({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: "AKIDSTRICTWIRETEST", secretAccessKey: "strictwire-test-secret" },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client.destroy();
  await new Promise((done) => server.close(done));
});

function format(): OutputConfig {
  const f = outputFormat(codec, "bedrock-converse");
  if (!f.ok) throw new Error(f.error.message);
  return f.value.outputConfig as OutputConfig;
}

const json = (body: unknown) => (res: Http2ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
};

const converse = (text: string | undefined, stopReason: string) =>
  json({
    output: { message: { role: "assistant", content: text === undefined ? [] : [{ text }] } },
    stopReason,
    usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
    metrics: { latencyMs: 3 },
  });

async function ask(): Promise<unknown> {
  return client.send(
    new ConverseCommand({
      modelId: "anthropic.claude-test",
      messages: [{ role: "user", content: [{ text: "triage" }] }],
      outputConfig: format(),
    }),
  );
}

const frames = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const event = (type: string, payload: unknown): Uint8Array =>
  frames.encode({
    headers: {
      ":message-type": { type: "string", value: "event" },
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });

/** A ConverseStream of the text in `size`-character deltas, ended by messageStop unless `stop` is undefined. */
function streamed(text: string, size: number, stop: string | undefined) {
  const deltas: Uint8Array[] = [];
  for (let i = 0; i < text.length; i += size) {
    deltas.push(event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: text.slice(i, i + size) } }));
  }
  const all = [
    event("messageStart", { role: "assistant" }),
    ...deltas,
    ...(stop === undefined
      ? []
      : [event("contentBlockStop", { contentBlockIndex: 0 }), event("messageStop", { stopReason: stop })]),
  ];
  return (res: Http2ServerResponse) => {
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    res.end(Buffer.concat(all));
  };
}

async function askStreamed(): Promise<AnswerUpdate[]> {
  const out = await client.send(
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
    answer = converse(TEXT, "end_turn");
    const decoded = decodeOutput(codec, "bedrock-converse", await ask());
    expect(decoded).toStrictEqual({ ok: true, value: VALUE });
    expect(decoded.ok && Object.hasOwn(decoded.value as object, "due")).toBe(false);
    expect(seen.at(-1)?.path).toBe("/model/anthropic.claude-test/converse");
    const sent = seen.at(-1)?.body.outputConfig as { textFormat: Record<string, never> };
    expect(sent.textFormat).toEqual({
      type: "json_schema",
      structure: { jsonSchema: { schema: JSON.stringify(codec.wire), name: "triage" } },
    });
  });

  it("gives a cut, a filtered and a broken answer their typed errors", async () => {
    answer = converse(TEXT, "max_tokens");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "answer-cut" },
    });
    answer = converse(undefined, "content_filtered");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "answer-blocked" },
    });
    answer = converse(JSON.stringify({ ...wire.value, labels: { area: "hardware" } }), "end_turn");
    expect(decodeOutput(codec, "bedrock-converse", await ask())).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/labels" },
    });
  });

  it("streams source-form partials and gives the value only at messageStop", async () => {
    answer = streamed(TEXT, 7, "end_turn");
    const updates = await askStreamed();
    const partials = updates.filter((u) => u.kind === "partial");
    expect(partials.length).toBeGreaterThan(3);
    for (const p of partials) expect(JSON.stringify(p.value)).not.toMatch(/"key":/);
    expect(updates.at(-1)).toStrictEqual({ kind: "decoded", result: { ok: true, value: VALUE } });

    // The whole text, then the stream ends with no messageStop: no value.
    answer = streamed(TEXT, 7, undefined);
    const cut = await askStreamed();
    expect(cut.some((u) => u.kind === "decoded")).toBe(false);
    expect(cut.at(-1)).toMatchObject({ kind: "cut", error: { code: "answer-cut" }, unfinished: { ok: true } });
  });
});
