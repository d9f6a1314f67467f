/**
 * The OpenAI Agents SDK (0.20) takes a Standard Schema with Standard JSON
 * Schema as an agent's `outputType`: it sends the JSON Schema's input side
 * as the answer format and hands `finalOutput` through the schema's
 * `validate`. A codec is such a schema (input = the wire, validate =
 * decode), so `outputType: codec` sends the strict wire and gives the
 * decoded answer. Run against the local Responses stand-in.
 */
import { Agent, type JsonSchemaDefinition, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import { type Codec, compileCodec } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Triage } from "../src/answer-schema.js";
import { type AnswerServer, startAnswerServer } from "../src/answer-server.js";

const compiled = compileCodec(Triage, { name: "triage", target: "openai" });
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value as Codec<Triage>;

const VALUE: Triage = {
  summary: "printer jams",
  assignee: null,
  team: null,
  labels: { area: "hardware" },
  action: { type: "escalate", level: 3 },
  sla: [4, 48],
};

let server: AnswerServer;
beforeAll(async () => {
  setTracingDisabled(true);
  server = await startAnswerServer({ kind: "answer", text: "{}" });
});
afterAll(() => server.close());

function runner(): Runner {
  const modelProvider = new OpenAIProvider({
    apiKey: "sk-offline",
    baseURL: `${server.origin}/v1`,
    useResponses: true,
  });
  return new Runner({ modelProvider });
}

describe("the Agents SDK with a codec as outputType", () => {
  it("sends the strict wire and gives the decoded answer as finalOutput", async () => {
    const wire = codec.encode(VALUE);
    if (!wire.ok) throw new Error(wire.error.message);
    server.script = { kind: "answer", text: JSON.stringify(wire.value) };
    const agent = new Agent({ name: "triage", instructions: "Triage the ticket.", outputType: codec });
    const result = await runner().run(agent, "The printer jams on page 2.");
    expect(result.finalOutput).toStrictEqual(VALUE);
    const body = server.requests.at(-1)?.body ?? {};
    const format = (body.text as { format: Record<string, unknown> }).format;
    expect(format).toMatchObject({ type: "json_schema", strict: true });
    expect(format.schema).toEqual(codec.wire);
  });

  it("a broken answer fails the run, the SDK's error redacting decode's words", async () => {
    const wire = codec.encode(VALUE);
    if (!wire.ok) throw new Error(wire.error.message);
    server.script = { kind: "answer", text: JSON.stringify({ ...wire.value, labels: { area: "hardware" } }) };
    const agent = new Agent({ name: "triage", instructions: "Triage the ticket.", outputType: codec });
    const failed = await runner()
      .run(agent, "The printer jams on page 2.")
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failed?.name).toBe("ModelBehaviorError");
    expect(failed?.message).toContain("did not match the expected schema");
  });

  it("the wire as a JSON Schema outputType, then decode on finalOutput: decode's own feedback", async () => {
    const wire = codec.encode(VALUE);
    if (!wire.ok) throw new Error(wire.error.message);
    // The wire is a strict JSON Schema object, which the SDK's type spells more narrowly.
    const schema = codec.wire as JsonSchemaDefinition["schema"];
    const outputType: JsonSchemaDefinition = { type: "json_schema", name: "triage", strict: true, schema };
    const agent = new Agent({ name: "triage", instructions: "Triage the ticket.", outputType });
    server.script = { kind: "answer", text: JSON.stringify(wire.value) };
    const good = await runner().run(agent, "The printer jams on page 2.");
    expect(codec.decode(good.finalOutput)).toStrictEqual({ ok: true, value: VALUE });

    server.script = { kind: "answer", text: JSON.stringify({ ...wire.value, labels: { area: "hardware" } }) };
    const bad = await runner().run(agent, "The printer jams on page 2.");
    expect(codec.decode(bad.finalOutput)).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/labels" },
    });
  });
});
