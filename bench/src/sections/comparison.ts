/**
 * Against the converters in use today: per corpus and converter, how many
 * schemas convert, how many converted schemas fit OpenAI's strict subset, and
 * which share of valid instances is exactly representable: some wire value
 * the converted schema accepts maps back, through the converter's own
 * normaliser, to the identical instance, member presence included.
 *
 * The candidate wire value follows each converter's documented mapping (an
 * absent member is sent as null; everything else as itself); strictwire's is
 * its own encode. A loss is recorded with its first reason.
 */

import { type CompileOptions, compileCodec } from "@strictwire/codec";
import { isPlainObject } from "@strictwire/codec/schema";
import { baselineValidator, type ValidateFn, wireValidator } from "../baseline.js";
import { type Converter, loadConverters, type Normalise } from "../converters.js";
import { jsonSchemaBenchSubsets, loadBfcl, loadJsonSchemaBench, loadMcp, sample } from "../corpora.js";
import { pct, progress, table } from "../format.js";
import { generateValue } from "../generate.js";
import { fitsOpenAIStrict } from "../strict-check.js";

export interface CorpusItem {
  readonly id: string;
  readonly schema: unknown;
  readonly instances: readonly unknown[];
}

export interface Tally {
  schemas: number;
  converted: number;
  fits: number;
  instances: number;
  representable: number;
  /** Representable through a converted schema that also fits the strict subset. */
  representableAndFits: number;
  readonly notConverted: Map<string, number>;
  readonly notFitting: Map<string, number>;
  readonly losses: Map<string, number>;
  /** Time spent in this row (conversion, checks and round trips), ms. */
  ms: number;
}

const newTally = (): Tally => ({
  schemas: 0,
  converted: 0,
  fits: 0,
  instances: 0,
  representable: 0,
  representableAndFits: 0,
  notConverted: new Map(),
  notFitting: new Map(),
  losses: new Map(),
  ms: 0,
});

const bump = (m: Map<string, number>, k: string, n = 1): void => {
  // A refused schema with no instances loses none: no "(0)" entry.
  if (n > 0) m.set(k, (m.get(k) ?? 0) + n);
};

// ---------------------------------------------------------------------------
// Candidate wire values by the "absent -> null" mapping.

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  let node: unknown = root;
  if (pointer === "") return root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isPlainObject(node) ? node[token] : Array.isArray(node) ? node[Number(token)] : undefined;
  }
  return node;
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function branchFits(v: unknown, b: unknown, root: unknown): number {
  let s = b;
  for (let i = 0; i < 8 && isPlainObject(s) && typeof s.$ref === "string"; i++) s = resolveRef(root, s.$ref);
  if (!isPlainObject(s)) return 0;
  const t = jsonType(v);
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? undefined : [s.type];
  if (types !== undefined && !types.includes(t) && !(t === "integer" && types.includes("number"))) return 0;
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return 0;
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(v)) return 0;
  if (isPlainObject(v) && isPlainObject(s.properties)) {
    const props = s.properties;
    const keys = Object.keys(v);
    const declared = keys.filter((k) => Object.hasOwn(props, k)).length;
    return 1 + declared / Math.max(1, keys.length);
  }
  return 1;
}

