/** Schema preparation: shapes real schemas have that ajv refuses, read as the spec reads them. */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("preparing the source", () => {
  it("a schema that declares a later draft and still writes `id` compiles: `id` is no keyword there", () => {
    const c = compileCodec({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      id: "http://example.test/types#post",
      type: "object",
      properties: { name: { id: "http://example.test/types#post/name", type: "string" } },
      required: ["name"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ name: "x" }).ok).toBe(true);
    expect(c.value.validate({ name: 1 }).ok).toBe(false);
  });

  it("an `$id` repeated on several subschemas compiles when nothing in the document refers to anything", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-06/schema#",
      type: "object",
      properties: {
        a: { $id: "/properties/item", type: "object", properties: { n: { $id: "name", type: "string" } } },
        b: { $id: "/properties/item", type: "object", properties: { n: { $id: "name", type: "integer" } } },
      },
    };
    const c = compileCodec(schema);
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ a: { n: "x" }, b: { n: 1 } }).ok).toBe(true);
    expect(c.value.validate({ a: { n: 1 } }).ok).toBe(false);
    const e = c.value.encode({ a: { n: "x" } });
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value: { a: { n: "x" } } });
  });

  it("a repeated `$id` is still refused where a reference could read it", () => {
    const r = compile({
      type: "object",
      properties: {
        a: { $id: "item", type: "string" },
        b: { $id: "item", type: "integer" },
        c: { $ref: "item" },
      },
    });
    expect(r.ok ? undefined : r.error.code).toBe("invalid-schema");
  });
});
