import { describe, expect, test } from "vitest";
import { objectCompiler } from "../../src/constructs/compile/object.js";
import { object } from "../../src/constructs/object.js";
import { childrenOf, isIdentity, wireTypesOf } from "../../src/constructs/registry.js";
import type { ObjectNode } from "../../src/ir/nodes.js";
import { decode, encode, int, optional, required, roundTrip, str, wire } from "./support.js";

describe("object: only declared members travel, each in its own form", () => {
  const node: ObjectNode = {
    kind: "object",
    fields: [required("id", int), optional("name", str)],
    schema: { description: "a thing" },
  };

  test("its wire is closed, every member required (an optional one in its tag)", () => {
    expect(wire(node)).toMatchObject({
      description: "a thing",
      type: "object",
      required: ["id", "name"],
      additionalProperties: false,
      properties: { id: { type: "integer" } },
    });
  });

  test("round-trips members present and absent", () => {
    expect(roundTrip(node, { id: 1 })).toEqual({
      wire: { id: 1, name: { state: "absent" } },
      back: { ok: true, value: { id: 1 } },
    });
    expect(roundTrip(node, { id: 1, name: "x" }).back).toEqual({ ok: true, value: { id: 1, name: "x" } });
  });

  test("an undeclared member is refused both ways, named", () => {
    expect(encode(node, { id: 1, extra: 2 })).toMatchObject({
      ok: false,
      error: { code: "undeclared-member", path: "/extra" },
    });
    expect(decode(node, { id: 1, name: { state: "absent" }, extra: 2 })).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/extra" },
    });
    expect(decode(node, { name: { state: "absent" } })).toMatchObject({ ok: false, error: { path: "/id" } });
    expect(decode(node, [])).toMatchObject({ ok: false, error: { code: "wire-violation", path: "" } });
  });

  test("children are its members; identity only with no optional member; a bare root", () => {
    expect(childrenOf(node).map((c) => c.at)).toEqual(["id", "name"]);
    expect(wireTypesOf(node, {}, new Set())).toEqual(["object"]);
    expect(isIdentity(node, {})).toBe(false);
    expect(isIdentity({ ...node, fields: [required("id", int)] }, {})).toBe(true);
    expect(object.bare).toBe(true);
    expect(objectCompiler.levels?.(node)).toBe(1);
  });
});
