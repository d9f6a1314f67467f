/**
 * The hostile corpus (fixtures/hostile and fixtures/hostile-generated): it
 * covers what GitHub issue 9 lists, and every case is refused with its code,
 * without a throw, the same way whether given as text or as its UTF-8 bytes.
 * (Nothing is timed: a case that hung would fail by the test's timeout.)
 */
import { type Codec, compileCodec, type ErrorCode } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { expectRefused } from "../../testkit/refusals.js";
import { allHostileCases, CATEGORIES, codecFor, generatedFiles, rawInput } from "./support.js";

const files = generatedFiles();
const all = allHostileCases();

describe("hostile corpus coverage", () => {
  it("holds at least 150 cases with expected codes, across both directories", () => {
    expect(all.length).toBeGreaterThanOrEqual(150);
    for (const { case: c } of all) expect(typeof c.expect, c.name).toBe("string");
  });

  it("refuses with every parse and decode code, several times each", () => {
    const byCode = new Map<string, number>();
    for (const { case: c } of all) byCode.set(c.expect, (byCode.get(c.expect) ?? 0) + 1);
    const minimum: Partial<Record<ErrorCode, number>> = {
      "invalid-json": 40,
      "invalid-utf8": 20,
      "input-too-large": 5,
      "too-deep": 10,
      "too-many-nodes": 5,
      "duplicate-key": 30,
      "unsafe-number": 15,
      "wire-violation": 50,
      "duplicate-entry": 15,
      "entry-shadows-field": 5,
      "contract-violation": 20,
    };
    for (const [code, n] of Object.entries(minimum)) expect(byCode.get(code) ?? 0, code).toBeGreaterThanOrEqual(n);
  });

  it("has cases of every kind of hostility the issue lists, each kind from several angles", () => {
    const byCategory = new Map<string, number>();
    for (const f of files) for (const c of f.cases) byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + 1);
    for (const category of CATEGORIES) expect(byCategory.get(category) ?? 0, category).toBeGreaterThanOrEqual(5);
    const known = new Set<string>(CATEGORIES);
    for (const category of byCategory.keys()) expect(known.has(category), `unknown category ${category}`).toBe(true);
  });

  it("names each case once per file", () => {
    for (const f of files) {
      const names = f.cases.map((c) => c.name);
      expect(new Set(names).size, f.file).toBe(names.length);
    }
  });
});

describe("hostile-generated corpus", () => {
  for (const f of files) {
    it(`${f.file}: every case is refused with its code and path`, () => {
      const compiled = compileCodec(f.schema, f.options);
      if (!compiled.ok) throw new Error(`${f.file} does not compile: ${JSON.stringify(compiled.error)}`);
      expectRefused(compiled.value, f.cases);
    });
  }
});

describe("the whole corpus", () => {
  // The timeout is generous for a loaded two-core machine (typical: 2-3 s for the whole corpus).
  it("is refused without a throw", { timeout: 120_000 }, () => {
    for (const { source, schema, options, case: c } of all) {
      const codec = codecFor(schema, options);
      let result: ReturnType<Codec["decode"]>;
      try {
        result = codec.decode(rawInput(c));
      } catch (error) {
        throw new Error(`${source} ${c.name} threw: ${String(error)}`);
      }
      expect(result.ok, `${source} ${c.name}`).toBe(false);
    }
  });

  it("gives the same verdict for a text and for its UTF-8 bytes", { timeout: 120_000 }, () => {
    let compared = 0;
    for (const { source, schema, options, case: c } of all) {
      if (c.text === undefined || !(c.text as unknown as { isWellFormed(): boolean }).isWellFormed()) continue;
      const codec = codecFor(schema, options);
      const fromText = codec.decode(c.text);
      const fromBytes = codec.decode(new Uint8Array(Buffer.from(c.text, "utf8")));
      expect(fromBytes.ok, `${source} ${c.name}`).toBe(fromText.ok);
      if (!fromText.ok && !fromBytes.ok) {
        expect(fromBytes.error.code, `${source} ${c.name}`).toBe(fromText.error.code);
        expect(fromBytes.error.path, `${source} ${c.name}`).toBe(fromText.error.path);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(400);
  });
});
