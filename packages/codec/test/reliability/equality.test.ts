/**
 * Deep equality is JSON equality, whatever the member names. ajv's own
 * (fast-deep-equal) called `valueOf`/`toString` on data that has members of
 * those names (a TypeError out of decode, encode, even compile) and compared
 * `constructor` by identity (equal items with such a member never equal:
 * `uniqueItems` took duplicates, `const` refused its own value). Each case
 * runs on the three ways a codec exists: compiled in memory, loaded from a
 * JSON bundle, and a generated module (validators as code).
 */
import { afterAll, describe, expect, test } from "vitest";
import { compile } from "../../src/index.js";
import { codecForms as codecs, removeModules } from "./forms.js";

afterAll(removeModules);

const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** Member names ajv's equality treated as behaviour. */
const NAMES = ["valueOf", "toString", "constructor", "hasOwnProperty", "__proto__", ""];

/** An object with one own member (JSON.parse keeps "__proto__" as data). */
const one = (name: string, value: unknown): Record<string, unknown> =>
  JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`) as Record<string, unknown>;

describe("uniqueItems over maps (the issue's case)", () => {
  const schema = object({
    tags: { type: "array", uniqueItems: true, items: { type: "object", additionalProperties: { type: "integer" } } },
  });

  test("distinct items with a valueOf member decode; equal ones are refused", async () => {
    for (const [form, codec] of await codecs(schema)) {
      const text = '{"tags":[[{"key":"valueOf","value":1}],[{"key":"valueOf","value":2}]]}';
      expect(codec.decode(text), form).toEqual({ ok: true, value: { tags: [{ valueOf: 1 }, { valueOf: 2 }] } });
      const same = codec.decode('{"tags":[[{"key":"valueOf","value":1}],[{"key":"valueOf","value":1}]]}');
      expect(same.ok ? "accepted" : same.error.code, form).toBe("contract-violation");
    }
  });

  test.each(NAMES)("member %j: distinct items travel, equal items are duplicates", async (name) => {
    for (const [form, codec] of await codecs(schema)) {
      const distinct = { tags: [one(name, 1), one(name, 2)] };
      const encoded = codec.encode(distinct);
      expect(encoded.ok, form).toBe(true);
      if (encoded.ok) expect(codec.decode(JSON.stringify(encoded.value)), form).toEqual({ ok: true, value: distinct });
      const duplicate = codec.encode({ tags: [one(name, 1), one(name, 1)] });
      expect(duplicate.ok ? "accepted" : duplicate.error.code, form).toBe("invalid-value");
      expect(codec.validate({ tags: [one(name, 3), one(name, 3)] }).ok, form).toBe(false);
    }
  });

  test("key order does not make two items different", async () => {
    for (const [form, codec] of await codecs(schema)) {
      expect(
        codec.validate({
          tags: [
            { constructor: 1, a: 2 },
            { a: 2, constructor: 1 },
          ],
        }).ok,
        form,
      ).toBe(false);
      expect(codec.validate({ tags: [{ constructor: 1 }, { constructor: 1, a: 2 }] }).ok, form).toBe(true);
    }
  });
});

describe("uniqueItems over any values", () => {
  test.each(NAMES)("member %j inside nested arrays and objects", async (name) => {
    const schema = object({ xs: { type: "array", uniqueItems: true } });
    for (const [form, codec] of await codecs(schema)) {
      expect(codec.validate({ xs: [[one(name, [1])], [one(name, [1])]] }).ok, form).toBe(false);
      expect(codec.validate({ xs: [[one(name, [1])], [one(name, [2])], 1, "1"] }).ok, form).toBe(true);
    }
  });
});

describe("const and enum with object values", () => {
  test("compile({enum: [{valueOf: 1}, {valueOf: 2}]}) compiles, and its values are told apart", async () => {
    for (const [form, codec] of await codecs({ enum: [{ valueOf: 1 }, { valueOf: 2 }] })) {
      expect(codec.validate({ valueOf: 2 }).ok, form).toBe(true);
      expect(codec.validate({ valueOf: 3 }).ok, form).toBe(false);
    }
  });

  test("const {constructor: [1]} accepts its own value and round-trips", async () => {
    const schema = object({ a: { const: { constructor: [1] } } });
    for (const [form, codec] of await codecs(schema)) {
      const value = { a: { constructor: [1] } };
      const encoded = codec.encode(value);
      expect(encoded.ok, form).toBe(true);
      if (encoded.ok) expect(codec.decode(JSON.stringify(encoded.value)), form).toEqual({ ok: true, value });
      expect(codec.validate({ a: { constructor: [2] } }).ok, form).toBe(false);
    }
  });

  test.each(NAMES)("member %j: const and enum hold exactly their values", async (name) => {
    const schema = object({ c: { const: one(name, { v: 1 }) }, e: { enum: [one(name, 1), one(name, "1"), 7] } });
    for (const [form, codec] of await codecs(schema)) {
      const value = { c: one(name, { v: 1 }), e: one(name, "1") };
      const encoded = codec.encode(value);
      expect(encoded.ok, `${form} ${JSON.stringify(encoded)}`).toBe(true);
      if (encoded.ok) expect(codec.decode(JSON.stringify(encoded.value)), form).toEqual({ ok: true, value });
      expect(codec.validate({ c: one(name, { v: 2 }), e: 7 }).ok, form).toBe(false);
      expect(codec.validate({ c: one(name, { v: 1 }), e: one(name, 2) }).ok, form).toBe(false);
    }
  });

  test("an enum long enough to be checked in a loop", async () => {
    const values = Array.from({ length: 250 }, (_, i) => ({ valueOf: i }));
    for (const [form, codec] of await codecs({ enum: values })) {
      expect(codec.validate({ valueOf: 249 }).ok, form).toBe(true);
      expect(codec.validate({ valueOf: 250 }).ok, form).toBe(false);
    }
  });

  test("a draft-04 enum (its meta-schema holds uniqueItems) with such values compiles", () => {
    const bundle = compile({
      $schema: "http://json-schema.org/draft-04/schema#",
      enum: [{ valueOf: 1 }, { toString: 2 }],
    });
    expect(bundle.ok).toBe(true);
  });
});
