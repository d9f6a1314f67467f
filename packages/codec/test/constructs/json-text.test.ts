import { describe, expect, test } from "vitest";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { JsonTextNode } from "../../src/ir/nodes.js";
import { decode, encode, roundTrip, wire } from "./support.js";

describe("json-text: any JSON value written as JSON text in a string", () => {
  const node: JsonTextNode = { kind: "json-text", schema: {} };

  test("its wire is a string", () => {
    expect(wire(node)).toEqual({ description: "a JSON value, written as JSON text", type: "string" });
  });

  test("round-trips any JSON value through its text", () => {
    const value = { a: [1, "x", null], b: { c: true } };
    expect(roundTrip(node, value)).toEqual({ wire: JSON.stringify(value), back: { ok: true, value } });
  });

  test("the text inside is read by the bounded parser: no duplicate key, nothing that is not JSON", () => {
    expect(decode(node, '{"a":1,"a":2}')).toMatchObject({ ok: false, error: { path: "" } });
    expect(decode(node, "{")).toMatchObject({ ok: false });
    expect(decode(node, 3)).toMatchObject({ ok: false, error: { code: "wire-violation" } });
    expect(encode(node, undefined)).toMatchObject({ ok: false, error: { code: "invalid-value" } });
  });

  test("no children; a string on the wire; never identity", () => {
    expect(childrenOf(node)).toEqual([]);
    expect(wireTypesOf(node, {}, new Set())).toEqual(["string"]);
    expect(isIdentity(node, {})).toBe(false);
  });
});
