/**
 * 2020-12 applicators that reach past declared members (prefixItems,
 * unevaluatedProperties) keep their meaning on the wire and round-trip.
 * Found by the conformance run over the external corpora (docs/conformance.md).
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("2020-12 applicators", () => {
  it("prefixItems without items lets later elements be anything, and they round-trip", () => {
    const c = compileCodec({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { v: { type: "array", prefixItems: [{ type: "integer" }] } },
      required: ["v"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const value = { v: [1, "foo", { a: null }] };
    const e = c.value.encode(value);
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value });
    expect(c.value.encode({ v: ["x"] }).ok).toBe(false);
  });

  it("prefixItems with a false position: arrays end before it (the tuple is closed there)", () => {
    const c = compileCodec({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { v: { type: "array", prefixItems: [true, false] } },
      required: ["v"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    for (const v of [[], [{ a: 1 }]]) {
      const e = c.value.encode({ v });
      if (!e.ok) throw new Error(JSON.stringify(e.error));
      expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value: { v } });
    }
    expect(c.value.encode({ v: [1, 2] }).ok).toBe(false);
  });

  it("each position is held to its own schema on the wire, for every target", () => {
    const schema = {
      type: "object",
      properties: {
        at: { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], minItems: 2, items: false },
      },
      required: ["at"],
    };
    for (const target of ["openai", "anthropic", "gemini"] as const) {
      const c = compileCodec(schema, { target });
      if (!c.ok) throw new Error(JSON.stringify(c.error));
      const e = c.value.encode({ at: [1, "x"] });
      if (!e.ok) throw new Error(JSON.stringify(e.error));
      expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value: { at: [1, "x"] } });
      // The string where the number goes: the wire schema refuses it (before, a union of the positions took it).
      const swapped = JSON.parse(
        JSON.stringify(e.value).replace('1,"x"', '"x",1').replace('"0":1,"1":"x"', '"0":"x","1":1'),
      );
      expect(c.value.decode(JSON.stringify(swapped))).toMatchObject({ ok: false, error: { code: "wire-violation" } });
    }
  });

  it("unevaluatedProperties: false does not close an object whose anyOf evaluates more members", () => {
    const c = compileCodec(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { foo: { type: "string" } },
        anyOf: [
          { properties: { bar: { const: "bar" } }, required: ["bar"] },
          { properties: { baz: { const: "baz" } } },
        ],
        unevaluatedProperties: false,
      },
      { openObjects: "preserve" },
    );
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const value = { foo: "foo", bar: "bar" };
    const e = c.value.encode(value);
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value });
    expect(c.value.encode({ foo: "foo", bar: "bar", qux: 1 }).ok).toBe(false);
  });
});
