/** The classifier reads schemas exactly as the codec it predicts for: the same draft detection and rewriting. */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { checkSchema } from "../src/violations.js";

describe("a draft-04 schema", () => {
  const schema = {
    $schema: "http://json-schema.org/draft-04/schema#",
    type: "object",
    properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } },
    required: ["n"],
  };

  it("is read as draft-04 by the classifier, as the codec accepts it", () => {
    expect(compileCodec(schema).ok).toBe(true);
    expect(checkSchema({ n: 1 }, schema).kind).toBe("valid");
    expect(checkSchema({ n: 0 }, schema).kind).toBe("violations");
  });

  it("is detected without $schema from a boolean exclusiveMinimum, as in the codec", () => {
    const { $schema: _none, ...bare } = schema;
    expect(compileCodec(bare).ok).toBe(true);
    expect(checkSchema({ n: 0 }, bare).kind).toBe("violations");
    expect(checkSchema({ n: 2 }, bare).kind).toBe("valid");
  });
});
