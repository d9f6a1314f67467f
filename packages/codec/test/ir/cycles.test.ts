/** Breaking recursion for targets that refuse it, on hand-built plans. */
import { describe, expect, test } from "vitest";
import { NODE_KINDS } from "../../src/constructs/compile/registry.js";
import { breakCycles, recursiveDefs } from "../../src/ir/cycles.js";
import type { Node, ObjectNode, Plan } from "../../src/ir/nodes.js";
import { int, optional, required } from "../constructs/support.js";

const tree: ObjectNode = {
  kind: "object",
  fields: [
    required("v", int),
    { ...optional("kids", { kind: "ref", def: "Tree" }), annotations: { description: "the children" } },
  ],
  schema: {},
};
const plan = (root: Node, defs: Record<string, Node>): Plan => ({
  root,
  envelope: "arguments",
  defs,
  relaxed: [],
  nodes: 1,
});

describe("breakCycles", () => {
  const sources = new Map([["Tree", { pointer: "/$defs/Tree", schema: { type: "object" } }]]);

  test("a target that takes recursion keeps the plan as it is", () => {
    const p = plan({ kind: "ref", def: "Tree" }, { Tree: tree });
    expect(breakCycles(p, { name: "t", recursion: true }, sources, NODE_KINDS)).toEqual(p);
  });

  test("otherwise every reference into the cycle travels as JSON text, recorded as relaxed", () => {
    const p = plan({ kind: "ref", def: "Tree" }, { Tree: tree });
    const out = breakCycles(p, { name: "gemini", recursion: false }, sources, NODE_KINDS);
    expect(out.root.kind).toBe("json-text");
    expect(out.defs).toEqual({});
    expect(out.relaxed).toEqual([
      expect.objectContaining({ path: "/$defs/Tree", keyword: "$ref", reason: expect.stringContaining("gemini") }),
    ]);
    // The plan given is not changed.
    expect(p.defs.Tree).toBe(tree);
  });

  test("a member's description moves onto its JSON text", () => {
    const p = plan(tree, { Tree: tree });
    const out = breakCycles(p, { name: "t", recursion: false }, sources, NODE_KINDS);
    const kids = (out.root as ObjectNode).fields[1]!;
    expect(kids.node.kind).toBe("json-text");
    expect(kids.node.kind === "json-text" && kids.node.schema.description).toMatch(/^the children A Tree value/);
    expect(kids.optional).toBe(true);
  });

  test("recursiveDefs finds self-loops and longer cycles, not what only leads into one", () => {
    const defs: Record<string, Node> = {
      A: { kind: "array", items: { kind: "ref", def: "B" }, schema: {} },
      B: { kind: "array", items: { kind: "ref", def: "A" }, schema: {} },
      C: { kind: "array", items: { kind: "ref", def: "A" }, schema: {} },
      D: { kind: "array", items: { kind: "ref", def: "D" }, schema: {} },
    };
    expect([...recursiveDefs(defs, NODE_KINDS)].sort()).toEqual(["A", "B", "D"]);
  });
});
