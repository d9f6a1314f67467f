/** Type rules read as words in feedback, not as ajv's "must be string,null" (issue 31). */
import { describe, expect, it } from "vitest";
import { typeList } from "../../src/feedback/rules.js";
import { compileCodec } from "../../src/index.js";

describe("type rules in words", () => {
  it("lists types with articles and 'or'", () => {
    expect(typeList("string")).toBe("a string");
    expect(typeList("string,null")).toBe("a string or null");
    expect(typeList(["integer", "object", "null"])).toBe("an integer, an object or null");
  });

  it("reaches the wire check's feedback and issues", () => {
    const compiled = compileCodec({
      type: "object",
      properties: { name: { type: ["string", "null"] }, timezone: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const refused = compiled.value.decode('{"name":5,"timezone":{"state":"absent"}}');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("wire-violation");
    expect(refused.error.feedback).toContain("/name: must be a string or null, got 5");
    expect(JSON.stringify(refused.error)).not.toMatch(/must be \w+,\w+/);
  });
});
