/** Dynamic references with one possible target compile as the plain references they are. */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

const S2020 = "https://json-schema.org/draft/2020-12/schema";

/** A tree whose children refer back through the only `$dynamicAnchor` of the document. */
const tree = {
  $schema: S2020,
  $id: "https://example.test/tree",
  $dynamicAnchor: "node",
  type: "object",
  properties: {
    name: { type: "string" },
    children: { type: "array", items: { $dynamicRef: "#node" } },
  },
  required: ["name"],
};

describe("dynamic references", () => {
  it("a $dynamicRef to the document's only $dynamicAnchor compiles, validates and round-trips", () => {
    const c = compileCodec(tree);
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    const value = { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] };
    expect(c.value.validate(value).ok).toBe(true);
    expect(c.value.validate({ name: "a", children: [{ children: [] }] }).ok).toBe(false);
    const e = c.value.encode(value);
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value });
  });

  it("a $dynamicRef whose anchor several resources declare is still refused: the scope would choose", () => {
    const extended = {
      $schema: S2020,
      $id: "https://example.test/strict-tree",
      $dynamicAnchor: "node",
      $ref: "tree",
      unevaluatedProperties: false,
      $defs: { tree },
    };
    const r = compile(extended);
    expect(r.ok ? undefined : r.error.code).toBe("dynamic-ref");
  });

  it("a $dynamicRef with no dynamic anchor of its name behaves as $ref", () => {
    const c = compileCodec({
      $schema: S2020,
      type: "object",
      properties: { v: { $dynamicRef: "#/$defs/n" } },
      $defs: { n: { type: "integer" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ v: 1 }).ok).toBe(true);
    expect(c.value.validate({ v: "1" }).ok).toBe(false);
  });

  it("a 2019-09 $recursiveRef with a single $recursiveAnchor compiles", () => {
    const c = compileCodec({
      $schema: "https://json-schema.org/draft/2019-09/schema",
      $recursiveAnchor: true,
      type: "object",
      properties: { next: { $recursiveRef: "#" }, v: { type: "integer" } },
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ v: 1, next: { v: 2 } }).ok).toBe(true);
    expect(c.value.validate({ next: { v: "x" } }).ok).toBe(false);
  });
});
