/**
 * Realistic tool calls for the speed sections: a schema (fixture, BFCL or
 * MCP), one argument value of 1 to 4 KB built for it, its wire text under
 * tagged and compact presence, and the precompiled ajv baseline.
 */
import { type Codec, type CompileOptions, compileCodec } from "@strictwire/codec";
import { canonicalJson } from "@strictwire/codec/schema";
import { baselineValidator, type ValidateFn } from "./baseline.js";
import { type Json, loadBfcl, loadFixtures, loadMcp, shuffle } from "./corpora.js";
import { progress } from "./format.js";
import { generateSized } from "./generate.js";

export type SetName = "fixtures" | "bfcl" | "mcp";

export interface CallCase {
  readonly set: SetName;
  readonly id: string;
  readonly value: unknown;
  /** The original schema as JSON Schema (what the peers' converters are given). */
  readonly jsonSchema: unknown;
  /** JSON text of the original value (what the baseline parses). */
  readonly originalText: string;
  readonly baseline: ValidateFn;
  readonly tagged: Codec;
  readonly compact: Codec;
  /** Wire text of the value under each presence mode. */
  readonly taggedText: string;
  readonly compactText: string;
  /** Whether the value was generated (true) or taken from the fixture (false). */
  readonly generated: boolean;
}

interface Source {
  readonly set: SetName;
  readonly id: string;
  /** What compile is given. */
  readonly schema: unknown;
  readonly options: CompileOptions;
  /** The original schema as JSON Schema (for the baseline and the generator). */
  readonly jsonSchema: unknown;
  readonly examples: readonly unknown[];
}

const MIN_BYTES = 1024;
const MAX_BYTES = 4096;

function buildCase(src: Source): CallCase | undefined {
  const tagged = compileCodec(src.schema, { ...src.options, presence: "tagged" });
  const compact = compileCodec(src.schema, { ...src.options, presence: "compact" });
  if (!tagged.ok || !compact.ok) return undefined;
  let baseline: ValidateFn;
  try {
    baseline = baselineValidator(src.jsonSchema);
  } catch {
    return undefined;
  }
  const fits = (v: unknown): boolean => baseline(v) && tagged.value.encode(v).ok && compact.value.encode(v).ok;
  let value = generateSized(src.jsonSchema, Object.assign(fits, { errors: null }), MIN_BYTES, MAX_BYTES);
  let generated = true;
  const size = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));
  if (value === undefined || size(value) < MIN_BYTES) {
    // The schema's own examples, when one is larger.
    const larger = src.examples.filter(fits).sort((a, b) => size(b) - size(a))[0];
    if (larger !== undefined && (value === undefined || size(larger) > size(value))) {
      value = larger;
      generated = false;
    }
  }
  if (value === undefined) return undefined;
  const t = tagged.value.encode(value);
  const c = compact.value.encode(value);
  if (!t.ok || !c.ok) return undefined;
  // The decoder must give the value back, or the timing means nothing.
  const back = tagged.value.decode(JSON.stringify(t.value));
  if (!back.ok || canonicalJson(back.value) !== canonicalJson(value)) return undefined;
  return {
    set: src.set,
    id: src.id,
    value,
    jsonSchema: src.jsonSchema,
    originalText: JSON.stringify(value),
    baseline,
    tagged: tagged.value,
    compact: compact.value,
    taggedText: JSON.stringify(t.value),
    compactText: JSON.stringify(c.value),
    generated,
  };
}

export interface CaseSelection {
  readonly fixtures: number;
  readonly bfcl: number;
  readonly mcp: number;
}

export const FULL_CASES: CaseSelection = { fixtures: 1000, bfcl: 30, mcp: 30 };
export const QUICK_CASES: CaseSelection = { fixtures: 6, bfcl: 3, mcp: 3 };

function take(sources: readonly Source[], n: number, seed: number): CallCase[] {
  const out: CallCase[] = [];
  // Prefer schemas whose calls reach 1 KB: walk a seeded shuffle of all, keep those that do.
  const shuffled = shuffle(sources, seed);
  const small: CallCase[] = [];
  for (const src of shuffled) {
    if (out.length >= n) break;
    const c = buildCase(src);
    if (c === undefined) continue;
    if (c.originalText.length >= MIN_BYTES * 0.9) out.push(c);
    else small.push(c);
  }
  while (out.length < n && small.length > 0) out.push(small.shift()!);
  return out;
}

/** The cases, fixtures first (all of them in a full run, in name order), then BFCL and MCP samples. */
export function loadCases(selection: CaseSelection): CallCase[] {
  progress("building realistic tool calls (generated values, 1-4 KB)...");
  const fixtures: Source[] = loadFixtures().map((f) => ({
    set: "fixtures",
    id: f.name,
    schema: f.schema,
    options: f.options as CompileOptions,
    jsonSchema: f.schema,
    examples: f.valid,
  }));
  const cases: CallCase[] = [];
  if (selection.fixtures >= fixtures.length) {
    for (const f of fixtures) {
      const c = buildCase(f);
      if (c !== undefined) cases.push(c);
    }
  } else cases.push(...take(fixtures, selection.fixtures, 7));
  if (selection.bfcl > 0) {
    const bfcl: Source[] = loadBfcl().map((b) => ({
      set: "bfcl",
      id: b.id,
      schema: b.raw,
      options: { dialect: "bfcl" },
      jsonSchema: b.schema,
      examples: b.instances,
    }));
    cases.push(...take(bfcl, selection.bfcl, 11));
  }
  if (selection.mcp > 0) {
    const mcp: Source[] = loadMcp().map((m) => ({
      set: "mcp",
      id: m.id,
      schema: m.schema,
      options: {},
      jsonSchema: m.schema,
      examples: [],
    }));
    cases.push(...take(mcp, selection.mcp, 13));
  }
  return cases;
}

export type { Json };
