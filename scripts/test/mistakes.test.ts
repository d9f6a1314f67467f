/**
 * The mistake corpus's own integrity (fixtures/mistakes/). It does not judge
 * the feedback's quality: `pnpm feedback-score` measures that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Codec, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../mistakes/build.js";
import { KINDS, loadMistakes, MISTAKES_DIR, TEXT_CODES } from "../mistakes/corpus.js";

const corpus = loadMistakes();
const MIN_ENTRIES = 80;
const MIN_PER_KIND = 4;

describe("mistake corpus", () => {
  it("is large enough and covers every kind of mistake several times", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(MIN_ENTRIES);
    const perKind = new Map<string, number>();
    for (const m of corpus) perKind.set(m.kind, (perKind.get(m.kind) ?? 0) + 1);
    for (const kind of perKind.keys()) expect(KINDS as readonly string[]).toContain(kind);
    for (const kind of KINDS) expect(perKind.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(MIN_PER_KIND);
  });

  it("names every mistake once and states at least one fact for each", () => {
    expect(new Set(corpus.map((m) => m.name)).size).toBe(corpus.length);
    for (const m of corpus) {
      const count = (m.facts.path !== undefined ? 1 : 0) + m.facts.mentions.length;
      expect(count, m.name).toBeGreaterThanOrEqual(1);
      for (const mention of m.facts.mentions) {
        const options = typeof mention === "string" ? [mention] : mention;
        expect(options.length, m.name).toBeGreaterThan(0);
        for (const o of options) expect(o.trim().length, m.name).toBeGreaterThan(0);
      }
      expect(m.note.length, m.name).toBeGreaterThan(0);
    }
  });

  it("states paths in the original value's terms, never wire plumbing", () => {
    for (const m of corpus) {
      const path = m.facts.path;
      if (path === undefined) continue;
      for (const p of typeof path === "string" ? [path] : path) {
        expect(p, m.name).toMatch(/^\/./);
        expect(p, m.name).not.toMatch(/^\/arguments(\/|$)|\/(value|state|fields|entries|branch)(\/|$)/);
      }
    }
  });

  it("holds only texts decode refuses, with the expected code where the code is about the text", () => {
    const codecs = new Map<string, Codec>();
    for (const m of corpus) {
      const key = `${m.schemaName} ${JSON.stringify(m.compileOptions)}`;
      let codec = codecs.get(key);
      if (codec === undefined) {
        const compiled = compileCodec(m.schema, m.compileOptions);
        if (!compiled.ok) throw new Error(`${m.schemaName} does not compile: ${compiled.error.message}`);
        codec = compiled.value;
        codecs.set(key, codec);
      }
      const decoded = codec.decode(m.text);
      // A mistake the codec accepts is a bug in the corpus.
      expect(decoded.ok, m.name).toBe(false);
      if (decoded.ok) continue;
      if (TEXT_CODES.has(m.expectedCode)) expect(decoded.error.code, m.name).toBe(m.expectedCode);
      expect(decoded.error.feedback.length, m.name).toBeGreaterThan(0);
    }
  });
});

describe("mistake corpus generator", () => {
  it("gives exactly the committed files (edit scripts/mistakes/specs.ts, then regenerate)", () => {
    const { files } = buildCorpus();
    const committed = readdirSync(MISTAKES_DIR).filter((f) => f.endsWith(".json"));
    expect(committed.sort()).toEqual([...files.keys()].map((s) => `${s}.json`).sort());
    for (const [schema, text] of files)
      expect(readFileSync(join(MISTAKES_DIR, `${schema}.json`), "utf8"), schema).toBe(text);
  });
});
