import { describe, expect, it } from "vitest";
import { emptyDepth, mergeDepth, recordDepth, sourceDepth } from "../conformance/depth.js";
import { tryCompile } from "../conformance/harness.js";

/** `levels` objects nested through one member each, all required. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = {
    type: "object",
    properties: { leaf: { type: "string" } },
    required: ["leaf"],
  };
  for (let i = levels - 1; i >= 1; i--)
    schema = { type: "object", properties: { [`l${i}`]: schema }, required: [`l${i}`], additionalProperties: false };
  return schema;
}

describe("wire depth against source depth", () => {
  it("counts object schemas on the deepest path, through local references, each definition from its own root", () => {
    expect(sourceDepth({ type: "string" })).toBe(0);
    expect(sourceDepth(nested(4))).toBe(4);
    expect(
      sourceDepth({
        type: "object",
        properties: { a: { $ref: "#/$defs/A" }, list: { type: "array", items: { properties: { x: {} } } } },
        $defs: { A: nested(3) },
      }),
    ).toBe(4);
    expect(sourceDepth({ anyOf: [{ type: "object" }, nested(2)] })).toBe(2);
    // A recursive reference stops where it comes back: the definition counts from its own root.
    const tree = { type: "object", properties: { kids: { type: "array", items: { $ref: "#" } } } };
    expect(sourceDepth(tree)).toBe(1);
    expect(sourceDepth({ $ref: "#/$defs/T", $defs: { T: { properties: { next: { $ref: "#/$defs/T" } } } } })).toBe(1);
  });

  it("records the wire's extra levels of a compiled schema, and nothing as refused", () => {
    const d = emptyDepth();
    const schema = nested(3);
    const c = tryCompile(schema, {});
    expect(c.kind).toBe("compiled");
    recordDepth(d, "nested-3", schema, c);
    expect(d.compiled).toBe(1);
    expect(d.maxSource).toBe(3);
    // One schema, so one entry: its own difference.
    expect(d.wireMinusSource).toEqual({ [`${d.maxWire - 3 > 0 ? "+" : ""}${d.maxWire - 3}`]: 1 });
    expect(d.withinLimitRefusedForNesting).toBe(0);
  });

  it("counts a source within the limit that compile refuses for nesting, and merges shards", () => {
    const d = emptyDepth();
    recordDepth(d, "x", nested(10), {
      kind: "refused",
      code: "target-limit",
      path: "",
      message: "tool: 11 levels of object nesting, where the openai target allows at most 10",
      ms: 0,
    });
    recordDepth(d, "deep", nested(11), {
      kind: "refused",
      code: "target-limit",
      path: "",
      message: "levels of object nesting",
      ms: 0,
    });
    expect(d.withinLimitRefusedForNesting).toBe(1);
    expect(d.sourcesBeyondLimit).toBe(1);
    const total = emptyDepth();
    mergeDepth(total, d);
    mergeDepth(total, d);
    expect(total.withinLimitRefusedForNesting).toBe(2);
    expect(total.examples).toHaveLength(2);
  });
});