/** The wire value a converter documents for `value`: absent members as null, the rest as themselves. */
export function candidate(value: unknown, schema: unknown, root: unknown, inserted: Set<string>, at = ""): unknown {
  let s = schema;
  for (let i = 0; i < 16 && isPlainObject(s) && typeof s.$ref === "string"; i++) s = resolveRef(root, s.$ref);
  if (!isPlainObject(s)) return value;
  if (Array.isArray(s.anyOf)) {
    let best: unknown;
    let bestScore = 0;
    for (const b of s.anyOf) {
      const score = branchFits(value, b, root);
      if (score > bestScore) {
        bestScore = score;
        best = b;
      }
    }
    if (best !== undefined) return candidate(value, best, root, inserted, at);
    return value;
  }
  if (Array.isArray(value)) {
    const items = s.items;
    return value.map((v, i) => (isPlainObject(items) ? candidate(v, items, root, inserted, `${at}/${i}`) : v));
  }
  if (isPlainObject(value) && isPlainObject(s.properties)) {
    const props = s.properties;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(props)) {
      const path = `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (Object.hasOwn(value, k)) out[k] = candidate(value[k], props[k], root, inserted, path);
      else {
        out[k] = null;
        inserted.add(path);
      }
    }
    for (const k of Object.keys(value)) if (!Object.hasOwn(props, k)) out[k] = value[k];
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------
// Identity with member presence (an own member holding undefined counts as absent: JSON cannot carry it).

export function firstDifference(expected: unknown, actual: unknown): string | undefined {
  if (expected === actual) return undefined;
  if (typeof expected === "number" && typeof actual === "number") {
    return expected === actual || (expected === 0 && actual === 0) ? undefined : "value changed";
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return "value changed";
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i]);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return "value changed";
    for (const k of Object.keys(expected)) {
      const has = Object.hasOwn(actual, k) && actual[k] !== undefined;
      if (!has) return expected[k] === null ? "null became absent" : "member dropped";
      const d = firstDifference(expected[k], actual[k]);
      if (d !== undefined) return d;
    }
    for (const k of Object.keys(actual)) {
      if (actual[k] === undefined || Object.hasOwn(expected, k)) continue;
      return actual[k] === null ? "absent became null" : "member added";
    }
    return undefined;
  }
  return "value changed";
}

export function classifyRejection(v: ValidateFn, inserted: ReadonlySet<string>): string {
  const e = v.errors?.[0];
  if (e === undefined) return "wire schema rejects the value";
  const at = e.instancePath;
  if (inserted.has(at) || [...inserted].some((p) => at.startsWith(`${p}/`)))
    return "absent has no wire form (member made required, null not accepted)";
  if (e.keyword === "additionalProperties")
    return "member not in the wire schema (dynamic keys or open object refused)";
  if (e.keyword === "required") return "wire requires a member the value lacks";
  return `wire schema rejects the value (${e.keyword})`;
}

function shortReason(reason: string): string {
  const m = /unsupported keyword `([^`]+)`/.exec(reason);
  if (m) return `refused: unsupported keyword ${m[1]}`;
  if (/nullab/i.test(reason)) return "refused: nullability undetermined";
  if (/anyOf/.test(reason) && /optional/.test(reason)) return "refused: anyOf branch with optional members";
  if (/typeless open/i.test(reason)) return "refused: typeless open schema";
  if (/reference/i.test(reason)) return "refused: reference form";
  return `refused: ${reason.slice(0, 70)}`;
}

// ---------------------------------------------------------------------------

interface Row {
  readonly name: string;
  run(item: CorpusItem, tally: Tally): Promise<void>;
}

function converterRow(c: Converter): Row {
  return {
    name: c.name,
    async run(item, tally) {
      tally.schemas++;
      tally.instances += item.instances.length;
      const conv = c.convert(item.schema);
      if (!conv.converted) {
        bump(tally.notConverted, shortReason(conv.reason));
        bump(tally.losses, "schema not converted", item.instances.length);
        return;
      }
      tally.converted++;
      const verdict = fitsOpenAIStrict(conv.wire);
      if (verdict.fits) tally.fits++;
      else bump(tally.notFitting, verdict.reason);
      let validate: ValidateFn;
      try {
        validate = wireValidator(conv.wire);
      } catch {
        bump(tally.losses, "converted schema does not compile", item.instances.length);
        return;
      }
      for (const inst of item.instances) {
        const inserted = new Set<string>();
        const wire = candidate(inst, conv.wire, conv.wire, inserted);
        if (!validate(wire)) {
          bump(tally.losses, classifyRejection(validate, inserted));
          continue;
        }
        const reason = await roundTrip(conv.normalise, wire, inst);
        if (reason !== undefined) {
          bump(tally.losses, reason);
          continue;
        }
        tally.representable++;
        if (verdict.fits) tally.representableAndFits++;
      }
    },
  };
}

async function roundTrip(normalise: Normalise, wire: unknown, inst: unknown): Promise<string | undefined> {
  let back: Awaited<ReturnType<Normalise>>;
  try {
    back = await normalise(wire);
  } catch (error) {
    const m = String(error);
    const where = /at #?(\w+)/.exec(error instanceof Error ? (error.stack ?? "") : "")?.[1];
    return `normaliser threw: ${m.slice(0, 60)}${where !== undefined ? ` (in ${where})` : ""}`;
  }
  if (!back.ok) {
    if (/no schema with key or ref/.test(back.reason))
      return "normaliser cannot validate: its ajv does not know the schema's $schema (draft-04/06)";
    return `normaliser rejected the value (${back.reason.replace(/^rejected: /, "").slice(0, 40)})`;
  }
  return firstDifference(inst, back.value);
}

function strictwireRow(name: string, options: CompileOptions): Row {
  return {
    name,
    async run(item, tally) {
      tally.schemas++;
      tally.instances += item.instances.length;
      let c: ReturnType<typeof compileCodec>;
      try {
        c = compileCodec(item.schema, options);
      } catch (error) {
        // compile promises a Result, never an exception: counted, and reported as a bug.
        bump(tally.notConverted, `threw: ${String(error).slice(0, 80)}`);
        bump(tally.losses, "schema not converted", item.instances.length);
        return;
      }
      if (!c.ok) {
        bump(tally.notConverted, `refused: ${c.error.code}`);
        bump(tally.losses, "schema not converted", item.instances.length);
        return;
      }
      tally.converted++;
      const verdict = fitsOpenAIStrict(c.value.bundle.wire);
      if (verdict.fits) tally.fits++;
      else bump(tally.notFitting, verdict.reason);
      for (const inst of item.instances) {
        const e = c.value.encode(inst);
        if (!e.ok) {
          bump(tally.losses, `encode: ${e.error.code}`);
          continue;
        }
        const d = c.value.decode(JSON.stringify(e.value));
        if (!d.ok) {
          bump(tally.losses, `decode: ${d.error.code}`);
          continue;
        }
        const diff = firstDifference(inst, d.value);
        if (diff !== undefined) {
          bump(tally.losses, diff);
          continue;
        }
        tally.representable++;
        if (verdict.fits) tally.representableAndFits++;
      }
    },
  };
}

const controlRow: Row = {
  name: "control: original schema, strict off",
  async run(item, tally) {
    tally.schemas++;
    tally.converted++;
    tally.instances += item.instances.length;
    tally.representable += item.instances.length;
    bump(tally.notFitting, "not a strict schema (strict off)");
  },
};

export async function comparisonRows(): Promise<Row[]> {
  const converters = await loadConverters();
  return [
    strictwireRow("strictwire (tagged, openObjects close)", { presence: "tagged" }),
    strictwireRow("strictwire (compact, openObjects close)", { presence: "compact" }),
    strictwireRow("strictwire (tagged, openObjects preserve)", { presence: "tagged", openObjects: "preserve" }),
    ...converters.map(converterRow),
    controlRow,
  ];
}

// ---------------------------------------------------------------------------
// Corpora with their valid instances.

export interface Corpus {
  readonly name: string;
  readonly items: CorpusItem[];
  /** Schemas left out, and why. */
  readonly excluded: Map<string, number>;
  readonly note: string;
}

/** Keep the instances the original schema accepts (a precompiled ajv, as the baseline). */
function admit(
  id: string,
  schema: unknown,
  instances: readonly unknown[],
  excluded: Map<string, number>,
): CorpusItem | undefined {
  let v: ValidateFn;
  try {
    v = baselineValidator(schema);
  } catch {
    bump(excluded, "ajv cannot compile the original schema");
    return undefined;
  }
  const valid = instances.filter((i) => {
    try {
      return v(i);
    } catch {
      return false;
    }
  });
  if (valid.length < instances.length)
    bump(excluded, "instances the original schema rejects (dropped)", instances.length - valid.length);
  return { id, schema, instances: valid };
}

export function loadBenchCorpus(maxSchemas: number): Corpus {
  const excluded = new Map<string, number>();
  const all = jsonSchemaBenchSubsets().flatMap((s) => loadJsonSchemaBench(s));
  const chosen = sample(all, maxSchemas, 5);
  const items: CorpusItem[] = [];
  for (const s of chosen) {
    const item = admit(s.id, s.schema, s.valid, excluded);
    if (item !== undefined) items.push(item);
  }
  const note =
    chosen.length < all.length
      ? `a seeded random sample of ${chosen.length} of ${all.length} schemas, with their valid instances`
      : `all ${all.length} schemas, with their valid instances`;
  return { name: "JSONSchemaBench", items, excluded, note };
}

export function loadBfclCorpus(maxSchemas: number): Corpus {
  const excluded = new Map<string, number>();
  const withAnswers = loadBfcl().filter((b) => b.instances.length > 0);
  const chosen = sample(withAnswers, maxSchemas, 9);
  const items: CorpusItem[] = [];
  for (const b of chosen) {
    const item = admit(b.id, b.schema, b.instances, excluded);
    if (item !== undefined) items.push(item);
  }
  return {
    name: "BFCL",
    items,
    excluded,
    note: `${chosen.length} of ${withAnswers.length} function schemas that have ground-truth calls (JSON Schema form, see bfclToJsonSchema); instances: the first acceptable value of each parameter, "" meaning left out`,
  };
}

export function loadMcpCorpus(maxSchemas: number): Corpus {
  const excluded = new Map<string, number>();
  const tools = sample(loadMcp(), maxSchemas, 3);
  const items: CorpusItem[] = [];
  for (const t of tools) {
    // No instances ship with the MCP snapshots: three generated per tool (required members only, about half, all).
    const instances = [0, 0.5, 1]
      .map((optional, i) => generateValue(t.schema, { seed: 100 + i, scale: 1, optional, maxChars: 20_000 }))
      .filter((v) => v !== undefined);
    const item = admit(t.id, t.schema, instances, excluded);
    if (item !== undefined) items.push(item);
  }
  return {
    name: "MCP",
    items,
    excluded,
    note: `${tools.length} tool input schemas; instances generated (required members only, about half, all optional members), kept when the original schema accepts them`,
  };
}

export interface ComparisonResult {
  readonly corpora: readonly { readonly corpus: Corpus; readonly tallies: ReadonlyMap<string, Tally> }[];
}

export async function runComparison(corpora: readonly Corpus[]): Promise<ComparisonResult> {
  const out: { corpus: Corpus; tallies: Map<string, Tally> }[] = [];
  for (const corpus of corpora) {
    const rows = await comparisonRows();
    const tallies = new Map<string, Tally>(rows.map((r) => [r.name, newTally()]));
    let n = 0;
    const t0 = performance.now();
    for (const item of corpus.items) {
      for (const r of rows) {
        const tally = tallies.get(r.name)!;
        const t = performance.now();
        await r.run(item, tally);
        tally.ms += performance.now() - t;
      }
      if (++n % 200 === 0)
        progress(
          `  ${corpus.name}: ${n}/${corpus.items.length} schemas (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
        );
    }
    out.push({ corpus, tallies });
  }
  return { corpora: out };
}

function topReasons(m: ReadonlyMap<string, number>, k = 3): string {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([r, n]) => `${r} (${n})`)
    .join("; ");
}

export function renderComparison(r: ComparisonResult): string {
  const parts: string[] = [];
  for (const { corpus, tallies } of r.corpora) {
    const instances = corpus.items.reduce((a, i) => a + i.instances.length, 0);
    parts.push(
      `### ${corpus.name}`,
      "",
      `${corpus.items.length} schemas, ${instances} valid instances: ${corpus.note}.`,
    );
    if (corpus.excluded.size > 0) parts.push(`Left out: ${topReasons(corpus.excluded, 5)}.`);
    parts.push(
      "",
      table(
        ["converter", "schemas converted", "fit strict subset", "instances representable", "representable and fits"],
        [...tallies].map(([name, t]) => [
          name,
          `${t.converted}/${t.schemas} (${pct(t.converted / Math.max(1, t.schemas))})`,
          `${t.fits}/${t.converted} (${pct(t.fits / Math.max(1, t.converted))})`,
          `${t.representable}/${t.instances} (${pct(t.representable / Math.max(1, t.instances))})`,
          `${t.representableAndFits}/${t.instances} (${pct(t.representableAndFits / Math.max(1, t.instances))})`,
        ]),
      ),
      "",
      table(
        ["converter", "first reason for lost instances (count)", "schemas refused (count)", "not fitting (count)"],
        [...tallies].map(([name, t]) => [
          name,
          topReasons(t.losses) || "none",
          topReasons(t.notConverted) || "none",
          topReasons(t.notFitting, 2) || "none",
        ]),
      ),
      "",
    );
  }
  return ["## Against today's converters", "", ...parts].join("\n");
}

export function comparisonJson(r: ComparisonResult): unknown {
  return r.corpora.map(({ corpus, tallies }) => ({
    corpus: corpus.name,
    schemas: corpus.items.length,
    note: corpus.note,
    excluded: Object.fromEntries(corpus.excluded),
    converters: [...tallies].map(([name, t]) => ({
      name,
      schemas: t.schemas,
      converted: t.converted,
      fits: t.fits,
      instances: t.instances,
      representable: t.representable,
      representableAndFits: t.representableAndFits,
      losses: Object.fromEntries(t.losses),
      notConverted: Object.fromEntries(t.notConverted),
      notFitting: Object.fromEntries(t.notFitting),
    })),
  }));
}
