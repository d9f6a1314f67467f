/**
 * Zod 4 and other Standard JSON Schema libraries as compile input: the input
 * side is what the model writes, exactness holds for what Zod users write, and
 * decoding ends with the library's own validation.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile, compileCodec, loadBundle, toolDefinition, withStandardSchema } from "../../src/index.js";

function codecOf<S extends z.ZodType>(schema: S) {
  const compiled = compileCodec(schema);
  if (!compiled.ok) throw new Error(`${compiled.error.code}: ${compiled.error.message}`);
  return compiled.value;
}

/** encode → wire text → decode, as a model's call would travel. */
function roundTrip<S extends z.ZodType>(schema: S, value: unknown) {
  const codec = codecOf(schema);
  const wire = codec.encode(value as z.output<S>);
  if (!wire.ok) throw new Error(`encode: ${wire.error.message}`);
  return codec.decode(JSON.stringify(wire.value));
}

function wireArgs(codec: { wire: unknown }): Record<string, unknown> {
  // An object root is the wire value itself.
  return (codec.wire as { properties: Record<string, unknown> }).properties;
}

describe("Zod constructs on the wire and back", () => {
  it(".optional() is an absent member, not null", () => {
    const schema = z.object({ name: z.string(), nickname: z.string().optional() });
    expect(roundTrip(schema, { name: "a" })).toStrictEqual({ ok: true, value: { name: "a" } });
    expect(roundTrip(schema, { name: "a", nickname: "b" })).toStrictEqual({
      ok: true,
      value: { name: "a", nickname: "b" },
    });
    const codec = codecOf(schema);
    expect(codec.decode('{"name":"a","nickname":{"state":"absent"}}')).toStrictEqual({
      ok: true,
      value: { name: "a" },
    });
  });

  it(".nullable() keeps null, .nullish() keeps absent and null apart", () => {
    const schema = z.object({ a: z.number().nullable(), b: z.string().nullish() });
    expect(roundTrip(schema, { a: null })).toStrictEqual({ ok: true, value: { a: null } });
    expect(roundTrip(schema, { a: 1, b: null })).toStrictEqual({ ok: true, value: { a: 1, b: null } });
    expect(roundTrip(schema, { a: 1, b: "x" })).toStrictEqual({ ok: true, value: { a: 1, b: "x" } });
  });

  it(".default() lets the model leave the member out and the library fills it in", () => {
    const codec = codecOf(z.object({ unit: z.enum(["C", "F"]).default("C") }));
    expect(codec.decode('{"unit":{"state":"absent"}}')).toStrictEqual({ ok: true, value: { unit: "C" } });
    expect(codec.decode('{"unit":{"state":"present","value":"F"}}')).toStrictEqual({
      ok: true,
      value: { unit: "F" },
    });
  });

  it("z.record travels as entries and comes back as an object", () => {
    const schema = z.object({ labels: z.record(z.string(), z.number()) });
    expect(roundTrip(schema, { labels: { a: 1, "b c": 2 } })).toStrictEqual({
      ok: true,
      value: { labels: { a: 1, "b c": 2 } },
    });
  });

  it("z.discriminatedUnion and z.union pick the branch the value belongs to", () => {
    const shape = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("circle"), r: z.number() }),
      z.object({ kind: z.literal("square"), side: z.number().optional() }),
    ]);
    const schema = z.object({ shape, id: z.union([z.string(), z.number()]) });
    expect(roundTrip(schema, { shape: { kind: "square" }, id: 3 })).toStrictEqual({
      ok: true,
      value: { shape: { kind: "square" }, id: 3 },
    });
    expect(roundTrip(schema, { shape: { kind: "circle", r: 2 }, id: "x" })).toStrictEqual({
      ok: true,
      value: { shape: { kind: "circle", r: 2 }, id: "x" },
    });
  });

  it("z.lazy recursion compiles and round-trips", () => {
    interface Tree {
      label: string;
      children?: Tree[] | undefined;
    }
    const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ label: z.string(), children: z.array(Tree).optional() }));
    const value = { label: "root", children: [{ label: "a" }, { label: "b", children: [{ label: "c" }] }] };
    expect(roundTrip(z.object({ tree: Tree }), { tree: value })).toStrictEqual({ ok: true, value: { tree: value } });
  });

  it("z.literal and z.enum refuse values outside them", () => {
    const codec = codecOf(z.object({ v: z.literal(2), e: z.enum(["a", "b"]) }));
    expect(codec.decode('{"v":2,"e":"a"}')).toStrictEqual({ ok: true, value: { v: 2, e: "a" } });
    const refused = codec.decode('{"v":2,"e":"c"}');
    expect(refused.ok).toBe(false);
  });

  it(".describe() is carried onto the wire and the root description becomes the tool's", () => {
    const schema = z.object({ city: z.string().describe("City name, e.g. Oslo") }).describe("Get the weather");
    const compiled = compile(schema, { name: "get_weather" });
    expect(compiled.ok && compiled.value.description).toBe("Get the weather");
    const city = wireArgs(codecOf(schema)).city as { description?: string };
    expect(city.description).toBe("City name, e.g. Oslo");
  });
});

