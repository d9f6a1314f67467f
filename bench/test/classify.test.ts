/**
 * The classify section's pieces: the generated log is what it says (its
 * call count is the one classify counts), and a run at a small size gives a
 * row for one worker and one for every CPU, each a finished run. Nothing
 * here is timed: the figures' values are the benchmark's business.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateLog, runClassifyScale } from "../src/sections/classify.js";

const CLI = fileURLToPath(new URL("../../packages/cli/bin/strictwire.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "strictwire-bench-classify-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("classify at log scale", () => {
  it("generates JSON lines of about the size asked, with the calls classify counts", () => {
    const file = join(dir, "log.jsonl");
    const log = generateLog(file, 2_000_000);
    expect(log.bytes).toBeGreaterThanOrEqual(2_000_000);
    expect(log.bytes).toBeLessThan(2_000_000 + 1024 * 1024);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(log.records);
    const run = spawnSync(process.execPath, [CLI, "classify", "--responses", file, "--json", "--workers", "1"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.status).toBe(1); // the log holds findings on purpose
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!).summary;
    expect(summary.checked).toBe(log.calls);
    expect(summary.unreadable).toEqual([]);
    for (const state of [
      "dispatchable",
      "arguments-violate-schema",
      "arguments-unparseable",
      "unknown-tool",
      "arguments-truncated",
    ])
      expect(summary.byState[state]).toBeGreaterThan(0);
  });

  it("runs one worker and every CPU, each a finished run with its figures", () => {
    const r = runClassifyScale([["200 KB", 200_000]]);
    expect(r.rows.map((row) => row.workers)).toEqual([...new Set([1, availableParallelism()])]);
    for (const row of r.rows) {
      expect(row.exit).toBe(1);
      expect(row.calls).toBeGreaterThan(0);
      expect(row.seconds).toBeGreaterThan(0);
      expect(row.peakRssMB).toBeGreaterThan(10);
    }
    expect(r.scaling).toBeGreaterThan(0);
  });
});
