/**
 * docs/targets.md shows every profile fact, rule by rule, as the profiles
 * hold it: the table is written from the data (scripts/target-facts.ts) and
 * this test fails when the page and the profiles part.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TARGET_NAMES, targetProfile } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { END, START, withFacts } from "../../../../scripts/target-facts.js";

const page = readFileSync(join(import.meta.dirname, "../../../../docs/targets.md"), "utf8");

describe("docs/targets.md", () => {
  it("holds the per-rule table exactly as the profiles give it (regenerate: scripts/target-facts.ts)", () => {
    expect(page).toContain(START);
    expect(page).toContain(END);
    expect(withFacts(page)).toBe(page);
  });

  it("names every fact's source, kind and date, and says no rule was confirmed by a live request", () => {
    const table = page.slice(page.indexOf(START), page.indexOf(END));
    for (const name of TARGET_NAMES) {
      expect(table).toContain(`**${name}**`);
      for (const f of targetProfile(name).facts) {
        expect(table).toContain(`<${f.source}> | ${f.read} |`);
      }
    }
    expect(page).toContain("No rule has been confirmed by a live request from this\nproject.");
  });

  it("a change to a profile's fact shows as a difference", () => {
    const tampered = page.replace("| anyOf first key |", "| anyOf first member |");
    expect(withFacts(tampered)).not.toBe(tampered);
  });
});
