/**
 * The peers' decode tasks the decode section times: each task must give its
 * call back exactly, and every call is either timed or left out with a reason.
 * Nothing here is timed.
 */
import { describe, expect, it } from "vitest";
import { loadCases } from "../src/cases.js";
import { PEERS, preparePeers, summarizePeers } from "../src/peers.js";
import { firstDifference } from "../src/sections/comparison.js";

describe("the peers' decode path", async () => {
  const cases = loadCases({ fixtures: 6, bfcl: 0, mcp: 0 });
  const plan = await preparePeers(cases);

  it("times each call a peer represents and counts each one it leaves out", () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const peer of PEERS) {
      const timed = plan.tasks.filter((t) => t.some((x) => x.peer === peer)).length;
      const left = [...plan.leftOut[peer].values()].reduce((a, b) => a + b, 0);
      expect(timed + left).toBe(cases.length);
      expect(timed).toBeGreaterThan(0);
    }
  });

  it("gives each timed call back exactly, from the peer's own wire text", () => {
    for (const [i, tasks] of plan.tasks.entries()) {
      for (const t of tasks) {
        const r = t.decode() as { ok: boolean; value?: unknown };
        expect(r.ok).toBe(true);
        // Identity with member presence; a member holding undefined is absent (Mastra writes those).
        expect(firstDifference(cases[i]!.value, r.value)).toBeUndefined();
        // The peer's wire form spells absent members as null, so it is not the source text.
        expect(JSON.parse(t.text)).toBeTypeOf("object");
      }
    }
  });

  it("compares each peer with strictwire on the same calls only", () => {
    const perCase = [
      { tagged: 2, compact: 1, peers: { agentsCore: 4 } },
      { tagged: 8, compact: 4, peers: { mastra: 4 } },
    ];
    const s = summarizePeers(perCase, { agentsCore: new Map([["x", 1]]), mastra: new Map() });
    expect(s.agentsCore.cases).toBe(1);
    expect(s.agentsCore.aheadTagged).toBeCloseTo(2);
    expect(s.agentsCore.aheadCompact).toBeCloseTo(4);
    expect(s.mastra.cases).toBe(1);
    expect(s.mastra.strictwireTagged).toBeCloseTo(8);
    expect(s.mastra.aheadTagged).toBeCloseTo(0.5);
    expect(s.mastra.aheadCompact).toBeCloseTo(1);
    expect(s.agentsCore.leftOut).toEqual({ x: 1 });
  });
});
