/**
 * The pure pieces of `pnpm bench --quick --json`: expansion on two fixtures,
 * the strict-subset checker, the statistics and the converters' candidate
 * mapping. Shapes and invariants only: nothing here is timed.
 */
import { compile } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { bfclToJsonSchema } from "../src/corpora.js";
import { expansionInputs, MODES, runExpansion } from "../src/sections/expansion.js";
import { geomean, logLogSlope, summarize } from "../src/stats.js";
import { fitsOpenAIStrict } from "../src/strict-check.js";

describe("expansion (the quick JSON's expansion object)", () => {
  const result = runExpansion(
    expansionInputs({ fixtures: ["github-create-issue-mcp", "labels-map"], bfcl: 0, mcp: 0 }),
    true,
  );

  it("measures both fixtures in every mode", () => {
    expect(result.run.items.map((i) => i.id).sort()).toEqual(["github-create-issue-mcp", "labels-map"]);
    expect(result.run.refused).toEqual([]);
    for (const mode of MODES) {
      const e = result.all[mode];
      for (const r of [e.bytes, e.tokens]) {
        expect(Number.isFinite(r.aggregate)).toBe(true);
        expect(r.aggregate).toBeGreaterThan(1);
        expect(r.perSchema.n).toBe(2);
        expect(r.perSchema.p25).toBeLessThanOrEqual(r.perSchema.p75);
      }
    }
  });

  it("has the headline shape the JSON mode prints", () => {
    const headline = Object.fromEntries(
      MODES.map((m) => [m, { bytes: result.all[m].bytes.aggregate, tokens: result.all[m].tokens.aggregate }]),
    );
    expect(Object.keys(headline)).toEqual(["tagged", "compact", "factored", "compactFactored"]);
    // Compact presence never writes more than tagged presence for the same schema.
    expect(headline.compact!.tokens).toBeLessThanOrEqual(headline.tagged!.tokens);
  });

  it("attributes tokens and measures proposals without changing the source", () => {
    expect(result.attribution?.tagged.length).toBeGreaterThan(0);
    for (const p of result.proposals?.tagged ?? []) {
      expect(p.share).toBeGreaterThanOrEqual(0);
      expect(p.share).toBeLessThan(1);
    }
  });
});

describe("strict-subset checker", () => {
  it("accepts a codec wire schema and refuses what strict mode refuses", () => {
    const bundle = compile({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "object", additionalProperties: { type: "number" } } },
      required: ["a"],
    });
    expect(bundle.ok).toBe(true);
    if (bundle.ok) expect(fitsOpenAIStrict(bundle.value.wire)).toEqual({ fits: true });
    expect(
      fitsOpenAIStrict({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false }),
    ).toEqual({
      fits: false,
      reason: "optional property (not in required)",
    });
    expect(fitsOpenAIStrict({ type: "object", properties: {}, required: [] }).fits).toBe(false);
    expect(
      fitsOpenAIStrict({
        type: "object",
        properties: { a: { type: "string", minLength: 1 } },
        required: ["a"],
        additionalProperties: false,
      }),
    ).toEqual({ fits: false, reason: "unsupported keyword minLength" });
  });
});

describe("helpers", () => {
  it("summarises with quartiles", () => {
    const s = summarize([4, 1, 3, 2, 5]);
    expect([s.min, s.p25, s.median, s.p75, s.max, s.n]).toEqual([1, 2, 3, 4, 5, 5]);
    expect(geomean([1, 4])).toBeCloseTo(2);
  });

  it("fits a power law's exponent on log-log axes", () => {
    const sizes = [1_000, 2_000, 4_000, 8_000];
    expect(logLogSlope(sizes.map((n) => [n, 3 * n]))).toBeCloseTo(1, 10);
    expect(logLogSlope(sizes.map((n) => [n, n * n]))).toBeCloseTo(2, 10);
    expect(logLogSlope(sizes.map((n) => [n, 5]))).toBeCloseTo(0, 10);
  });

  it("maps BFCL type names to JSON Schema", () => {
    expect(
      bfclToJsonSchema({
        type: "dict",
        properties: { x: { type: "float" }, t: { type: "tuple", items: { type: "string" } }, y: { type: "any" } },
        required: ["x", "missing"],
      }),
    ).toEqual({
      type: "object",
      properties: { x: { type: "number" }, t: { type: "array", items: { type: "string" } }, y: {} },
      required: ["x"],
    });
  });
});
