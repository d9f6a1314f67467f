/** The builder's pure schema algebra alone: type sets, their intersection, the merge of conjuncts. No ajv. */
import { describe, expect, it } from "vitest";
import { intersectTypes, isTrivial, mergeViews, typeSet } from "../../src/ir/algebra.js";

describe("the types a schema admits", () => {
  it("come from type, else from enum or const values, else are all", () => {
    expect([...typeSet({ type: "string" })]).toEqual(["string"]);
    expect([...typeSet({ enum: ["a", 1, null] })].sort()).toEqual(["null", "number", "string"]);
    expect([...typeSet({ const: 2 })].sort()).toEqual(["number"]);
    expect([...typeSet({})].sort()).toEqual(["array", "boolean", "null", "number", "object", "string"]);
  });

  it("keep integer only where number is not also admitted", () => {
    expect([...typeSet({ type: ["number", "integer"] })]).toEqual(["number"]);
    expect([...typeSet({ type: "integer", enum: [1, 2] })]).toEqual(["integer"]);
  });

  it("intersect with integer inside number", () => {
    expect([...intersectTypes(new Set(["number"]), new Set(["integer", "string"]))]).toEqual(["integer"]);
    expect(intersectTypes(new Set(["string"]), new Set(["boolean"])).size).toBe(0);
  });
});

describe("merging conjuncts", () => {
  it("intersects types, unions required, and merges declared members part by part", () => {
    const merged = mergeViews([
      {
        schema: { type: ["object", "null"], properties: { a: { type: "string" } }, required: ["a"] },
        pointers: ["/allOf/0"],
      },
      {
        schema: { type: "object", properties: { a: { maxLength: 3 }, b: {} }, required: ["b"] },
        pointers: ["/allOf/1"],
      },
    ]);
    expect(merged?.schema).toEqual({
      type: ["object"],
      properties: { a: { allOf: [{ type: "string" }, { maxLength: 3 }] }, b: {} },
      required: ["a", "b"],
    });
    expect(merged?.pointers).toEqual(["/allOf/0", "/allOf/1"]);
    expect(merged?.propertyParts?.get("a")?.map((v) => v.pointers[0])).toEqual([
      "/allOf/0/properties/a",
      "/allOf/1/properties/a",
    ]);
  });

  it("closes the object when any part closes it, and keeps where each keyword came from", () => {
    const merged = mergeViews([
      { schema: { additionalProperties: false, minProperties: 1 }, pointers: ["/a"] },
      { schema: { additionalProperties: { type: "string" }, minProperties: 5 }, pointers: ["/b"] },
    ]);
    expect(merged?.schema).toMatchObject({ additionalProperties: false, minProperties: 1 });
    expect(merged?.origins?.get("minProperties")).toBe("/a");
  });

  it("finds nothing in common between contradictory types", () => {
    expect(
      mergeViews([
        { schema: { type: "string" }, pointers: [""] },
        { schema: { type: "number" }, pointers: [""] },
      ]),
    ).toBeUndefined();
  });

  it("drops parts that say nothing", () => {
    expect(isTrivial(true)).toBe(true);
    expect(isTrivial({ description: "x", title: "y" })).toBe(true);
    expect(isTrivial({ minimum: 1 })).toBe(false);
    const only = { schema: { type: "string" }, pointers: ["/x"] };
    expect(mergeViews([{ schema: { description: "d" }, pointers: [""] }, only])).toBe(only);
  });
});
