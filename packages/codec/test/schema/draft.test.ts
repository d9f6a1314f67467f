/**
 * Schemas of older drafts and ajv's own keywords read as the validators read
 * them. Found by the conformance run over the external corpora (docs/conformance.md).
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("drafts and their keywords", () => {
  it("$async no longer turns validation into an unchecked Promise", () => {
    const c = compileCodec({ $async: true, type: "object", properties: { a: { type: "string" } } });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ a: 1 }).ok).toBe(false);
    expect(c.value.encode({ a: 1 }).ok).toBe(false);
    expect(c.value.decode('{"a":{"state":"present","value":1}}').ok).toBe(false);
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

  it("a schema whose only draft sign is draft-04's `id` reads as draft-04", () => {
    const c = compileCodec({
      id: "http://example.test/person.json",
      type: "object",
      properties: { age: { type: "integer", minimum: 1 }, tag: { $ref: "#/definitions/t" } },
      definitions: { t: { id: "#tag", type: "string" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ age: 1, tag: "a" }).ok).toBe(true);
    expect(c.value.validate({ age: 0 }).ok).toBe(false);
    expect(c.value.validate({ tag: 1 }).ok).toBe(false);
  });

  it("a property named `id` is not draft-04's keyword", () => {
    const c = compileCodec({
      type: "object",
      properties: { id: { type: "string" }, n: { const: 1 } },
      required: ["id"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ id: "x" }).ok).toBe(true);
    expect(c.value.validate({ id: 1 }).ok).toBe(false);
  });
});
