/** Standard Schema V1 on every codec, and the AI SDK adapter built on it. */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { aiSdkInputSchema, aiSdkWireMessages, type Codec, compileCodec } from "@strictwire/codec";
import { describe, expect, expectTypeOf, it } from "vitest";

interface Order {
  item: string;
  note?: string | null;
  lines: { sku: string; qty: number }[];
}

const SOURCE = {
  type: "object",
  properties: {
    item: { type: "string" },
    note: { type: ["string", "null"] },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } },
        required: ["sku", "qty"],
      },
    },
  },
  required: ["item", "lines"],
} as const;

function orderCodec(): Codec<Order> {
  const r = compileCodec<Order>(SOURCE, { name: "place_order" });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function wireText(codec: Codec<Order>, value: Order): string {
  const wire = codec.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}

describe("codec['~standard']", () => {
  const codec = orderCodec();

  it("is a Standard Schema V1 and a Standard JSON Schema V1 from strictwire, one object per codec", () => {
    const props = codec["~standard"];
    expect(props.version).toBe(1);
    expect(props.vendor).toBe("strictwire");
    expect(codec["~standard"]).toBe(props);
    expectTypeOf(codec).toExtend<StandardSchemaV1<unknown, Order>>();
    expectTypeOf(codec).toExtend<StandardJSONSchemaV1<unknown, Order>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof codec>>().toEqualTypeOf<Order>();
  });

  it("validates raw arguments text and parsed wire values to the original value", async () => {
    const text = wireText(codec, { item: "tea", lines: [{ sku: "T1", qty: 2 }] });
    const fromText = await codec["~standard"].validate(text);
    const fromValue = await codec["~standard"].validate(JSON.parse(text));
    expect(fromText).toStrictEqual({ value: { item: "tea", lines: [{ sku: "T1", qty: 2 }] } });
    expect(fromValue).toStrictEqual(fromText);
  });

  it("keeps null apart from absent", async () => {
    const text = wireText(codec, { item: "tea", note: null, lines: [] });
    const result = await codec["~standard"].validate(text);
    expect(result).toStrictEqual({ value: { item: "tea", note: null, lines: [] } });
  });

  it("reports each contract issue with its path in the original value, indexes as numbers", async () => {
    const text = wireText(codec, { item: "tea", lines: [{ sku: "T1", qty: 1 }] }).replace('"qty":1', '"qty":0');
    const result = await codec["~standard"].validate(text);
    expect(result.issues).toBeDefined();
    expect(result.issues).toEqual([{ message: expect.stringContaining(">= 1"), path: ["lines", 0, "qty"] }]);
  });

  it("reports a parse failure as one issue", async () => {
    const result = await codec["~standard"].validate('{"arguments":');
    expect(result.issues).toHaveLength(1);
    expect(result.issues?.[0]?.message).toMatch(/./);
  });

  it("gives the wire schema as input and the source contract as output, as copies", () => {
    const { jsonSchema } = codec["~standard"];
    const input = jsonSchema.input({ target: "draft-2020-12" });
    expect(input).toEqual(codec.wire);
    input.properties = {};
    expect(jsonSchema.input({ target: "draft-07" })).toEqual(codec.wire);
    expect(jsonSchema.output({ target: "draft-2020-12" })).toEqual(SOURCE);
    expect(() => jsonSchema.input({ target: "openapi-3.0" })).toThrow(/not openapi-3.0/);
  });
});

describe("aiSdkInputSchema", () => {
  const codec = orderCodec();
  const schema = aiSdkInputSchema(codec);

  it("decodes what the SDK parsed into the original value", async () => {
    const wire = JSON.parse(wireText(codec, { item: "tea", lines: [] })) as unknown;
    expect(await schema["~standard"].validate(wire)).toStrictEqual({ value: { item: "tea", lines: [] } });
    expectTypeOf<StandardSchemaV1.InferOutput<typeof schema>>().toEqualTypeOf<Order>();
  });

  it("fails with one issue that carries the feedback for the model", async () => {
    const result = await schema["~standard"].validate({ item: "tea" });
    expect(result.issues).toHaveLength(1);
    const decoded = codec.decode({ item: "tea" });
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(result.issues?.[0]?.message).toBe(decoded.error.feedback);
  });

  it("sends the wire schema to the SDK", () => {
    expect(schema["~standard"].jsonSchema.input({ target: "draft-07" })).toEqual(codec.wire);
  });
});

describe("aiSdkWireMessages", () => {
  const codec = orderCodec();
  const original: Order = { item: "tea", lines: [] };

  it("puts the wire form back into assistant tool calls, leaving every other message alone", () => {
    const messages = [
      { role: "user", content: [{ type: "text", text: "Order tea." }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Ordering." },
          { type: "tool-call", toolCallId: "c1", toolName: "place_order", input: original },
          { type: "tool-call", toolCallId: "c2", toolName: "other_tool", input: { x: 1 } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "place_order", output: "ok" }] },
    ];
    const out = aiSdkWireMessages(messages, { place_order: codec });
    expect(out[0]).toBe(messages[0]);
    expect(out[2]).toBe(messages[2]);
    const parts = (out[1] as (typeof messages)[1]).content;
    expect(parts[1]).toEqual({
      type: "tool-call",
      toolCallId: "c1",
      toolName: "place_order",
      input: JSON.parse(wireText(codec, original)),
    });
    expect(parts[2]).toBe(messages[1]!.content[2]);
    // Not in place.
    expect(messages[1]!.content[1]!).toMatchObject({ input: original });
  });

  it("leaves a call whose input does not encode (the model's own invalid text) as it is", () => {
    const messages = [
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "place_order", input: { arguments: {} } }],
      },
    ];
    const out = aiSdkWireMessages(messages, { place_order: codec });
    expect(out[0]).toBe(messages[0]);
  });
});
