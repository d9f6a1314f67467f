import { compileCodec } from "@strictwire/codec";
import { describe, expect, test } from "vitest";
import { NODE_KINDS } from "../../src/constructs/compile/registry.js";
import { chooseRule } from "../../src/constructs/compile/union.js";
import { WALK } from "../../src/constructs/registry.js";
import { namesBranches } from "../../src/constructs/union.js";
import type { MapNode, ObjectNode, UnionNode } from "../../src/ir/nodes.js";
import { decode, encode, int, nul, required, roundTrip, str, wire } from "./support.js";

const union = (branches: UnionNode["branches"], rule: UnionNode["rule"]): UnionNode => ({
  kind: "union",
  branches,
  rule,
  branchSources: branches.map((_, i) => [`/anyOf/${i}`]),
  schema: {},
});
const tagged = (kind: string): ObjectNode => ({
  kind: "object",
  fields: [
    required("kind", { kind: "scalar", schema: { type: "string", const: kind }, types: ["string"] }),
    required("v", int),
  ],
  schema: {},
});
const entries: MapNode = { kind: "map", key: {}, value: str, schema: {} };

describe("union: the cheapest exact rule", () => {
  test("same when every branch decodes as the identity", () => {
    expect(chooseRule([str, nul], {}, new Set(), WALK)).toEqual({ by: "same" });
  });

  test("type when the wire JSON type names the branch", () => {
    expect(chooseRule([entries, int], {}, new Set(), WALK)).toEqual({ by: "type", types: { array: 0, number: 1 } });
  });

  test("discriminator on a required constant member", () => {
    const a = { ...tagged("a"), fields: [...tagged("a").fields, required("m", entries)] };
    expect(chooseRule([a, tagged("b")], {}, new Set(), WALK)).toEqual({
      by: "discriminator",
      field: "kind",
      values: { '"a"': 0, '"b"': 1 },
    });
  });

  test("tag otherwise", () => {
    expect(chooseRule([entries, { ...entries, value: int }], {}, new Set(), WALK)).toEqual({ by: "tag" });
  });

  test("settle sets the rule on a new node and leaves the old one as it was", () => {
    const node = union([entries, int], { by: "tag" });
    const settled = NODE_KINDS.settle(node, {}, new Set());
    expect(settled).not.toBe(node);
    expect(node.rule).toEqual({ by: "tag" });
    expect((settled as UnionNode).rule).toEqual({ by: "type", types: { array: 0, number: 1 } });
  });
});

describe("union: encode and decode by the rule", () => {
  test("tag: {branch, value}", () => {
    const node = union([entries, { ...entries, value: int }], { by: "tag" });
    expect(roundTrip(node, { a: 1 })).toEqual({
      wire: { branch: 1, value: [{ key: "a", value: 1 }] },
      back: { ok: true, value: { a: 1 } },
    });
    expect(wire(node)).toMatchObject({ anyOf: [{ required: ["branch", "value"] }, { required: ["branch", "value"] }] });
    expect(decode(node, { branch: 2, value: [] })).toMatchObject({ ok: false, error: { code: "wire-violation" } });
  });

  test("type: the wire value's JSON type picks the branch", () => {
    const node = union([entries, int], { by: "type", types: { array: 0, number: 1 } });
    expect(roundTrip(node, 5)).toEqual({ wire: 5, back: { ok: true, value: 5 } });
    expect(roundTrip(node, { k: "v" }).back).toEqual({ ok: true, value: { k: "v" } });
    expect(decode(node, "x")).toMatchObject({ ok: false, error: { code: "wire-violation" } });
  });

  test("a value no branch takes is invalid-value, the first branch's error kept", () => {
    const node = union([str, int], { by: "same" });
    expect(encode(node, true)).toMatchObject({ ok: false, error: { code: "invalid-value" } });
  });

  test("its children are the branches, read in place", () => {
    const node = union([str, int], { by: "same" });
    expect(NODE_KINDS.children(node).map((c) => c.at)).toEqual(["|0", "|1"]);
  });
});

