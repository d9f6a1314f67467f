/**
 * Two `$id` shapes ajv 8 cannot compile as written (issue 20): schema/prepare
 * rewrites them into ones that mean the same.
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("$id shapes ajv cannot compile", () => {
  it("a definition named $id compiles, and a $ref to it or beside it resolves", () => {
    const c = compileCodec({
      $defs: { $id: { type: "integer" }, T: { type: "string" } },
      type: "object",
      properties: { v: { $ref: "#/$defs/T" }, n: { $ref: "#/$defs/$id" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ v: "a", n: 1 }).ok).toBe(true);
    expect(c.value.validate({ v: 1 }).ok).toBe(false);
    expect(c.value.validate({ n: "a" }).ok).toBe(false);
  });

  it("$id beside $ref resolves the reference against that $id", () => {
    const c = compileCodec({
      type: "object",
      properties: { v: { $id: "https://example.test/n", $defs: { T: { type: "integer" } }, $ref: "#/$defs/T" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ v: 1 }).ok).toBe(true);
    expect(c.value.validate({ v: "a" }).ok).toBe(false);
    const decoded = c.value.decode('{"v":{"state":"present","value":3}}');
    expect(decoded).toEqual({ ok: true, value: { v: 3 } });
  });

  // Issue 30.11: a schema map member named `id` (OpenAPI's components.schemas, from
  // openai-agents-python's strict-schema tests) behind an allOf $ref.
  it("a schema map member named id, or $id, on a $ref's way compiles and validates as written", () => {
    for (const name of ["id", "$id"]) {
      const c = compileCodec({
        type: "object",
        properties: {
          a: { allOf: [{ $ref: `#/components/schemas/${name}` }] },
          b: { $ref: "#/components/schemas/other" },
        },
        components: { schemas: { [name]: { type: "string", minLength: 2 }, other: { type: "integer" } } },
      });
      if (!c.ok) throw new Error(`${name}: ${JSON.stringify(c.error)}`);
      expect(c.value.validate({ a: "xy", b: 1 }).ok, name).toBe(true);
      expect(c.value.validate({ a: "x" }).ok, name).toBe(false);
      expect(c.value.validate({ b: "x" }).ok, name).toBe(false);
      const encoded = c.value.encode({ a: "xy" });
      expect(encoded.ok, name).toBe(true);
      if (encoded.ok)
        expect(c.value.decode(JSON.stringify(encoded.value)), name).toEqual({ ok: true, value: { a: "xy" } });
    }
  });

  it("a container holding a member named $id, passed on the way to another member, compiles", () => {
    const c = compileCodec({
      type: "object",
      properties: { a: { $ref: "#/components/schemas/x" } },
      components: { $id: { type: "string" }, schemas: { x: { type: "integer" } } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ a: 1 }).ok).toBe(true);
    expect(c.value.validate({ a: "1" }).ok).toBe(false);
  });

  it("a schema's own $id that is not a string is still refused", () => {
    const c = compileCodec({ type: "object", properties: { a: { $id: { no: 1 }, type: "string" } } });
    expect(c.ok ? "compiled" : c.error.code).toBe("invalid-schema");
  });
});
