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
});
