/**
 * The argument-token accounting: hand-built calls whose o200k_base counts are
 * known (gpt-tokenizer is pinned), so each construct's cost is checked against
 * a number, not just a shape.
 */
import { describe, expect, it } from "vitest";
import {
  ALL_REMOVED,
  type ArgumentCall,
  counterfactual,
  decompose,
  encodeCalls,
  formRatios,
  leverEffects,
  noCounts,
  textTokens,
  tokenRatio,
} from "../src/sections/arguments.js";

const SCHEMA = {
  type: "object",
  properties: { a: { type: "string" }, b: { type: "integer" } },
  required: ["a"],
};

const call = (args: Record<string, unknown>, schema: unknown = SCHEMA): ArgumentCall => ({
  set: "bfcl",
  id: "t",
  schema,
  options: {},
  args,
});

describe("argument tokens of one call", () => {
  it("counts the absent optional member's tag: 12 tagged, 9 compact, against 5 in the source", () => {
    const run = encodeCalls([call({ a: "x" })]);
    expect(run.excluded).toEqual({});
    const [c] = run.calls;
    expect(c!.sourceTokens).toBe(5); // {"a":"x"}
    // An object root travels bare (wire 3).
    expect(c!.wires.tagged).toEqual({ a: "x", b: { state: "absent" } });
    expect(c!.wireTokens).toEqual({ tagged: 12, compact: 9, factored: 12 });
  });

  it("splits the tagged wire's extra tokens into root, absent member and the tag beyond null", () => {
    const d = decompose(encodeCalls([call({ a: "x" })]).calls, "tagged");
    const part = (name: string): number => d.parts.find((p) => p.name === name)!.tokens;
    expect(d.meanWire - d.meanSource).toBe(7);
    expect(part("absent members")).toBe(7); // {"a":"x"} is 5
    expect(part("of which the tag beyond null")).toBe(3); // {"state":"absent"} vs null
    expect(part("root")).toBe(0); // an object root is not wrapped
    expect(part("present tags")).toBe(0);
    expect(d.rest).toBe(0);
    expect(d.reconstructed).toBe(1);
    expect(d.counts).toMatchObject({ absentMembers: 1, absentTags: 1, presentTags: 0 });
  });

  it("prices the present tag and the shorter forms proposed for it", () => {
    const calls = encodeCalls([call({ a: "x", b: 2 })]).calls;
    const d = decompose(calls, "tagged");
    expect(d.meanSource).toBe(9); // {"a":"x","b":2}
    expect(d.meanWire).toBe(15);
    expect(d.parts.find((p) => p.name === "present tags")!.tokens).toBe(6);
    const levers = Object.fromEntries(leverEffects(calls, "tagged").map((l) => [l.name, l.meanWire]));
    expect(levers['L3 present as {"value":…}']).toBe(11);
    expect(levers["L1 no root"]).toBe(15);
  });

  it("leaves a source value shaped like a tag alone", () => {
    const schema = {
      type: "object",
      properties: {
        s: {
          type: "object",
          properties: { state: { type: "string" }, value: { type: "integer" } },
          required: ["state", "value"],
        },
      },
      required: ["s"],
    };
    const args = { s: { state: "present", value: 1 } };
    const [c] = encodeCalls([call(args, schema)]).calls;
    const counts = noCounts();
    expect(counterfactual(c!.wires.compact, args, ALL_REMOVED, counts)).toEqual(args);
    expect(counts.presentTags).toBe(0);
  });

  it("takes a present tag carried inline in an optional object member for a tag, and removes it", () => {
    const schema = {
      type: "object",
      properties: { o: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] } },
    };
    const args = { o: { x: 1 } };
    const [c] = encodeCalls([call(args, schema)]).calls;
    expect(c!.wires.tagged).toEqual({ o: { state: "present", x: 1 } });
    const counts = noCounts();
    expect(counterfactual(c!.wires.tagged, args, ALL_REMOVED, counts)).toEqual(args);
    expect(counts).toMatchObject({ presentTags: 1, absentMembers: 0 });
    expect(counterfactual(c!.wires.tagged, args, [])).toEqual(c!.wires.tagged);
  });

  it("removes map entries and union tags to give the source back", () => {
    const schema = {
      type: "object",
      properties: {
        labels: { type: "object", additionalProperties: { type: "string" } },
        pick: {
          anyOf: [
            { type: "object", properties: { n: { type: "integer" } } },
            { type: "object", properties: { m: { type: "string" } } },
          ],
        },
      },
    };
    const args = { labels: { x: "1", y: "2" }, pick: { m: "z" } };
    const [c] = encodeCalls([call(args, schema)]).calls;
    for (const form of ["tagged", "compact"] as const) {
      const counts = noCounts();
      expect(counterfactual(c!.wires[form], args, ALL_REMOVED, counts)).toEqual(args);
      expect(counts.entryArrays).toBe(1);
      expect(counts.entries).toBe(2);
    }
    const withEntries = textTokens(c!.wires.compact);
    expect(textTokens(counterfactual(c!.wires.compact, args, ["entriesAsObjects"]))).toBeLessThan(withEntries);
  });

  it("leaves out a call its schema rejects, by reason", () => {
    const run = encodeCalls([call({ a: 1 }), call({ a: "x" })]);
    expect(run.calls).toHaveLength(1);
    expect(run.excluded).toEqual({ "bfcl: call refused: invalid-value": 1 });
  });
});

describe("aggregates", () => {
  it("gives the ratio of means and the geometric mean of per-call ratios", () => {
    const r = tokenRatio([
      { source: 10, wire: 20 },
      { source: 30, wire: 30 },
    ]);
    expect(r.meanSource).toBe(20);
    expect(r.meanWire).toBe(25);
    expect(r.ratioOfMeans).toBe(1.25);
    expect(r.geomeanRatio).toBeCloseTo(Math.SQRT2, 12);
  });

  it("reports every form for a set of calls", () => {
    const ratios = formRatios(encodeCalls([call({ a: "x" }), call({ a: "x", b: 2 })]).calls);
    expect(ratios.tagged.ratioOfMeans).toBeCloseTo((12 + 15) / (5 + 9), 12);
    expect(ratios.compact.meanWire).toBeGreaterThan(ratios.compact.meanSource);
  });
});