describe("union: the branch the wire names holds", () => {
  // Two object branches, so the wire names the branch; the second, open in the source, takes any object there.
  const compiled = compileCodec(
    {
      type: "object",
      properties: {
        v: {
          anyOf: [
            { type: "object", properties: { a: { const: "fixed" }, b: { type: "string" } }, required: ["b"] },
            {},
          ],
        },
      },
      required: ["v"],
    },
    { name: "t" },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;
  const call = (a: string) =>
    `{"v":{"branch":0,"value":{"a":{"state":"present","value":${JSON.stringify(a)}},"b":"x"}}}`;

  test("a value its named branch forbids is refused, though another branch of the contract takes it", () => {
    expect(namesBranches(codec.bundle.plan, WALK)).toBe(true);
    // Found by pnpm fuzz (mutated-wire): the walk leaves the const to the final validation, which the open branch passes.
    expect(codec.validate({ v: { a: "fxed", b: "x" } }).ok).toBe(true);
    for (const interpreted of [false, true]) {
      const r = codec.decode(call("fxed"), { interpreted });
      expect(r.ok ? "accepted" : r.error.code).toBe("wire-violation");
      if (!r.ok) expect(r.error.message).toContain('must be "fixed", got "fxed"');
      expect(codec.decode(call("fixed"), { interpreted })).toStrictEqual({
        ok: true,
        value: { v: { a: "fixed", b: "x" } },
      });
    }
  });

  test("a constraint of the named branch that the wire cannot carry holds too, read whole or through the generated code", () => {
    // Found by pnpm fuzz (structural, seed 1373500541): uniqueItems is left to the final validation, which the
    // second branch passed; decode read the value through the first, and encode (openObjects "close") could not
    // write it back.
    const tags = { type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 4 };
    const schema = {
      type: "object",
      properties: {
        v: {
          anyOf: [
            { type: "object", properties: { tags }, required: ["tags"], additionalProperties: { const: "fixed" } },
            { type: "object", properties: { note: { type: "string" } } },
          ],
        },
      },
      required: ["v"],
    };
    for (const openObjects of ["close", "preserve"] as const) {
      const relaxed = compileCodec(schema, { name: "t", openObjects });
      if (!relaxed.ok) throw new Error(relaxed.error.message);
      const c = relaxed.value;
      expect(namesBranches(c.bundle.plan, WALK)).toBe(true);
      // The wire of a value read through the first branch, its items then repeated.
      const encoded = c.encode({ v: { tags: ["a", "b"], x: "fixed" } });
      if (!encoded.ok) throw new Error(encoded.error.message);
      const good = JSON.stringify(encoded.value);
      expect(good).toContain('"branch":0');
      const text = (items: string[]) => good.replace('["a","b"]', JSON.stringify(items));
      // The second branch takes the value, so the contract alone would let it through.
      expect(c.validate({ v: { tags: ["a", "a"], x: "fixed" } }).ok).toBe(true);
      for (const interpreted of [false, true]) {
        const r = c.decode(text(["a", "a"]), { interpreted });
        expect(r.ok ? "accepted" : [r.error.code, r.error.path], `${openObjects} ${interpreted}`).toEqual([
          "contract-violation",
          "/v",
        ]);
        const fine = c.decode(text(["a", "b"]), { interpreted });
        expect(fine).toStrictEqual({ ok: true, value: { v: { tags: ["a", "b"], x: "fixed" } } });
        // What decode gives, encode writes back.
        if (fine.ok) {
          const back = c.encode(fine.value);
          expect(back.ok && c.decode(JSON.stringify(back.value))).toStrictEqual(fine);
        }
      }
    }
  });

  test("a plan whose unions are told apart otherwise is not held to the wire schema as well", () => {
    const plain = compileCodec({
      type: "object",
      properties: { v: { anyOf: [{ type: "string" }, { type: "integer" }] } },
    });
    if (!plain.ok) throw new Error(plain.error.message);
    expect(namesBranches(plain.value.bundle.plan, WALK)).toBe(false);
  });
});
