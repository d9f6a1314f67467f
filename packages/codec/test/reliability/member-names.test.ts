/** Member names with spaces travel and choose union branches like any other (docs/security.md). */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

describe("member names with spaces", () => {
  it("a union below one chooses its branch by validation, and round-trips", () => {
    const c = compileCodec({
      type: "object",
      properties: { "x y": { anyOf: [{ enum: ["green"] }, {}, { type: "string" }] } },
      required: ["x y"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    for (const value of [{ "x y": "" }, { "x y": "green" }, { "x y": [1] }]) {
      const e = c.value.encode(value);
      expect(e.ok, JSON.stringify(value)).toBe(true);
      if (e.ok) expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value });
    }
  });
});
