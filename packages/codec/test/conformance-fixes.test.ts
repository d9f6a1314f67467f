/**
 * Regressions found by running the external corpora (docs/conformance.md):
 * each failed, crashed or was refused before its fix.
 */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("found by the conformance run", () => {
  it("a union branch that accepts nothing deeper down is left out, not the whole schema refused", () => {
    // JSONSchemaBench Github_trivial/o2140: an array branch whose own anyOf only allows strings.
    const c = compileCodec({
      type: "object",
      properties: { v: { anyOf: [{ type: "string" }, { type: "array", anyOf: [{ type: "string" }] }] } },
      required: ["v"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const e = c.value.encode({ v: "x" });
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value: { v: "x" } });
    expect(c.value.encode({ v: ["x"] }).ok).toBe(false);
    // Every branch empty: still refused, as accepting nothing.
    const none = compile({
      anyOf: [
        { type: "array", anyOf: [{ type: "string" }] },
        { type: "number", enum: ["a"] },
      ],
    });
    expect(none.ok).toBe(false);
  });

  it("$async no longer turns validation into an unchecked Promise", () => {
    const c = compileCodec({ $async: true, type: "object", properties: { a: { type: "string" } } });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ a: 1 }).ok).toBe(false);
    expect(c.value.encode({ a: 1 }).ok).toBe(false);
    expect(c.value.decode('{"arguments":{"a":{"state":"present","value":1}}}').ok).toBe(false);
  });

  it("a draft-06 schema compiles (read as draft-07)", () => {
    const c = compileCodec({
      $schema: "http://json-schema.org/draft-06/schema#",
      type: "object",
      properties: { n: { type: "integer" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ n: 1.5 }).ok).toBe(false);
  });

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

  it("an optional member no value satisfies is never present, instead of refusing the schema", () => {
    const c = compileCodec({
      type: "object",
      properties: { scope: { type: "array", enum: ["openid", "profile"] }, name: { type: "string" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.bundle.plan.relaxed.some((r) => r.path === "/properties/scope")).toBe(true);
    expect(c.value.encode({ name: "x" }).ok).toBe(true);
    expect(c.value.encode({ scope: ["openid"] }).ok).toBe(false);
  });

  it("false branches of a union are left out; a required member no value satisfies is still refused", () => {
    expect(compile({ type: "object", properties: { v: { anyOf: [true, false] } } }).ok).toBe(true);
    const refused = compile({ type: "object", properties: { v: { type: "array", enum: ["a"] } }, required: ["v"] });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe("unsupported-schema");
  });
});
