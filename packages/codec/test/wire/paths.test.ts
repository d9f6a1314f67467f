/** Wire pointers translated to original ones, on hand-built plans. */
import { describe, expect, test } from "vitest";
import type { MixedNode, ObjectNode, Plan, UnionNode } from "../../src/ir/nodes.js";
import { originalPath } from "../../src/wire/paths.js";
import { int, optional, required, str } from "../constructs/support.js";

const settings: ObjectNode = { kind: "object", fields: [optional("timezone", str), required("n", int)], schema: {} };
const mixed: MixedNode = { kind: "mixed", fields: [required("name", str)], key: {}, value: settings, schema: {} };
const tagged: UnionNode = {
  kind: "union",
  branches: [str, { kind: "ref", def: "S" }],
  rule: { by: "tag" },
  branchSources: [[""], [""]],
  schema: {},
};
const root: ObjectNode = {
  kind: "object",
  fields: [
    optional("settings", settings),
    required("m", mixed),
    required("u", tagged),
    required("list", { kind: "array", items: settings, schema: {} }),
  ],
  schema: {},
};
const plan: Plan = { root, envelope: "arguments", defs: { S: settings }, relaxed: [], nodes: 1 };

describe("originalPath", () => {
  test("a tagged member's value step is dropped", () => {
    const wire = { arguments: { settings: { state: "present", value: { timezone: { state: "present", value: 1 } } } } };
    expect(originalPath(plan, wire, "/arguments/settings/value/timezone/value")).toBe("/settings/timezone");
  });

  test("fields and entries of a mixed object: entries are named by their key", () => {
    const wire = { arguments: { m: { fields: { name: "x" }, entries: [{ key: "a/b", value: { n: "x" } }] } } };
    expect(originalPath(plan, wire, "/arguments/m/fields/name")).toBe("/m/name");
    expect(originalPath(plan, wire, "/arguments/m/entries/0/value/n")).toBe("/m/a~1b/n");
  });

  test("a tagged union branch and a reference add nothing of their own; array indices stay", () => {
    const wire = { arguments: { u: { branch: 1, value: { n: "x" } }, list: [{ n: 1 }, { n: "x" }] } };
    expect(originalPath(plan, wire, "/arguments/u/value/n")).toBe("/u/n");
    expect(originalPath(plan, wire, "/arguments/list/1/n")).toBe("/list/1/n");
  });

  test("as far as the wire value allows; nothing outside arguments", () => {
    expect(originalPath(plan, { arguments: { m: {} } }, "/arguments/m/entries/0/value")).toBe("/m");
    expect(originalPath(plan, {}, "/other")).toBe("");
  });
});
