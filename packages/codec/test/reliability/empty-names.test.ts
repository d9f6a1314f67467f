/**
 * `""` is a member name like any other, also where it is required. ajv 8's
 * first-error code never found a missing `""` (its `missing = ""` is falsy),
 * so wherever presence is left to the validator (`dependentRequired`,
 * `dependencies`, `required` inside `anyOf`/`oneOf`/`if`, and the wire
 * schema's own `required`) a value without it was accepted.
 */
import { afterAll, describe, expect, test } from "vitest";
import { type Codec, compile, compileCodec, loadBundle, type Result } from "../../src/index.js";
import { codecForms, removeModules } from "./forms.js";

afterAll(removeModules);

function codecOf(schema: unknown): Codec {
  const c = compileCodec(schema, { name: "t" });
  if (!c.ok) throw new Error(`${c.error.code}: ${c.error.message}`);
  return c.value;
}

const verdict = (r: Result<unknown>): string => (r.ok ? "accepted" : r.error.code);

const CASES: { name: string; schema: Record<string, unknown>; without: unknown; with: unknown }[] = [
  {
    name: "required at the root",
    schema: { type: "object", properties: { "": { type: "integer" } }, required: [""] },
    without: {},
    with: { "": 1 },
  },
  {
    name: "required inside anyOf",
    schema: { type: "object", anyOf: [{ required: [""] }, { required: ["a"] }] },
    without: { b: 1 },
    with: { "": 1 },
  },
  {
    name: "required inside oneOf",
    schema: { type: "object", oneOf: [{ required: ["", "x"] }, { required: ["a"] }] },
    without: { x: 1 },
    with: { "": 1, x: 1 },
  },
  {
    name: "required inside if/then",
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
    schema: { type: "object", if: { required: ["a"] }, then: { required: [""] } },
    without: { a: 1 },
    with: { a: 1, "": 1 },
  },
  {
    name: "required in a definition behind allOf",
    schema: { type: "object", $defs: { d: { required: ["b", ""] } }, allOf: [{ $ref: "#/$defs/d" }] },
    without: { b: 1 },
    with: { b: 1, "": 1 },
  },
  {
    name: "dependentRequired",
    schema: { type: "object", dependentRequired: { a: [""] } },
    without: { a: 1 },
    with: { a: 1, "": 1 },
  },
  {
    name: "dependentRequired with other names",
    schema: { type: "object", dependentRequired: { a: ["b", ""], c: ["d"] } },
    without: { a: 1, b: 2 },
    with: { a: 1, b: 2, "": 3 },
  },
  {
    name: "draft-07 dependencies beside a schema dependency",
    schema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      dependencies: { a: [""], b: { required: ["c"] } },
    },
    without: { a: 1 },
    with: { a: 1, "": 1 },
  },
];

describe('"" as a required name', () => {
  test.each(CASES)("$name: a value without it is refused, with it accepted", async (c) => {
    // Every member used is declared (only declared members travel); presence is the keyword's to enforce.
    const names = Object.keys({ ...(c.without as object), ...(c.with as object) });
    const declared = Object.fromEntries(names.map((n) => [n, { type: "integer" }]));
    const schema = { properties: declared, ...c.schema };
    for (const [form, k] of await codecForms(schema)) {
      expect(verdict(k.validate(c.without)), form).toBe("contract-violation");
      expect(verdict(k.validate(c.with)), form).toBe("accepted");
      expect(verdict(k.encode(c.without)), form).toBe("invalid-value");
      const encoded = k.encode(c.with);
      expect(encoded.ok, `${form} ${JSON.stringify(encoded)}`).toBe(true);
      if (encoded.ok) expect(k.decode(JSON.stringify(encoded.value)), form).toEqual({ ok: true, value: c.with });
    }
  });

  test('the wire schema\'s own required [""] is enforced by the wire validator', () => {
    const bundle = compile({ type: "object", properties: { "": { type: "integer" } }, required: [""] }, { name: "t" });
    if (!bundle.ok) throw new Error(bundle.error.message);
    expect(bundle.value.wire).toMatchObject({ required: [""] });
    // The wire schema as a contract of its own: its validator alone decides.
    const wire = codecOf(bundle.value.wire);
    expect(verdict(wire.validate({}))).toBe("contract-violation");
    expect(verdict(wire.validate({ "": 1 }))).toBe("accepted");
    const codec = loadBundle(bundle.value);
    if (!codec.ok) throw new Error(codec.error.message);
    expect(verdict(codec.value.decode("{}", { checkWireSchema: true }))).toBe("wire-violation");
  });
});
