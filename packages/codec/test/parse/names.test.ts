import { describe, expect, it } from "vitest";
import { hashName, NameLog } from "../../src/parse/names.js";

/** A log of `names` (spans into their joined text), each given the hash `hashOf` says. */
function logOf(names: readonly string[], hashOf: (name: string) => number) {
  const text = names.join("");
  const log = new NameLog();
  let at = 0;
  for (const name of names) {
    log.add(hashOf(name), at, at + name.length);
    at += name.length;
  }
  const nameOf = (place: number) => text.slice(log.start(place), log.end(place));
  return { log, firstRepeat: () => log.firstRepeat((a, b) => nameOf(a) === nameOf(b), nameOf) };
}

const real = (name: string) => hashName(name, 0, name.length);
const distinct = (n: number) => Array.from({ length: n }, (_, i) => `name${i}`);

describe("NameLog", () => {
  it("finds the first member whose name an earlier one has", () => {
    expect(logOf(distinct(100), real).firstRepeat()).toBe(-1);
    expect(logOf([...distinct(100), "name7", "name3"], real).firstRepeat()).toBe(100);
    expect(logOf(["a", "b", "c", "b", "a"], real).firstRepeat()).toBe(3);
  });

  it("tells names whose hashes collide apart by their text, pairwise or, in a big group, through a set", () => {
    // Every name one hash: an adversary's collisions. Small groups are compared pair by pair, big ones by a Set.
    for (const n of [5, 16, 17, 200]) {
      expect(logOf(distinct(n), () => 7).firstRepeat(), `${n} colliding`).toBe(-1);
      expect(logOf([...distinct(n), "name2", "name1"], () => 7).firstRepeat(), `${n} colliding`).toBe(n);
    }
    // Colliding groups beside other hashes: the earliest repeat over all groups.
    const names = [...distinct(30), "name29", "name4"];
    expect(logOf(names, (name) => (name === "name4" || name === "name9" ? 1 : 2)).firstRepeat()).toBe(30);
  });

  it("starts empty again when cleared, for the next object at its depth", () => {
    const { log, firstRepeat } = logOf(["x", "x"], real);
    expect(firstRepeat()).toBe(1);
    log.clear();
    expect(log.length).toBe(0);
    log.add(real("y"), 0, 1);
    expect(
      log.firstRepeat(
        () => true,
        () => "",
      ),
    ).toBe(-1);
  });

  it("hashes a name's code units to 31 bits, equal names alike wherever they are", () => {
    const h = hashName("xx😀yy", 2, 4);
    expect(h).toBe(hashName("😀", 0, 2));
    expect(h).toBeGreaterThanOrEqual(0);
    expect(h).toBeLessThan(2 ** 31);
    expect(hashName("a", 0, 1)).not.toBe(hashName("b", 0, 1));
  });
});
