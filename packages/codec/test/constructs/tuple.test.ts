import { describe, expect, test } from "vitest";
import { tupleCompiler } from "../../src/constructs/compile/tuple.js";
import { FAIL } from "../../src/constructs/context.js";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import { compileDecoder } from "../../src/generate/decoder.js";
import { type ObjectNode, type Plan, type TupleNode, tupleShape } from "../../src/ir/nodes.js";
import { originalSteps } from "../../src/wire/paths.js";
import { decode, decodeState, encode, int, optional, required, roundTrip, str, wire } from "./support.js";

const point: ObjectNode = { kind: "object", fields: [required("x", int)], schema: {} };
/** [string, integer, {x}?, ...integer[]]: two required positions, one optional, then integers. */
const objectForm: TupleNode = {
  kind: "tuple",
  schema: {},
  positions: [required("0", str), required("1", int), optional("2", point, "tagged")],
  rest: int,
  form: "object",
};
const arrayForm: TupleNode = { ...objectForm, form: "array", positions: [required("0", str), optional("1", int)] };
const { rest: _rest, ...closed }: TupleNode = arrayForm;

const state = decodeState;

/** The generated decoder of a plan whose root is `node` (wrapped: a tuple is no object at the top). */
const generated = (node: TupleNode) => {
  const plan: Plan = { root: node, envelope: "arguments", defs: {}, relaxed: [], nodes: 1 };
  const run = compileDecoder(plan);
  return (w: unknown) => {
    const s = state();
    const out = run({ arguments: w }, s);
    // A member it did not read fails the text's member count (namesOnce, parse/native.ts): that count, here.
    return s.members === members(w) + 1 ? out : FAIL;
  };
};

const members = (v: unknown): number =>
  typeof v !== "object" || v === null
    ? 0
    : Object.values(v).reduce<number>((n, c) => n + members(c), Array.isArray(v) ? 0 : Object.keys(v).length);

describe("tuple, object form: one member per position, then rest", () => {
  test("its wire holds each position to its own schema", () => {
    const w = wire(objectForm) as { properties: Record<string, unknown>; required: string[] };
    expect(w).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(w.properties)).toEqual(["0", "1", "2", "rest"]);
    expect(w.properties["0"]).toEqual({ type: "string" });
    expect(w.properties["1"]).toEqual({ type: "integer" });
    expect(w.properties.rest).toEqual({ type: "array", items: { type: "integer" } });
    expect(w.required).toEqual(["0", "1", "2", "rest"]);
  });

  test("round-trips with and without the optional position and the rest", () => {
    expect(roundTrip(objectForm, ["a", 1])).toEqual({
      wire: { 0: "a", 1: 1, 2: { state: "absent" }, rest: [] },
      back: { ok: true, value: ["a", 1] },
    });
    const full = ["a", 1, { x: 2 }, 3, 4];
    expect(roundTrip(objectForm, full)).toEqual({
      wire: { 0: "a", 1: 1, 2: { state: "present", value: { x: 2 } }, rest: [3, 4] },
      back: { ok: true, value: full },
    });
    for (const value of [["a", 1], full]) {
      const w = encode(objectForm, value);
      expect(w.ok && generated(objectForm)(w.value)).toEqual(value);
    }
  });

  test("encode refuses too few elements, and each failure is named by its index", () => {
    expect(encode(objectForm, ["a"])).toMatchObject({ ok: false, error: { code: "invalid-value", path: "" } });
    expect(encode(objectForm, ["a", "b"])).toMatchObject({ ok: false, error: { code: "invalid-value", path: "/1" } });
    expect(encode(objectForm, ["a", 1, { x: 1 }, "z"])).toMatchObject({ ok: false, error: { path: "/3" } });
    expect(encode(objectForm, { 0: "a" })).toMatchObject({ ok: false, error: { code: "invalid-value" } });
  });

  test("decode refuses a later element without the one before it, an extra member, a missing rest", () => {
    const refused = [
      { 0: "a", 1: 1, 2: { state: "absent" }, rest: [3] },
      { 0: "a", 1: 1, 2: { state: "absent" }, rest: [], 3: 1 },
      { 0: "a", 1: 1, 2: { state: "absent" } },
      { 0: "a", 2: { state: "absent" }, rest: [] },
      ["a", 1],
    ];
    for (const w of refused) {
      expect(decode(objectForm, w)).toMatchObject({ ok: false, error: { code: "wire-violation" } });
      expect(generated(objectForm)(w)).toBe(FAIL);
    }
    expect(decode(objectForm, refused[0])).toMatchObject({ ok: false, error: { path: "/rest" } });
  });

  test("children are the positions (fields named by index), then the rest", () => {
    expect(childrenOf(objectForm).map((c) => c.at)).toEqual(["0", "1", "2", "[]"]);
    expect(wireTypesOf(objectForm, {}, new Set())).toEqual(["object"]);
    expect(isIdentity(objectForm, {})).toBe(false);
    expect(tupleCompiler.levels?.(objectForm)).toBe(1);
  });

  test("wire pointers become element indices, numbers", () => {
    const plan: Plan = { root: objectForm, envelope: "arguments", defs: {}, relaxed: [], nodes: 1 };
    const w = { arguments: { 0: "a", 1: 1, 2: { state: "present", value: { x: "no" } }, rest: [3, "no"] } };
    expect(originalSteps(plan, w, "/arguments/2/value/x")).toEqual([2, "x"]);
    expect(originalSteps(plan, w, "/arguments/rest/1")).toEqual([4]);
    expect(originalSteps(plan, w, "/arguments/1")).toEqual([1]);
  });
});

