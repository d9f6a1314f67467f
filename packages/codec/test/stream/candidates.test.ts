/**
 * PrefixMatch (stream/candidates.ts): whether a string growing piece by piece
 * still begins one of a list of values, without reading the string so far.
 * Held to the plain answer, `values.some((v) => v.startsWith(soFar))`, after
 * every piece.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PrefixMatch } from "../../src/stream/candidates.js";
import { runs } from "../../testkit/arbitraries.js";

/** Answers after each piece, the matcher's and the plain one. */
function answers(match: PrefixMatch, pieces: readonly string[], values: readonly string[]): [boolean[], boolean[]] {
  const got = [match.grow("")];
  const want = [values.length > 0];
  let soFar = "";
  for (const piece of pieces) {
    soFar += piece;
    got.push(match.grow(piece));
    want.push(values.some((v) => v.startsWith(soFar)));
  }
  return [got, want];
}

// A small alphabet, so values share long beginnings; a surrogate pair's halves among it.
const unit = fc.constantFrom("a", "b", "_", "1", "\ud83d", "\ude00");
const value = fc.string({ unit, maxLength: 8 });

describe("PrefixMatch", () => {
  it("answers as startsWith does after every piece, for values sharing beginnings, fresh or started again", () => {
    let matched = 0;
    let failed = 0;
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 12 }),
        fc.array(value, { maxLength: 12 }),
        fc.integer({ min: 0, max: 11 }),
        // Piece sizes, an empty piece among them.
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }).filter((a) => a.some((n) => n > 0)),
        fc.string({ unit, maxLength: 6 }),
        (list, other, pick, sizes, tail) => {
          const values = [...list].sort();
          // The string: often a value's beginning and more, so matches go deep before they fail.
          const text = (values.length > 0 ? values[pick % values.length]! : "") + tail;
          const pieces: string[] = [];
          for (let i = 0, k = 0; i < text.length; k++) {
            const size = sizes[k % sizes.length]!;
            pieces.push(text.slice(i, i + size));
            i += size;
          }
          // Started again on another list first: nothing of that run may remain.
          const match = new PrefixMatch([...other].sort());
          answers(match, pieces, [...other].sort());
          const [got, want] = answers(match.restart(values), pieces, values);
          expect(got).toEqual(want);
          if (want.at(-1)) matched++;
          else failed++;
        },
      ),
      { numRuns: runs(3000) },
    );
    // Both answers are reached, so neither is what the test always sees.
    expect(matched).toBeGreaterThan(300);
    expect(failed).toBeGreaterThan(300);
  });

  it("follows a wide object's names that share a beginning, one character at a time", () => {
    const names = Array.from({ length: 1000 }, (_, i) => `member_${i}`).sort();
    for (const name of ["member_0", "member_999", "member_5", "member_500", "member_1000", "member_x", "membe"]) {
      const match = new PrefixMatch(names);
      const [got, want] = answers(match, [...name], names);
      expect(got).toEqual(want);
    }
  });
});
