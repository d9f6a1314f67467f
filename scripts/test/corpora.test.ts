/**
 * The external corpora travel with the repository (corpora/, issue 31): every reader finds them there by
 * default, STRICTWIRE_CORPORA still points elsewhere, and each corpus says where it came from.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIRS, locateCorpora, REPO_ROOT } from "../conformance/io.js";

const IN_REPO = join(REPO_ROOT, "corpora");

describe("the corpora in the repository", () => {
  it("are where the conformance runner looks without STRICTWIRE_CORPORA", () => {
    expect(locateCorpora({})).toEqual({ ok: true, root: IN_REPO });
    expect(locateCorpora({ STRICTWIRE_CORPORA: "" })).toEqual({ ok: true, root: IN_REPO });
  });

  it("STRICTWIRE_CORPORA overrides, and a copy that lacks a corpus is refused with where it looked", () => {
    const dir = mkdtempSync(join(tmpdir(), "strictwire-corpora-"));
    try {
      const located = locateCorpora({ STRICTWIRE_CORPORA: dir });
      expect(located.ok).toBe(false);
      if (!located.ok) {
        expect(located.message).toContain(dir);
        expect(located.message).toContain("from STRICTWIRE_CORPORA");
        for (const corpus of CORPUS_DIRS) expect(located.message).toContain(`${corpus}/`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are read by the benchmark from the same place", async () => {
    const saved = process.env.STRICTWIRE_CORPORA;
    delete process.env.STRICTWIRE_CORPORA;
    try {
      const { CORPORA, loadMcp } = await import("../../bench/src/corpora.js");
      expect(CORPORA).toBe(`${IN_REPO}`);
      expect(loadMcp().length).toBeGreaterThan(100);
    } finally {
      if (saved !== undefined) process.env.STRICTWIRE_CORPORA = saved;
    }
  });

  it.each(CORPUS_DIRS)(
    "%s/ has a README naming its origin, commit and licence, beside the upstream files",
    (corpus) => {
      const dir = join(IN_REPO, corpus);
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      expect(readme).toMatch(/\*\*Origin\*\*: <https:\/\/github\.com\//);
      expect(readme).toMatch(/\*\*Commit\*\*: `[0-9a-f]{40}`/);
      expect(readme).toMatch(/\*\*Licence\*\*: /);
      // The upstream COMMIT and licence files are kept (per sub-folder for mcp/).
      const holders = corpus === "mcp" ? readdirSync(dir).filter((f) => !f.includes(".")) : [""];
      expect(holders.length).toBeGreaterThan(0);
      for (const holder of holders) {
        const commit = readFileSync(join(dir, holder, "COMMIT"), "utf8");
        expect(readme).toContain(commit.slice(0, 40));
        expect(existsSync(join(dir, holder, "LICENSE")) || existsSync(join(dir, holder, "LICENSE-NOTE.txt"))).toBe(
          true,
        );
      }
    },
  );
});
