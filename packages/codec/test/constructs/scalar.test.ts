import { describe, expect, test } from "vitest";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { ScalarNode } from "../../src/ir/nodes.js";
import { decode, encode, int, roundTrip, str, wire } from "./support.js";

describe("scalar: travels as itself", () => {
  const choice: ScalarNode = { kind: "scalar", schema: { type: "string", enum: ["a", "b"] }, types: ["string"] };

  test("its wire is its schema", () => {
    expect(wire(choice)).toEqual({ type: "string", enum: ["a", "b"] });
  });

  test("encode and decode are the identity for its JSON types", () => {
    expect(roundTrip(str, "x")).toEqual({ wire: "x", back: { ok: true, value: "x" } });
    expect(roundTrip(int, 3)).toEqual({ wire: 3, back: { ok: true, value: 3 } });
  });

  test("another JSON type is invalid-value to encode and a wire-violation to decode", () => {
    expect(encode(str, 1)).toMatchObject({ ok: false, error: { code: "invalid-value", path: "" } });
    expect(decode(str, null)).toMatchObject({
      ok: false,
      error: { code: "wire-violation", message: "expected string" },
    });
  });

  test("no children; its wire types are its types; identity", () => {
    expect(childrenOf(choice)).toEqual([]);
    expect(wireTypesOf(int, {}, new Set())).toEqual(["number"]);
    expect(isIdentity(str, {})).toBe(true);
  });
});
