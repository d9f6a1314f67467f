/** References follow their definition; any JSON, and JSON text, carry every value. */
import { describe, expect, test } from "vitest";
import { wireOf } from "../../src/constructs/compile/registry.js";
import { wireTypesOf } from "../../src/constructs/registry.js";
import type { AnyNode, ArrayNode, JsonTextNode, RefNode } from "../../src/ir/nodes.js";
import { JSON_TYPES } from "../../src/json.js";
import { decode, roundTrip, wire, wireContext } from "./support.js";

describe("reference: both directions follow the referent", () => {
  const tree: ArrayNode = { kind: "array", items: { kind: "ref", def: "Tree" }, schema: {} };
  const defs = { Tree: tree };
  const ref: RefNode = { kind: "ref", def: "Tree" };

  test("recursion round-trips; the wire names the definition", () => {
    expect(roundTrip(ref, [[], [[]]], defs)).toEqual({ wire: [[], [[]]], back: { ok: true, value: [[], [[]]] } });
    expect(wire(ref, defs)).toEqual({ $ref: "#/$defs/Tree" });
  });

  test("wire types through a cycle: what the referent has, anything inside the cycle", () => {
    expect(wireTypesOf(ref, defs, new Set())).toEqual(["array"]);
    expect(wireTypesOf(ref, defs, new Set(["Tree"]))).toEqual(JSON_TYPES);
  });
});

describe("any: every JSON value, objects as entries", () => {
  const any: AnyNode = { kind: "any", schema: {} };

  test("objects travel as {entries}, the rest as themselves", () => {
    expect(roundTrip(any, { a: [1, { b: null }] })).toEqual({
      wire: { entries: [{ key: "a", value: [1, { entries: [{ key: "b", value: null }] }] }] },
      back: { ok: true, value: { a: [1, { b: null }] } },
    });
    const wctx = wireContext();
    expect(wireOf(any, wctx)).toEqual({ $ref: "#/$defs/strictwire_json" });
    expect(Object.keys(wctx.extraDefs)).toEqual(["strictwire_json"]);
  });

  test("a repeated entry key is duplicate-entry", () => {
    expect(
      decode(any, {
        entries: [
          { key: "a", value: 1 },
          { key: "a", value: 2 },
        ],
      }),
    ).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/a" } });
  });
});

describe("json-text: any JSON value as a string of JSON", () => {
  const text: JsonTextNode = { kind: "json-text", schema: {} };

  test("round-trips through the bounded parser", () => {
    expect(roundTrip(text, { a: [1] })).toEqual({ wire: '{"a":[1]}', back: { ok: true, value: { a: [1] } } });
    expect(wire(text)).toMatchObject({ type: "string" });
  });

  test("text that does not parse, or repeats a key, is refused with the parser's code", () => {
    expect(decode(text, "{")).toMatchObject({ ok: false });
    expect(decode(text, '{"a":1,"a":2}')).toMatchObject({ ok: false, error: { code: "duplicate-key" } });
    expect(decode(text, 1)).toMatchObject({ ok: false, error: { code: "wire-violation" } });
  });
});
