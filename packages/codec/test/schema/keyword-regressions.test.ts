/** Keyword handling that once disagreed between copies of the keyword table, or went unrecorded. */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("a loop through keywords that apply in place", () => {
  it("is refused at compile in the draft-07 dependencies form, as in the dependentSchemas form", () => {
    const old = compileCodec({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { type: "string" } },
      dependencies: { a: { $ref: "#" } },
    });
    expect(old.ok).toBe(false);
    const modern = compileCodec({
      type: "object",
      properties: { a: { type: "string" } },
      dependentSchemas: { a: { $ref: "#" } },
    });
    expect(modern.ok).toBe(false);
    if (!old.ok && !modern.ok) expect(old.error.code).toBe(modern.error.code);
  });

  it("is not found where dependencies only lists names", () => {
    const c = compileCodec({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      dependencies: { a: ["b"] },
    });
    expect(c.ok).toBe(true);
  });
});

describe("constants the gemini target cannot spell", () => {
  const schema = {
    type: "object",
    properties: { e: { type: ["string", "null"], enum: ["a", null] }, c: { type: "boolean", const: true } },
    required: ["e", "c"],
    additionalProperties: false,
  };

  it("are recorded in plan.relaxed, and decode still enforces them", () => {
    const c = compileCodec(schema, { target: "gemini" });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const relaxed = c.value.bundle.plan.relaxed.map((r) => `${r.path} ${r.keyword}`);
    expect(relaxed).toContain("/properties/e enum");
    expect(relaxed).toContain("/properties/c const");
    const wire = JSON.stringify(c.value.bundle.wire);
    expect(wire).not.toContain('"enum"');
    expect(wire).not.toContain('"const"');
    const good = c.value.encode({ e: null, c: true });
    if (!good.ok) throw new Error(JSON.stringify(good.error));
    expect(c.value.decode(JSON.stringify(good.value)).ok).toBe(true);
    const bad = JSON.stringify(good.value).replace("true", "false");
    expect(c.value.decode(bad).ok).toBe(false);
  });

  it("are not relaxed on openai, which keeps them on the wire", () => {
    const c = compileCodec(schema, { target: "openai" });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const keywords = c.value.bundle.plan.relaxed.map((r) => r.keyword);
    expect(keywords).not.toContain("enum");
    expect(keywords).not.toContain("const");
  });
});
