/** Dynamic members as {key, value} entries (maps), and declared members beside them (mixed). */
import { describe, expect, test } from "vitest";
import { childrenOf, wireTypesOf } from "../../src/constructs/registry.js";
import type { MapNode, MixedNode } from "../../src/ir/nodes.js";
import { decode, encode, int, optional, roundTrip, str, wire } from "./support.js";

describe("map: entries [{key, value}]", () => {
  const node: MapNode = { kind: "map", key: { pattern: "^[a-z]+$" }, value: int, schema: { maxItems: 9 } };

  test("its wire is an array of closed entries, the key keeping its schema", () => {
    expect(wire(node)).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { key: { pattern: "^[a-z]+$" }, value: { type: "integer" } },
        required: ["key", "value"],
        additionalProperties: false,
      },
      maxItems: 9,
    });
  });

  test("round-trips, __proto__ included as a plain key", () => {
    const value = JSON.parse('{"a":1,"__proto__":2}') as Record<string, unknown>;
    const { wire: w, back } = roundTrip(node, value);
    expect(w).toEqual([
      { key: "a", value: 1 },
      { key: "__proto__", value: 2 },
    ]);
    expect(back.ok && Object.hasOwn(back.value as object, "__proto__")).toBe(true);
  });

  test("a repeated key is duplicate-entry; a malformed entry a wire-violation", () => {
    expect(
      decode(node, [
        { key: "a", value: 1 },
        { key: "a", value: 2 },
      ]),
    ).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/a" } });
    expect(decode(node, [{ key: "a" }])).toMatchObject({ ok: false, error: { code: "wire-violation" } });
    expect(encode(node, [])).toMatchObject({ ok: false, error: { code: "invalid-value" } });
  });

  test("one child, the value; wire type array", () => {
    expect(childrenOf(node)).toEqual([{ node: int, at: "{}" }]);
    expect(wireTypesOf(node, {}, new Set())).toEqual(["array"]);
  });
});

describe("mixed: {fields, entries}", () => {
  const node: MixedNode = { kind: "mixed", fields: [optional("name", str)], key: {}, value: int, schema: {} };

  test("declared members under fields, the rest as entries", () => {
    expect(roundTrip(node, { name: "n", x: 1 })).toEqual({
      wire: { fields: { name: { state: "present", value: "n" } }, entries: [{ key: "x", value: 1 }] },
      back: { ok: true, value: { name: "n", x: 1 } },
    });
    expect(wire(node)).toMatchObject({ required: ["fields", "entries"], additionalProperties: false });
  });

  test("an entry may not shadow a declared field", () => {
    expect(decode(node, { fields: { name: { state: "absent" } }, entries: [{ key: "name", value: 1 }] })).toMatchObject(
      { ok: false, error: { code: "entry-shadows-field", path: "/name" } },
    );
  });

  test("children: the members, then the dynamic value", () => {
    expect(childrenOf(node).map((c) => c.at)).toEqual(["name", "{}"]);
  });
});
