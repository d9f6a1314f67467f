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
