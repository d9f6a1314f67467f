import { describe, expect, it } from "vitest";
import { firstRepeat } from "../../src/parse/scanner.js";

/** firstRepeat over `names`, each given the hash `hashOf` says (the scanner hashes the text; here any hash will do). */
function repeatOf(names: readonly string[], hashOf: (name: string) => number, from = 0): number {
  return firstRepeat(
    from,
    names.length,
    new Float64Array(names.length),
    (k) => hashOf(names[k]!),
    (k) => names[k]!,
  );
}

/** A string hash of 31 bits, as the scanner's. */
const real = (name: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 1;
};
const distinct = (n: number) => Array.from({ length: n }, (_, i) => `name${i}`);

describe("firstRepeat: a big object's names checked at once", () => {
  it("finds the first name an earlier one has", () => {
    expect(repeatOf(distinct(100), real)).toBe(-1);
    expect(repeatOf([...distinct(100), "name7", "name3"], real)).toBe(100);
    expect(repeatOf(["a", "b", "c", "b", "a"], real)).toBe(3);
    // Within from..to only: the names before are another object's.
    expect(repeatOf(["x", "y", "x", "z", "y"], real, 1)).toBe(4);
  });

  it("tells names whose hashes collide apart by their text", () => {
    // Every name one hash: an adversary's collisions, compared through a Set.
    for (const n of [5, 16, 17, 200]) {
      expect(
        repeatOf(distinct(n), () => 7),
        `${n} colliding`,
      ).toBe(-1);
      expect(
        repeatOf([...distinct(n), "name2", "name1"], () => 7),
        `${n} colliding`,
      ).toBe(n);
    }
    // Colliding groups beside other hashes: the earliest repeat over all groups.
    const names = [...distinct(30), "name29", "name4"];
    expect(repeatOf(names, (name) => (name === "name4" || name === "name9" ? 1 : 2))).toBe(30);
  });
});
