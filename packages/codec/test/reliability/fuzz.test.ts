/**
 * The short form of `pnpm fuzz` (scripts/fuzz.ts): every target, a few hundred
 * cases each, against a small codec pool. Properties: decode returns a typed
 * result and never throws; an accepted value is valid under the original
 * schema and round-trips; text and bytes agree; nothing beyond the limits is
 * accepted; bundles never crash the loader or the codec; a text streamed in
 * deltas ends as decode of it ends, and is refused early only where decode
 * refuses it. STRICTWIRE_FUZZ_RUNS sets the cases per target; `pnpm fuzz`
 * runs 100,000 and more.
 *
 * Findings that match an issue already reported (scripts/fuzz/findings.ts,
 * KNOWN_ISSUES) are counted apart; anything else fails the test.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Findings } from "../../../../scripts/fuzz/findings.js";
import { equalityAndPresenceProblems } from "../../../../scripts/fuzz/oracle.js";
import { buildPool, type PoolEntry } from "../../../../scripts/fuzz/pool.js";
import { TARGETS } from "../../../../scripts/fuzz/targets.js";
import { runs } from "../../testkit/arbitraries.js";

/** Targets that compile or load a bundle per case run fewer cases. */
const DEAR = new Set(["generated-schemas", "bundle-plan", "bundle-text"]);

let pool: PoolEntry[] | undefined;
const poolOnce = () => {
  pool ??= buildPool({ generated: 12, seed: 9, compact: false });
  return pool;
};

describe("fuzz, short form", () => {
  for (const target of TARGETS) {
    it(`${target.name}: ${target.description}`, { timeout: 180_000 }, async () => {
      const findings = new Findings();
      const numRuns = runs(DEAR.has(target.name) ? 40 : 300);
      let cases = 0;
      await fc.assert(
        target.property({ pool: poolOnce(), findings }, () => {
          cases++;
        }),
        { numRuns, seed: 20261202 },
      );
      expect(cases).toBe(numRuns);
      const unknown = findings.unknown().map((g) => `${g.first.signature}\n  ${g.smallest.repro.slice(0, 400)}`);
      expect(unknown).toEqual([]);
    });
  }
});

describe("the fuzz's own reading of const, enum and required", () => {
  it("reads items past prefixItems only, and a name a pattern matches by that pattern: no false finding, the true ones kept", () => {
    // A generated schema of this shape gave "validate accepted a value that breaks const" (a `pnpm fuzz` run).
    const tuple = {
      type: "array",
      prefixItems: [{ type: "object" }, { const: { toString: [1] } }],
      items: { const: "x" },
    };
    expect(equalityAndPresenceProblems(tuple, [{ a: 1 }, { toString: [1] }, "x"])).toEqual([]);
    expect(equalityAndPresenceProblems(tuple, [{ a: 1 }, { toString: [2] }, "y"])).toEqual(["const", "const"]);
    const patterned = { type: "object", patternProperties: { "^p": { const: 1 } }, additionalProperties: { const: 2 } };
    expect(equalityAndPresenceProblems(patterned, { p1: 1, q: 2 })).toEqual([]);
    expect(equalityAndPresenceProblems(patterned, { p1: 2, q: 1 })).toEqual(["const", "const"]);
  });
});
