import { describe, expect, test } from "vitest";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { MixedNode } from "../../src/ir/nodes.js";
import { decode, encode, int, required, roundTrip, str, wire } from "./support.js";

describe("mixed: declared fields, and the dynamic members as entries", () => {
  const node: MixedNode = { kind: "mixed", fields: [required("name", str)], key: {}, value: int, schema: {} };

  test("its wire is {fields, entries}", () => {
    expect(wire(node)).toMatchObject({
      type: "object",
      required: ["fields", "entries"],
      additionalProperties: false,
      properties: {
        fields: { type: "object", required: ["name"] },
        entries: { type: "array", items: { required: ["key", "value"] } },
      },
    });
  });

  test("round-trips declared and dynamic members", () => {
    expect(roundTrip(node, { name: "a", x: 1, y: 2 })).toEqual({
      wire: {
        fields: { name: "a" },
        entries: [
          { key: "x", value: 1 },
          { key: "y", value: 2 },
        ],
      },
      back: { ok: true, value: { name: "a", x: 1, y: 2 } },
    });
  });

  test("an entry may not shadow a field nor repeat a key", () => {
    const shadow = { fields: { name: "a" }, entries: [{ key: "name", value: 1 }] };
    expect(decode(node, shadow)).toMatchObject({ ok: false, error: { code: "entry-shadows-field", path: "/name" } });
    const twice = {
      fields: { name: "a" },
      entries: [
        { key: "x", value: 1 },
        { key: "x", value: 2 },
      ],
    };
    expect(decode(node, twice)).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/x" } });
    expect(decode(node, { fields: { name: "a" } })).toMatchObject({ ok: false, error: { code: "wire-violation" } });
    expect(encode(node, { name: "a", x: "no" })).toMatchObject({ ok: false, error: { path: "/x" } });
  });

  test("children are its fields then the entries' value; never identity", () => {
    expect(childrenOf(node).map((c) => c.at)).toEqual(["name", "{}"]);
    expect(wireTypesOf(node, {}, new Set())).toEqual(["object"]);
    expect(isIdentity(node, {})).toBe(false);
  });
});
