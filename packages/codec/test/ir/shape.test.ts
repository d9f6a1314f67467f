/** Plan-node shapes: one description gives the node type and its check at load. */
import { describe, expect, expectTypeOf, test } from "vitest";
import { type ArrayNode, arrayShape, type Field, type Node, type UnionRule } from "../../src/ir/nodes.js";
import { type CheckContext, list, object, oneOf, optional, string } from "../../src/ir/shape.js";

const collect = (): CheckContext & { queued: [unknown, string][] } => {
  const queued: [unknown, string][] = [];
  return { defs: {}, queued, push: (node, at) => queued.push([node, at]) };
};

describe("shapes", () => {
  test("a child is queued at its place, not checked in place", () => {
    const ctx = collect();
    expect(arrayShape.check({ kind: "array", schema: {}, items: 7 }, "/r", ctx)).toEqual({ ok: true });
    expect(ctx.queued).toEqual([[7, "/r/items"]]);
  });

  test("a member reports at its own path in its own words, unless the object speaks for its leaves", () => {
    const ctx = collect();
    const own = object({ name: string("expected a name") });
    expect(own.check({ name: 1 }, "/o", ctx)).toEqual({ ok: false, path: "/o/name", reason: "expected a name" });
    const whole = object({ name: string() }, { reason: "expected a field" });
    expect(whole.check({ name: 1 }, "/o", ctx)).toEqual({ ok: false, path: "/o", reason: "expected a field" });
  });

  test("a failing leaf item fails its list at the list", () => {
    const types = list(oneOf(["a", "b"], "expected a or b"), "expected a list of a and b");
    expect(types.check(["a", "c"], "/t", collect())).toEqual({
      ok: false,
      path: "/t",
      reason: "expected a list of a and b",
    });
    expect(optional(types).check(undefined, "/t", collect())).toEqual({ ok: true });
  });

  test("the node types are inferred from the shapes, children being nodes", () => {
    expectTypeOf<ArrayNode["items"]>().toEqualTypeOf<Node>();
    expectTypeOf<Field["presence"]>().toEqualTypeOf<"tagged" | "inline" | "compact" | "native" | undefined>();
    expectTypeOf<UnionRule["by"]>().toEqualTypeOf<"same" | "type" | "discriminator" | "tag">();
  });
});
