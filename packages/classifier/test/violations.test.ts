import { describe, expect, test } from "vitest";
import { checkSchema, classify, repairLines, schemaViolations } from "../src/index.js";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("ajv errors in the seed's wording, one line per problem", () => {
  test("the seed's four: type, enum, required, extra keys", () => {
    const schema = obj(
      { amount_cents: { type: "integer" }, currency: { type: "string", enum: ["usd", "eur"] } },
      { required: ["amount_cents", "currency", "account_id"], additionalProperties: false },
    );
    expect(schemaViolations({ amount_cents: "1200", currency: "gbp", idempotency_key: "k" }, schema)).toEqual([
      "arguments.account_id: required and missing",
      "arguments.idempotency_key: not declared, and the schema forbids extra keys",
      "arguments.amount_cents: expected integer, got string",
      'arguments.currency: "gbp" is not one of the 2 declared value(s)',
    ]);
  });

  test("a wrong type is reported alone, as in the seed", () => {
    expect(schemaViolations({ c: 3 }, obj({ c: { type: "string", enum: ["a"], minLength: 2 } }))).toEqual([
      "arguments.c: expected string, got integer",
    ]);
  });

  test("union types list every allowed type", () => {
    expect(schemaViolations({ c: 1.5 }, obj({ c: { type: ["string", "null"] } }))).toEqual([
      "arguments.c: expected string or null, got number",
    ]);
  });

  test("numbers: minimum, maximum, exclusive bounds, multipleOf", () => {
    const schema = obj({
      a: { minimum: 1 },
      b: { maximum: 10 },
      c: { exclusiveMinimum: 0 },
      d: { exclusiveMaximum: 5 },
      e: { multipleOf: 5 },
    });
    expect(schemaViolations({ a: 0, b: 11, c: 0, d: 5, e: 7 }, schema)).toEqual([
      "arguments.a: 0 is less than the minimum of 1",
      "arguments.b: 11 is greater than the maximum of 10",
      "arguments.c: 0 must be greater than 0",
      "arguments.d: 5 must be less than 5",
      "arguments.e: 7 is not a multiple of 5",
    ]);
  });

  test("strings: lengths, pattern and format", () => {
    const schema = obj({
      code: { type: "string", minLength: 3, pattern: "^[A-Z]+$" },
      name: { type: "string", maxLength: 2 },
      email: { type: "string", format: "email" },
    });
    expect(schemaViolations({ code: "ab", name: "héllo", email: "nope" }, schema)).toEqual([
      'arguments.code: "ab" has 2 character(s), fewer than the minimum of 3',
      'arguments.code: "ab" does not match the pattern ^[A-Z]+$',
      'arguments.name: "héllo" has 5 character(s), more than the maximum of 2',
      'arguments.email: "nope" is not a valid email',
    ]);
  });

  test("arrays: item counts, uniqueness, contains", () => {
    const schema = obj({
      tags: { type: "array", minItems: 3, uniqueItems: true },
      few: { type: "array", maxItems: 1 },
      has: { type: "array", contains: { type: "string" } },
    });
    expect(schemaViolations({ tags: ["a", "a"], few: [1, 2], has: [1] }, schema)).toEqual([
      "arguments.tags: 2 item(s), fewer than the minimum of 3",
      "arguments.tags: items [0] and [1] are equal, and the schema requires unique items",
      "arguments.few: 2 item(s), more than the maximum of 1",
      "arguments.has: no item matches the contains schema",
    ]);
  });

  test("tuples in 2020-12: prefixItems then items:false", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false,
    };
    expect(schemaViolations([1, 2], schema)).toEqual([
      "arguments[0]: expected string, got integer",
      "arguments: 2 item(s), more than the 1 the schema declares",
    ]);
  });

  test("objects: property counts, key names, dependencies, const, not, false", () => {
    const schema = obj(
      {
        meta: { type: "object", maxProperties: 1, propertyNames: { pattern: "^[a-z]+$" } },
        kind: { const: "card" },
        note: { not: { type: "string" } },
        never: false,
      },
      { dependentRequired: { card: ["cvc"] } },
    );
    const value = { meta: { Ab: 1, b: 2 }, kind: "iban", note: "x", never: 1, card: "4242" };
    expect(schemaViolations(value, { ...schema, $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual([
      "arguments.meta: 2 key(s), more than the maximum of 1",
      'arguments.meta: the key "Ab" is not an allowed key name ("Ab" does not match the pattern ^[a-z]+$)',
      'arguments.kind: "iban" is not the declared constant "card"',
      "arguments.note: matches a schema it is declared not to match (not)",
      "arguments.never: not allowed here (the schema for it is false)",
      'arguments.cvc: required because "card" is present, and missing',
    ]);
  });

  test("anyOf names each alternative's own problems, even through $ref", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { card: { type: "object", required: ["number"], properties: { number: { pattern: "^\\d{16}$" } } } },
      ...obj({ pay: { anyOf: [{ $ref: "#/$defs/card" }, { type: "null" }] } }),
    };
    expect(schemaViolations({ pay: { number: "12" } }, schema)).toEqual([
      'arguments.pay: matches none of the 2 alternatives of anyOf (anyOf[0]: arguments.pay.number: "12" does not ' +
        "match the pattern ^\\d{16}$ | anyOf[1]: expected null, got object)",
    ]);
  });

  test("nested alternatives are explained inside their parent", () => {
    const nullable = (inner: unknown) => ({ anyOf: [inner, { type: "null" }] });
    const schema = obj({ box: nullable(obj({ x: nullable({ type: "string" }) }, { required: ["x"] })) });
    expect(schemaViolations({ box: { x: 5 } }, schema)).toEqual([
      "arguments.box: matches none of the 2 alternatives of anyOf (anyOf[0]: arguments.box.x: matches none of " +
        "the 2 alternatives of anyOf (anyOf[0]: expected string, got integer | anyOf[1]: expected null, got integer) " +
        "| anyOf[1]: expected null, got object)",
    ]);
  });

  test("oneOf: none matching, and more than one matching", () => {
    const schema = obj({
      n: { oneOf: [{ type: "integer" }, { type: "number" }] },
      s: { oneOf: [{ type: "integer" }] },
    });
    expect(schemaViolations({ n: 3, s: "x" }, schema)).toEqual([
      "arguments.n: matches 2 alternatives of oneOf (oneOf[0] and oneOf[1]), and must match exactly one",
      "arguments.s: matches none of the 1 alternatives of oneOf (oneOf[0]: expected integer, got string)",
    ]);
  });

  test("if/then reports the failing then keyword, not the if", () => {
    // biome-ignore lint/suspicious/noThenProperty: "then" is the JSON Schema keyword under test.
    const schema = { if: obj({ kind: { const: "card" } }), then: { required: ["number"] } };
    expect(schemaViolations({ kind: "card" }, schema)).toEqual(["arguments.number: required and missing"]);
  });

  test("draft-07 definitions, tuple items and additionalItems", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { sku: { type: "string" } },
      type: "array",
      items: [{ $ref: "#/definitions/sku" }],
      additionalItems: false,
    };
    expect(schemaViolations([1, 2], schema)).toEqual([
      "arguments: 2 item(s), more than the 1 the schema declares",
      "arguments[0]: expected string, got integer",
    ]);
  });

  test("odd keys and keys named like indexes keep a readable, unambiguous path", () => {
    const schema = obj({ "first name": { type: "string" }, "0": obj({ a: { type: "string" } }) });
    expect(schemaViolations({ "first name": 1, "0": { a: 1 } }, schema)).toEqual([
      'arguments["0"].a: expected string, got integer',
      'arguments["first name"]: expected string, got integer',
    ]);
  });

  test("a long value is cut short in the detail", () => {
    const [line] = schemaViolations({ s: "x".repeat(500) }, obj({ s: { enum: ["a"] } }));
    expect(line).toMatch(/^arguments\.s: "x{58}… is not one of the 1 declared value\(s\)$/);
  });
});

