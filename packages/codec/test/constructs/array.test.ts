import { describe, expect, test } from "vitest";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { ArrayNode, MapNode } from "../../src/ir/nodes.js";
import { decode, encode, int, roundTrip, str, wire } from "./support.js";

describe("array: each element in its item's wire form", () => {
  const ints: ArrayNode = { kind: "array", items: int, schema: { maxItems: 3 } };

  test("its wire is an array of the item's wire, with its own keywords", () => {
    expect(wire(ints)).toEqual({ type: "array", items: { type: "integer" }, maxItems: 3 });
  });

  test("round-trips, element by element", () => {
    expect(roundTrip(ints, [1, 2])).toEqual({ wire: [1, 2], back: { ok: true, value: [1, 2] } });
    const maps: ArrayNode = { kind: "array", items: { kind: "map", key: {}, value: str, schema: {} }, schema: {} };
    expect(roundTrip(maps, [{ a: "x" }])).toEqual({
      wire: [[{ key: "a", value: "x" }]],
      back: { ok: true, value: [{ a: "x" }] },
    });
  });

  test("a failing element is named by its index", () => {
    expect(encode(ints, [1, "x"])).toMatchObject({ ok: false, error: { code: "invalid-value", path: "/1" } });
    expect(decode(ints, {})).toMatchObject({ ok: false, error: { code: "wire-violation", path: "" } });
  });

  test("one child, its items; identity when the items are", () => {
    expect(childrenOf(ints)).toEqual([{ node: int, at: "[]" }]);
    expect(wireTypesOf(ints, {}, new Set())).toEqual(["array"]);
    expect(isIdentity(ints, {})).toBe(true);
    const map: MapNode = { kind: "map", key: {}, value: int, schema: {} };
    expect(isIdentity({ ...ints, items: map }, {})).toBe(false);
  });
});