describe("the library's own validation after strictwire's", () => {
  it("refinements become a contract-violation with the library's path and message", () => {
    const schema = z.object({
      range: z
        .object({ from: z.number(), to: z.number() })
        .refine((r) => r.from <= r.to, { message: "from > to", path: ["to"] }),
    });
    const result = codecOf(schema).decode('{"range":{"from":5,"to":1}}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("contract-violation");
    expect(result.error.path).toBe("/range/to");
    expect(result.error.issues).toEqual([{ path: "/range/to", at: ["range", "to"], message: "from > to" }]);
    expect(result.error.feedback).toContain("/range/to: from > to");
  });

  it("transforms apply, and the decoded value is the library's output", () => {
    const codec = codecOf(z.object({ when: z.string().transform((s) => s.length) }));
    const result = codec.decode('{"when":"abcd"}');
    expect(result).toStrictEqual({ ok: true, value: { when: 4 } });
    if (result.ok) {
      const n: number = result.value.when; // typed by z.output
      expect(n).toBe(4);
    }
  });

  it("strictwire's checks still run first: duplicate keys never reach the library", () => {
    const result = codecOf(z.object({ a: z.string() })).decode('{"a":"x","a":"y"}');
    expect(result.ok === false && result.error.code).toBe("duplicate-key");
  });

  it("an async refinement is refused as a value, not a thrown error", () => {
    const codec = codecOf(z.object({ a: z.string().refine(async () => true) }));
    const result = codec.decode('{"a":"x"}');
    expect(result.ok === false && result.error.code).toBe("contract-violation");
  });

  it("withStandardSchema adds the library's validation to a codec loaded from a bundle", () => {
    const schema = z.object({ n: z.number().refine((n) => n % 2 === 0, "must be even") });
    const bundle = compile(schema, { name: "even" });
    if (!bundle.ok) throw new Error(bundle.error.message);
    const loaded = loadBundle(JSON.stringify(bundle.value));
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.decode('{"n":3}').ok).toBe(true);
    const codec = withStandardSchema(loaded.value, schema);
    expect(codec.decode('{"n":4}')).toStrictEqual({ ok: true, value: { n: 4 } });
    const odd = codec.decode('{"n":3}');
    expect(odd.ok === false && odd.error.issues).toEqual([{ path: "/n", at: ["n"], message: "must be even" }]);
    // The Standard Schema props follow the wrapped decode.
    expect(codec["~standard"].validate('{"n":3}')).toHaveProperty("issues");
  });

  it("a Zod 4 release without ~standard.jsonSchema (before 4.2) is refused with the way out, as a value", () => {
    // The shape of a Zod 4.1 schema: `_zod` internals and Standard Schema V1 props, no jsonSchema converter.
    const zod41 = {
      _zod: { def: { type: "string" } },
      "~standard": { version: 1, vendor: "zod", validate: () => ({ value: "" }) },
    };
    const compiled = compile(zod41);
    expect(compiled.ok === false && compiled.error.code).toBe("unsupported-schema");
    expect(compiled.ok === false && compiled.error.message).toContain('z.toJSONSchema(schema, { io: "input" })');
  });

  it("a strictwire codec given as a schema is refused with a typed error", () => {
    const codec = codecOf(z.object({ a: z.string() }));
    const again = compile(codec);
    expect(again.ok === false && again.error.code).toBe("invalid-schema");
  });
});

describe("provider tool definitions from a Zod schema", () => {
  it("compile(zod) gives bundles toolDefinition puts in each API's envelope", () => {
    const schema = z.object({ city: z.string(), unit: z.enum(["C", "F"]).optional() }).describe("Get the weather");
    for (const [target, api] of [
      ["openai", "openai-responses"],
      ["anthropic", "anthropic"],
    ] as const) {
      const bundle = compile(schema, { name: "get_weather", target });
      if (!bundle.ok) throw new Error(bundle.error.message);
      const definition = toolDefinition(bundle.value, api);
      expect(definition.ok).toBe(true);
      expect(JSON.stringify(definition.ok && definition.value)).toContain(JSON.stringify(bundle.value.wire));
    }
  });
});

