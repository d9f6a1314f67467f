import { describe, expect, test } from "vitest";
import { ANY_DEF } from "../../src/constructs/compile/any.js";
import { wireOf } from "../../src/constructs/compile/registry.js";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { AnyNode } from "../../src/ir/nodes.js";
import { JSON_TYPES } from "../../src/json.js";
import { decode, encode, roundTrip, wireContext } from "./support.js";

describe("any: every JSON value, objects as entries", () => {
  const node: AnyNode = { kind: "any", schema: { description: "anything" } };

  test("its wire is a reference to the any-JSON definition, which it asks for", () => {
    const wctx = wireContext();
    expect(wireOf(node, wctx)).toEqual({ description: "anything", $ref: `#/$defs/${ANY_DEF}` });
    expect(Object.keys(wctx.extraDefs)).toEqual([ANY_DEF]);
  });

  test("round-trips scalars, arrays and nested objects (a __proto__ key stays data)", () => {
    const value = JSON.parse('{"a":[1,{"b":null}],"__proto__":{"c":"x"}}');
    const { wire, back } = roundTrip(node, value);
    expect(wire).toEqual({
      entries: [
        { key: "a", value: [1, { entries: [{ key: "b", value: null }] }] },
        { key: "__proto__", value: { entries: [{ key: "c", value: "x" }] } },
      ],
    });
    expect(back).toEqual({ ok: true, value });
    expect(Object.getPrototypeOf(back.ok && back.value)).toBe(Object.prototype);
    for (const v of ["s", 0, true, null, []]) expect(roundTrip(node, v).back).toEqual({ ok: true, value: v });
  });

  test("refuses what is no JSON value, a malformed object and a repeated key", () => {
    expect(encode(node, { a: Number.NaN })).toMatchObject({ ok: false, error: { code: "invalid-value", path: "/a" } });
    expect(decode(node, { a: 1 })).toMatchObject({ ok: false, error: { code: "wire-violation" } });
    const twice = {
      entries: [
        { key: "k", value: 1 },
        { key: "k", value: 2 },
      ],
    };
    expect(decode(node, twice)).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/k" } });
  });

  test("no children; any wire type; never identity", () => {
    expect(childrenOf(node)).toEqual([]);
    expect(wireTypesOf(node, {}, new Set())).toEqual(JSON_TYPES);
    expect(isIdentity(node, {})).toBe(false);
  });
});
