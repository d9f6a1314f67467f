import { describe, expect, it } from "vitest";
import { compileCodec } from "../../../src/index.js";
import { bfclToJsonSchema, mapTypeName } from "../../../src/schema/adapters/bfcl.js";

const dict = (properties: Record<string, unknown>, required?: string[]): Record<string, unknown> => ({
  type: "dict",
  properties,
  ...(required !== undefined ? { required } : {}),
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("bfcl type names", () => {
  it.each([
    ["dict", "object"],
    ["float", "number"],
    ["tuple", "array"],
    ["String", "string"],
    ["char", "string"],
    ["HashMap", "object"],
    ["Hashtable", "object"],
    ["ArrayList", "array"],
    ["Array", "array"],
    ["Set", "array"],
    ["Queue", "array"],
    ["Stack", "array"],
    ["long", "integer"],
    ["int", "integer"],
    ["Integer", "integer"],
    ["short", "integer"],
    ["byte", "integer"],
    ["Bigint", "integer"],
    ["double", "number"],
    ["Boolean", "boolean"],
    ["bool", "boolean"],
    ["integer", "integer"],
    ["string", "string"],
    ["boolean", "boolean"],
    ["array", "array"],
    ["object", "object"],
    ["None", "null"],
  ])("%s -> %s", (name, type) => {
    expect(bfclToJsonSchema({ type: name })).toEqual({ type });
  });

  it("drops the type of any (and of the empty name): any JSON value", () => {
    expect(bfclToJsonSchema({ type: "any", description: "x" })).toEqual({ description: "x" });
    expect(bfclToJsonSchema({ type: "" })).toEqual({});
    expect(bfclToJsonSchema({ type: ["string", "any"] })).toEqual({});
  });

  it("maps each name of a type list and merges duplicates", () => {
    expect(bfclToJsonSchema({ type: ["String", "string", "None"] })).toEqual({ type: ["string", "null"] });
  });

  it("carries element types of generic names", () => {
    expect(bfclToJsonSchema({ type: "List<String>" })).toEqual({ type: "array", items: { type: "string" } });
    expect(bfclToJsonSchema({ type: "int[]" })).toEqual({ type: "array", items: { type: "integer" } });
    expect(bfclToJsonSchema({ type: "Map<String, List<Integer>>" })).toEqual({
      type: "object",
      additionalProperties: { type: "array", items: { type: "integer" } },
    });
  });

  it("keeps explicit items over a generic's element type", () => {
    expect(bfclToJsonSchema({ type: "ArrayList<String>", items: { type: "long" } })).toEqual({
      type: "array",
      items: { type: "integer" },
    });
  });

  it("leaves an unknown name as it is, so compile refuses rather than guesses", () => {
    expect(mapTypeName("Widget")).toEqual({ kind: "unknown" });
    expect(mapTypeName("List<Widget>")).toEqual({ kind: "unknown" });
    expect(mapTypeName("Map<String")).toEqual({ kind: "unknown" });
    expect(bfclToJsonSchema({ type: "Widget" })).toEqual({ type: "Widget" });
    const r = compileCodec(dict({ w: { type: "Widget" } }), { dialect: "bfcl" });
    expect(r.ok ? "compiled" : r.error.code).toBe("invalid-schema");
  });

  it("maps nested positions: properties, items, tuple items, additionalProperties, anyOf, $defs", () => {
    const out = bfclToJsonSchema({
      type: "dict",
      properties: {
        a: { type: "ArrayList", items: { type: "HashMap", properties: { x: { type: "float" } } } },
        t: { type: "tuple", items: [{ type: "String" }, { type: "long" }] },
        m: { type: "dict", additionalProperties: { type: "double" } },
        u: { anyOf: [{ type: "Boolean" }, { $ref: "#/$defs/d" }] },
      },
      $defs: { d: { type: "char" } },
    });
    expect(out).toEqual({
      type: "object",
      properties: {
        a: { type: "array", items: { type: "object", properties: { x: { type: "number" } } } },
        t: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
        m: { type: "object", additionalProperties: { type: "number" } },
        u: { anyOf: [{ type: "boolean" }, { $ref: "#/$defs/d" }] },
      },
      $defs: { d: { type: "string" } },
    });
  });
});

describe("bfcl quirks", () => {
  it("retypes an enum the declared type cannot hold to the types of its values", () => {
    const out = bfclToJsonSchema({ type: "boolean", enum: ["True", "False", "dontcare"], default: "dontcare" });
    expect(out).toEqual({ type: "string", enum: ["True", "False", "dontcare"], default: "dontcare" });
    expect(bfclToJsonSchema({ type: "integer", enum: ["1", 2] })).toEqual({
      type: ["string", "integer"],
      enum: ["1", 2],
    });
  });

  it("keeps an enum that fits its type as it is", () => {
    expect(bfclToJsonSchema({ type: "float", enum: [1, 2.5] })).toEqual({ type: "number", enum: [1, 2.5] });
  });

  it("drops a default that contradicts the type or the enum, and keeps one that fits", () => {
    expect(bfclToJsonSchema({ type: "integer", default: "5 years" })).toEqual({ type: "integer" });
    expect(bfclToJsonSchema({ type: "float", default: "None" })).toEqual({ type: "number" });
    expect(bfclToJsonSchema({ type: "string", enum: ["a", "b"], default: "c" })).toEqual({
      type: "string",
      enum: ["a", "b"],
    });
    expect(bfclToJsonSchema({ type: "float", default: 1 })).toEqual({ type: "number", default: 1 });
    expect(bfclToJsonSchema({ type: "any", default: "anything" })).toEqual({ default: "anything" });
  });

  it("drops `optional`, and takes an optional member out of required", () => {
    const out = bfclToJsonSchema(
      dict(
        {
          a: { type: "string", optional: true },
          b: { type: "integer", optional: "true" },
          c: { type: "string", optional: false },
        },
        ["a", "b", "c"],
      ),
    );
    expect(out).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "string" } },
      required: ["c"],
    });
  });

  it("keeps only declared names in required, and drops a required that is not a list", () => {
    expect(bfclToJsonSchema(dict({}, ["adults", "children"]))).toEqual({
      type: "object",
      properties: {},
      required: [],
    });
    expect(bfclToJsonSchema({ type: "dict", required: ["x"] })).toEqual({ type: "object", required: [] });
    expect(bfclToJsonSchema({ type: "string", required: true })).toEqual({ type: "string" });
  });

  it("leaves an array without items alone: its elements are any JSON value", () => {
    expect(bfclToJsonSchema({ type: "ArrayList", description: "ids" })).toEqual({ type: "array", description: "ids" });
  });

  it("keeps member names that are Object.prototype names as own data", () => {
    const out = bfclToJsonSchema(JSON.parse('{"type":"dict","properties":{"__proto__":{"type":"float"}}}')) as {
      properties: Record<string, unknown>;
    };
    expect(Object.hasOwn(out.properties, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out.properties, "__proto__")?.value).toEqual({ type: "number" });
  });

  it("is pure: the input is not touched and shares nothing with the output", () => {
    const input = deepFreeze(
      dict({ a: { type: "ArrayList", items: { type: "String" }, default: 3, optional: true } }, ["a", "zz"]),
    );
    const before = JSON.stringify(input);
    const out = bfclToJsonSchema(input) as { properties: { a: { items: unknown } } };
    expect(JSON.stringify(input)).toBe(before);
    expect(out.properties.a.items).not.toBe(input.properties);
  });

  it("is idempotent: adapting its own output changes nothing", () => {
    const once = bfclToJsonSchema(
      dict({ a: { type: "tuple", items: { type: "Integer" } }, b: { type: "boolean", enum: ["True", "dontcare"] } }, [
        "a",
        "b",
      ]),
    );
    expect(bfclToJsonSchema(once)).toEqual(once);
  });

  it("passes non-object schemas through", () => {
    expect(bfclToJsonSchema(true)).toBe(true);
    expect(bfclToJsonSchema(null)).toBe(null);
  });
});