describe("another Standard JSON Schema library: ArkType", () => {
  it("compiles its input side and runs its validation on decode", () => {
    const schema = type({ name: "string", "age?": "number.integer >= 0", "note?": "string.trim" });
    const compiled = compileCodec(schema);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    expect(codec.decode('{"name":"a","age":{"state":"absent"},"note":{"state":"absent"}}')).toStrictEqual({
      ok: true,
      value: { name: "a" },
    });
    // The morph runs: ArkType's output, not the text the model wrote.
    expect(
      codec.decode('{"name":"a","age":{"state":"absent"},"note":{"state":"present","value":"  hi "}}'),
    ).toStrictEqual({
      ok: true,
      value: { name: "a", note: "hi" },
    });
    const negative = codec.decode('{"name":"a","age":{"state":"present","value":-1},"note":{"state":"absent"}}');
    expect(negative.ok).toBe(false);
  });
});

describe("another Standard JSON Schema library: Valibot through toStandardJsonSchema", () => {
  it("compiles its input side, keeps absent members absent and runs its validation on decode", () => {
    const schema = toStandardJsonSchema(
      v.object({
        name: v.pipe(v.string(), v.minLength(1)),
        tag: v.optional(v.string()),
        unit: v.optional(v.string(), "C"),
      }),
    );
    const compiled = compileCodec(schema);
    if (!compiled.ok) throw new Error(compiled.error.message);
    // unit's default comes from Valibot's own validation: strictwire alone would leave it absent.
    expect(compiled.value.decode('{"name":"a","tag":{"state":"absent"},"unit":{"state":"absent"}}')).toStrictEqual({
      ok: true,
      value: { name: "a", unit: "C" },
    });
    const empty = compiled.value.decode('{"name":"","tag":{"state":"absent"},"unit":{"state":"absent"}}');
    expect(empty.ok).toBe(false);
  });

  // Valibot's converter throws for refinements (check, trim, ...) unless told otherwise.
  it("an action the converter cannot express is a typed refusal, not an exception", () => {
    const compiled = compile(toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.trim()) })));
    expect(compiled.ok === false && compiled.error.code).toBe("unsupported-schema");
  });
});

/** A Zod schema and values for it, built together so every value is valid input. */
interface Case {
  readonly schema: z.ZodType;
  readonly value: fc.Arbitrary<unknown>;
}

const leaf: fc.Arbitrary<Case> = fc.constantFrom<Case>(
  { schema: z.string(), value: fc.string({ maxLength: 8 }) },
  { schema: z.number(), value: fc.double({ min: -1e15, max: 1e15, noNaN: true }).filter((n) => !Object.is(n, -0)) },
  { schema: z.int(), value: fc.maxSafeInteger() },
  { schema: z.boolean(), value: fc.boolean() },
  { schema: z.literal("on"), value: fc.constant("on") },
  { schema: z.enum(["a", "b", "c"]), value: fc.constantFrom("a", "b", "c") },
);

const { node } = fc.letrec<{ node: Case }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "zod" },
    leaf,
    tie("node").map((c) => ({ schema: c.schema.nullable(), value: fc.option(c.value, { nil: null }) })),
    tie("node").map((c) => ({ schema: z.array(c.schema), value: fc.array(c.value, { maxLength: 3 }) })),
    tie("node").map((c) => ({
      schema: z.record(z.string(), c.schema),
      value: fc.dictionary(fc.string({ maxLength: 4 }), c.value, { maxKeys: 3 }),
    })),
    fc
      .array(fc.tuple(tie("node"), fc.constantFrom("required", "optional", "nullish")), { minLength: 1, maxLength: 4 })
      .map(objectCase),
  ),
}));

function objectCase(members: [Case, string][]): Case {
  const shape: Record<string, z.ZodType> = {};
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  members.forEach(([c, presence], i) => {
    const key = `m${i}`;
    if (presence === "required") {
      shape[key] = c.schema;
      values[key] = c.value;
      required.push(key);
    } else if (presence === "optional") {
      shape[key] = c.schema.optional();
      values[key] = c.value;
    } else {
      shape[key] = c.schema.nullish();
      values[key] = fc.option(c.value, { nil: null });
    }
  });
  return { schema: z.object(shape), value: fc.record(values, { requiredKeys: required }) };
}

describe("property: Zod schemas and values round-trip with presence intact", () => {
  it("decode(encode(v)) equals v, absent members staying absent", () => {
    const cases = node.chain((c) => {
      const root = c.schema instanceof z.ZodObject ? c : objectCase([[c, "required"]]);
      return fc.tuple(fc.constant(root.schema), root.value);
    });
    fc.assert(
      fc.property(cases, ([schema, value]) => {
        // fc.dictionary builds null-prototype objects; a decoded value has plain ones.
        expect(roundTrip(schema, value)).toStrictEqual({ ok: true, value: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 150 },
    );
  });
});