describe("drafts and broken schemas", () => {
  test("2019-09, draft-04 and unknown $schema values are validated, not refused", () => {
    const base = obj({ a: { type: "string" } });
    for (const $schema of [
      "https://json-schema.org/draft/2019-09/schema",
      "http://json-schema.org/draft-04/schema#",
      "https://example.com/my-dialect",
    ]) {
      expect(schemaViolations({ a: 1 }, { $schema, ...base })).toEqual(["arguments.a: expected string, got integer"]);
    }
  });

  test("two different schemas sharing one $id do not collide", () => {
    const one = { $id: "https://example.com/args", ...obj({ a: { type: "string" } }) };
    const two = { $id: "https://example.com/args", ...obj({ a: { type: "integer" } }) };
    expect(schemaViolations({ a: 1 }, one)).toEqual(["arguments.a: expected string, got integer"]);
    expect(schemaViolations({ a: 1 }, two)).toEqual([]);
    expect(schemaViolations({ a: "x" }, structuredClone(one))).toEqual([]);
  });

  test("an invalid schema is reported, never thrown", () => {
    expect(checkSchema({}, obj({ a: { type: "strng" } }))).toMatchObject({
      kind: "invalid-schema",
      message: expect.stringContaining("schema is invalid"),
    });
    expect(checkSchema({}, { $ref: "#/definitions/nowhere" })).toMatchObject({ kind: "invalid-schema" });
    expect(checkSchema({}, obj({ a: { pattern: "(?<" } }))).toMatchObject({ kind: "invalid-schema" });
    expect(checkSchema({}, ["not", "a", "schema"])).toMatchObject({ kind: "invalid-schema" });
    expect(schemaViolations({}, { $ref: "#/nowhere" })[0]).toMatch(/^arguments: the declared schema cannot be used/);
  });

  test("a call against a tool whose schema cannot compile is schema-invalid, a finding with its repair", () => {
    const tools = new Map([["t", { parameters: obj({ a: { type: "strng" } }), strict: true }]]);
    const { state, detail } = classify({ name: "t", callId: "c", arguments: '{"a": 1}' }, tools);
    expect(state).toBe("schema-invalid");
    expect(detail).toContain("the parameters schema declared for 't' cannot be compiled");
    expect(repairLines(state, "t")[0]).toContain("Fix the parameters schema of tool t");
  });

  test("boolean schemas: true allows anything, false nothing", () => {
    expect(schemaViolations({ a: 1 }, true)).toEqual([]);
    expect(schemaViolations({ a: 1 }, false)).toEqual(["arguments: not allowed here (the schema for it is false)"]);
  });

  test("a detail lists twenty problems and counts the rest", () => {
    const properties = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`p${i}`, { type: "string" }]));
    const tools = { t: { parameters: obj(properties), strict: true } };
    const args = JSON.stringify(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`p${i}`, i])));
    const { detail } = classify({ name: "t", callId: "c", arguments: args }, tools);
    expect(detail).toContain("break the declared schema in 25 place(s)");
    expect(detail).toContain("arguments.p19: expected string");
    expect(detail).not.toContain("arguments.p20:");
    expect(detail).toMatch(/; and 5 more$/);
  });
});