describe("tuple, array form: prefixItems", () => {
  test("its wire is the array with its positions, counts from the required positions", () => {
    expect(wire(arrayForm)).toEqual({
      type: "array",
      prefixItems: [{ type: "string" }, { type: "integer" }],
      items: { type: "integer" },
      minItems: 1,
    });
    expect(wire(closed)).toEqual({
      type: "array",
      prefixItems: [{ type: "string" }, { type: "integer" }],
      maxItems: 2,
      minItems: 1,
    });
  });

  test("round-trips as itself; identity when every position and the rest are", () => {
    for (const value of [["a"], ["a", 1], ["a", 1, 2, 3]]) {
      expect(roundTrip(arrayForm, value)).toEqual({ wire: value, back: { ok: true, value } });
      expect(generated(arrayForm)(value)).toEqual(value);
    }
    expect(isIdentity(arrayForm, {})).toBe(true);
    expect(wireTypesOf(arrayForm, {}, new Set())).toEqual(["array"]);
  });

  test("counts and positions are checked both ways", () => {
    expect(encode(closed, ["a", 1, 2])).toMatchObject({ ok: false, error: { code: "invalid-value" } });
    for (const w of [[], ["a", 1, 2], [1], ["a", "b"]]) {
      expect(decode(closed, w).ok).toBe(false);
      expect(generated(closed)(w)).toBe(FAIL);
    }
    expect(decode(arrayForm, ["a", "b"])).toMatchObject({ ok: false, error: { code: "wire-violation", path: "/1" } });
    const plan: Plan = { root: arrayForm, envelope: "arguments", defs: {}, relaxed: [], nodes: 1 };
    expect(originalSteps(plan, { arguments: ["a", 1, 2] }, "/arguments/2")).toEqual([2]);
  });

  test("the plan check holds positions to their order", () => {
    const check = (node: unknown) => tupleShape.check(node, "/t", { defs: {}, push: () => {} });
    expect(check(objectForm).ok).toBe(true);
    expect(check({ ...objectForm, positions: [required("1", str)] })).toMatchObject({ ok: false });
    expect(check({ ...objectForm, positions: [optional("0", str), required("1", int)] })).toMatchObject({ ok: false });
    expect(check({ ...objectForm, form: "list" })).toMatchObject({ ok: false });
  });
});
