/**
 * A valid value must have a wire form. An array whose items no value
 * satisfies, and a map whose values no value satisfies, still hold one valid
 * value: the empty container. Such a member was dropped from the wire as
 * "never present", so `encode({e: []})` failed with `undeclared-member` (and
 * advised openObjects "preserve" even when it was set).
 */
import { afterAll, describe, expect, test } from "vitest";
import { object as objectConstruct } from "../../src/constructs/object.js";
import { encodeContext } from "../constructs/support.js";
import { codecForms, removeModules } from "./forms.js";

afterAll(removeModules);

/** No value satisfies it: its parts have no type in common. */
const NEVER = { allOf: [{ type: "string" }, { type: "integer" }] };

const CASES = [
  { name: "an array of unsatisfiable items", e: { type: "array", items: NEVER }, empty: [], other: [1] },
  {
    name: "a tuple whose every position is unsatisfiable",
    e: { type: "array", prefixItems: [NEVER], items: false },
    empty: [],
    other: ["x"],
  },
  {
    name: "a map of unsatisfiable values",
    e: { type: "object", additionalProperties: NEVER },
    empty: {},
    other: { k: 1 },
  },
  {
    name: "a map by pattern of unsatisfiable values",
    e: { type: "object", patternProperties: { "^k": NEVER }, additionalProperties: false },
    empty: {},
    other: { k: "x" },
  },
  {
    name: "declared members beside unsatisfiable other values",
    e: { type: "object", properties: { a: { type: "string" } }, additionalProperties: NEVER },
    empty: { a: "x" },
    other: { a: "x", k: 1 },
  },
] as const;

describe("an empty container whose contents no value satisfies travels", () => {
  test.each(CASES)("$name, optional, under each openObjects", async (c) => {
    for (const openObjects of ["close", "preserve"] as const) {
      const schema = { type: "object", properties: { e: c.e, x: { type: "string" } }, additionalProperties: false };
      for (const [form, codec] of await codecForms(schema, { openObjects })) {
        const at = `${form} ${openObjects}`;
        const value = { e: c.empty };
        const encoded = codec.encode(value);
        expect(encoded.ok, `${at} ${JSON.stringify(encoded)}`).toBe(true);
        if (encoded.ok) expect(codec.decode(JSON.stringify(encoded.value)), at).toEqual({ ok: true, value });
        expect(codec.encode({}).ok, at).toBe(true);
        const other = codec.encode({ e: c.other });
        expect(other.ok ? "accepted" : other.error.code, at).toBe("invalid-value");
      }
    }
  });

  test.each(CASES)("$name, required, compiles: its empty form is a valid value", async (c) => {
    const schema = { type: "object", properties: { e: c.e }, required: ["e"], additionalProperties: false };
    for (const [form, codec] of await codecForms(schema)) {
      const encoded = codec.encode({ e: c.empty });
      expect(encoded.ok, form).toBe(true);
      if (encoded.ok)
        expect(codec.decode(JSON.stringify(encoded.value)), form).toEqual({ ok: true, value: { e: c.empty } });
    }
  });
});

describe("undeclared-member advice", () => {
  const closed = { kind: "object" as const, fields: [], schema: {} };
  const messageFor = (openObjects: "close" | "preserve"): string => {
    const ctx = { ...encodeContext(), openObjects };
    objectConstruct.encode(closed, { b: 1 }, ctx);
    return ctx.error?.message ?? "";
  };

  test('advises openObjects "preserve" only when it is not set', () => {
    expect(messageFor("close")).toMatch(/compile with openObjects "preserve"/);
    expect(messageFor("preserve")).not.toMatch(/preserve/);
    expect(messageFor("preserve")).toMatch(/the schema closes this object/);
  });
});
