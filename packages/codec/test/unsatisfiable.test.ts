/**
 * Parts of a schema no value satisfies: left out where that changes no
 * verdict, refused where a value would have to hold one. Found by the
 * conformance run over the external corpora (docs/conformance.md).
 */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("parts no value satisfies", () => {
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

  it("an optional member whose parts have no type in common is never present; a required one is refused", () => {
    const c = compileCodec({ properties: { x: { allOf: [{ type: "string" }, { type: "integer" }] } } });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.bundle.plan.relaxed.some((r) => r.path === "/properties/x")).toBe(true);
    expect(c.value.encode({}).ok).toBe(true);
    expect(c.value.encode({ x: 1 }).ok).toBe(false);
    expect(c.value.decode('{"arguments":{}}')).toEqual({ ok: true, value: {} });
    const required = compile({
      properties: { x: { allOf: [{ type: "string" }, { type: "integer" }] } },
      required: ["x"],
    });
    expect(required.ok).toBe(false);
  });
});
