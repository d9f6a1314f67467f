import { describe, expect, it } from "vitest";
import type { RuleKeyword, RuleParams } from "../../src/errors.js";
import { breachOf, issueMessage, memberRuleSentence, ruleSentence } from "../../src/feedback/rules.js";

// One well-formed parameter record per keyword strictwire words: the table below must name every
// RuleKeyword (TypeScript refuses it otherwise), so a keyword added without a case here fails to compile.
const SAMPLES: { readonly [K in RuleKeyword]: RuleParams[K] } = {
  type: { type: "string" },
  enum: { allowedValues: ["a", "b"] },
  const: { allowedValue: "a" },
  minimum: { limit: 1 },
  maximum: { limit: 1 },
  exclusiveMinimum: { limit: 1 },
  exclusiveMaximum: { limit: 1 },
  multipleOf: { multipleOf: 3 },
  minLength: { limit: 2 },
  maxLength: { limit: 2 },
  pattern: { pattern: "^a$" },
  format: { format: "email" },
  minItems: { limit: 2 },
  maxItems: { limit: 2 },
  items: { limit: 2 },
  additionalItems: { limit: 2 },
  unevaluatedItems: { limit: 2 },
  uniqueItems: { i: 1, j: 0 },
  contains: { minContains: 2 },
  minProperties: { limit: 2 },
  maxProperties: { limit: 2 },
  not: {},
  "false schema": {},
  required: { missingProperty: "a" },
  dependentRequired: { property: "a", missingProperty: "b" },
  dependencies: { property: "a", missingProperty: "b" },
  additionalProperties: { additionalProperty: "x" },
  unevaluatedProperties: { unevaluatedProperty: "x" },
};

describe("typed breaches", () => {
  it("every worded keyword has words of its own, for a value or for a member, never the fallback", () => {
    for (const [keyword, params] of Object.entries(SAMPLES)) {
      const breach = breachOf(keyword, params);
      expect(breach, keyword).toEqual({ keyword, params });
      const member = memberRuleSentence(keyword, params);
      const sentence = ruleSentence({ keyword, params, data: "zz", message: "FALLBACK" });
      if (member === undefined) expect(sentence, keyword).not.toContain("FALLBACK");
      else expect(member.text.length, keyword).toBeGreaterThan(0);
    }
  });

  it("parameters that do not fit their keyword are no breach, and the validator's words stand", () => {
    expect(breachOf("minimum", { limit: "1" })).toBeUndefined();
    expect(breachOf("required", { missingProperty: 3 })).toBeUndefined();
    expect(breachOf("enum", {})).toBeUndefined();
    expect(breachOf("propertyNames", { propertyName: "x" })).toBeUndefined();
    expect(breachOf("__proto__", {})).toBeUndefined();
    expect(ruleSentence({ keyword: "minimum", params: { limit: "1" }, data: 0, message: "must be >= 1" })).toBe(
      "must be >= 1 (minimum)",
    );
    expect(issueMessage(breachOf("minimum", { limit: 1 }), "must be >= 1")).toBe("must be >= 1");
    expect(issueMessage(breachOf("enum", { allowedValues: [1, 2] }), "ajv")).toBe("must be one of [1,2]");
  });
});