describe('compile with dialect "bfcl"', () => {
  const schema = dict(
    {
      city: { type: "String", description: "City name" },
      days: { type: "integer", default: "None" },
      ratio: { type: "float", optional: true },
      point: { type: "tuple", items: { type: "float" } },
      opts: { type: "HashMap" },
      anything: { type: "any" },
      gender: { type: "boolean", enum: ["True", "False", "dontcare"], default: "dontcare" },
    },
    ["city", "point", "ratio", "ghost"],
  );

  it("is registered when the codec is imported, and the plain schema is refused without it", () => {
    const plain = compileCodec(schema);
    expect(plain.ok ? "compiled" : plain.error.code).toBe("invalid-schema");
    const adapted = compileCodec(schema, { dialect: "bfcl", name: "get_weather" });
    expect(adapted.ok ? "compiled" : adapted.error.message).toBe("compiled");
  });

  it("round-trips a call exactly, optional members absent or present", () => {
    // HashMap declares no members: its entries travel only when open objects are preserved.
    const r = compileCodec(schema, { dialect: "bfcl", openObjects: "preserve" });
    if (!r.ok) throw new Error(r.error.message);
    const codec = r.value;
    for (const call of [
      { city: "Paris", point: [1.5, 2] },
      { city: "Oslo", point: [], days: 3, ratio: 0.5, opts: { a: [1] }, anything: null, gender: "dontcare" },
    ]) {
      const wire = codec.encode(call);
      if (!wire.ok) throw new Error(wire.error.message);
      const back = codec.decode(JSON.stringify(wire.value));
      expect(back).toStrictEqual({ ok: true, value: call });
    }
  });

  it("holds calls to the adapted contract", () => {
    const r = compileCodec(schema, { dialect: "bfcl" });
    if (!r.ok) throw new Error(r.error.message);
    const bad = r.value.encode({ city: 3, point: [] });
    expect(bad.ok ? "accepted" : bad.error.code).toBe("invalid-value");
    const missing = r.value.encode({ point: [] });
    expect(missing.ok ? "accepted" : missing.error.code).toBe("invalid-value");
  });

  it("keeps the source as given in the bundle, before the adapter", () => {
    const r = compileCodec(schema, { dialect: "bfcl" });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.bundle.source).toEqual(schema);
    expect(r.value.bundle.options.dialect).toBe("bfcl");
  });
});
