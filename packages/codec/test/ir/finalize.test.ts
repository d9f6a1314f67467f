/** Whole-graph decisions (union rules, presence), on hand-built plans. */
import { describe, expect, test } from "vitest";
import { NODE_KINDS } from "../../src/constructs/compile/registry.js";
import { type FinalizeOptions, finalizePlan } from "../../src/ir/finalize.js";
import type { Node, ObjectNode, Plan, UnionNode } from "../../src/ir/nodes.js";
import { SchemaRefusal } from "../../src/ir/schema-refusal.js";
import { int, nul, str } from "../constructs/support.js";

const options = (presence: "tagged" | "compact", native?: number): FinalizeOptions => ({
  presence,
  target: {
    presence: native === undefined ? presence : "native",
    toolSet: native === undefined ? {} : { maxOptionalParameters: native },
  },
  kinds: NODE_KINDS,
});
const plan = (root: Node, defs: Record<string, Node> = {}): Plan => ({
  root,
  envelope: "arguments",
  defs,
  relaxed: [],
  nodes: 1,
});
const member = (name: string, node: Node) => ({ name, node, optional: true });
const union = (branches: Node[]): UnionNode => ({
  kind: "union",
  branches,
  rule: { by: "tag" },
  branchSources: branches.map(() => [""]),
  schema: {},
});

describe("finalizePlan", () => {
  test("compact presence where the member cannot be null, tagged where it can", () => {
    const root: ObjectNode = { kind: "object", fields: [member("a", str), member("b", union([str, nul]))], schema: {} };
    const out = finalizePlan(plan(root), options("compact")).root as ObjectNode;
    expect(out.fields.map((f) => f.presence)).toEqual(["compact", "tagged"]);
  });

  test("native presence for the first members in document order, up to the target's cap", () => {
    const inner: ObjectNode = { kind: "object", fields: [member("c", int)], schema: {} };
    const root: ObjectNode = { kind: "object", fields: [member("a", inner), member("b", int)], schema: {} };
    const out = finalizePlan(plan(root), options("tagged", 2)).root as ObjectNode;
    expect(out.fields[0]!.presence).toBe("native");
    expect((out.fields[0]!.node as ObjectNode).fields[0]!.presence).toBe("native");
    expect(out.fields[1]!.presence).toBe("tagged");
  });

  test("each union gets its rule, reading definitions settled first; the plan given is not changed", () => {
    const entries: Node = { kind: "map", key: {}, value: int, schema: {} };
    const root = union([{ kind: "ref", def: "E" }, int]);
    const given = plan(root, { E: entries });
    const out = finalizePlan(given, options("tagged"));
    expect((out.root as UnionNode).rule).toEqual({ by: "type", types: { array: 0, number: 1 } });
    expect(root.rule).toEqual({ by: "tag" });
    expect(out).not.toBe(given);
  });

  test("definitions that only refer to one another are refused, naming the cycle", () => {
    const defs: Record<string, Node> = { A: { kind: "ref", def: "B" }, B: { kind: "ref", def: "A" } };
    expect(() => finalizePlan(plan({ kind: "ref", def: "A" }, defs), options("tagged"))).toThrow(SchemaRefusal);
    expect(() => finalizePlan(plan({ kind: "ref", def: "A" }, defs), options("tagged"))).toThrow(/A -> B -> A/);
  });

  test("a chain of any length of aliases with a schema at its end is kept", () => {
    const defs: Record<string, Node> = { [`a${500}`]: int };
    for (let i = 0; i < 500; i++) defs[`a${i}`] = { kind: "ref", def: `a${i + 1}` };
    const out = finalizePlan(plan({ kind: "ref", def: "a0" }, defs), options("tagged"));
    expect(out.defs.a500).toEqual(int);
    expect(out.defs.a0).toEqual({ kind: "ref", def: "a1" });
  });
});
