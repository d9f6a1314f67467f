/**
 * Expansion: how much bigger the wire schema is than the source schema, in
 * bytes and o200k_base tokens (compact JSON text of each), for the presence
 * modes and the factored form. Then where the wire's tokens go, by construct,
 * and what candidate wire-format changes would save, measured by rewriting
 * the wire schemas here (the codec is not changed).
 */

import { type CompileOptions, compile } from "@strictwire/codec";
import { isPlainObject } from "@strictwire/codec/schema";
import { loadBfcl, loadFixtures, loadMcp, sample } from "../corpora.js";
import { pct, table } from "../format.js";
import { type Summary, summarize } from "../stats.js";
import { tokens } from "../tokens.js";

export type SetName = "fixtures" | "bfcl" | "mcp";
export const MODES = ["tagged", "compact", "factored", "compactFactored"] as const;
export type Mode = (typeof MODES)[number];

const MODE_OPTIONS: Readonly<Record<Mode, CompileOptions>> = {
  tagged: { presence: "tagged" },
  compact: { presence: "compact" },
  factored: { presence: "tagged", factored: true },
  compactFactored: { presence: "compact", factored: true },
};

export const MODE_LABEL: Readonly<Record<Mode, string>> = {
  tagged: "tagged",
  compact: "compact",
  factored: "tagged + factored",
  compactFactored: "compact + factored",
};

export interface ExpansionInput {
  readonly set: SetName;
  readonly id: string;
  /** What compile is given (BFCL: its own dialect, compiled with dialect "bfcl"). */
  readonly source: unknown;
  readonly options: CompileOptions;
}

export interface Size {
  readonly bytes: number;
  readonly tokens: number;
}

export interface ItemExpansion {
  readonly set: SetName;
  readonly id: string;
  readonly source: Size;
  readonly wires: Readonly<Record<Mode, Record<string, unknown>>>;
  readonly sizes: Readonly<Record<Mode, Size>>;
}

export function sizeOf(value: unknown): Size {
  const text = JSON.stringify(value);
  return { bytes: Buffer.byteLength(text), tokens: tokens(text) };
}

export interface ExpansionSelection {
  readonly fixtures: boolean | readonly string[];
  readonly bfcl: number;
  readonly mcp: number;
}

export function expansionInputs(sel: ExpansionSelection): ExpansionInput[] {
  const out: ExpansionInput[] = [];
  if (sel.fixtures !== false) {
    for (const f of loadFixtures()) {
      if (Array.isArray(sel.fixtures) && !sel.fixtures.includes(f.name)) continue;
      out.push({ set: "fixtures", id: f.name, source: f.schema, options: f.options as CompileOptions });
    }
  }
  if (sel.bfcl > 0) {
    for (const b of sample(loadBfcl(), sel.bfcl, 17))
      out.push({ set: "bfcl", id: b.id, source: b.raw, options: { dialect: "bfcl" } });
  }
  if (sel.mcp > 0) {
    for (const m of sample(loadMcp(), sel.mcp, 19)) out.push({ set: "mcp", id: m.id, source: m.schema, options: {} });
  }
  return out;
}

export interface ExpansionRun {
  readonly items: readonly ItemExpansion[];
  /** Inputs some mode refused, by set, with the first refusal code. */
  readonly refused: readonly { set: SetName; id: string; code: string }[];
}

/** Compile every input in the four modes; inputs refused in any mode are left out of every figure (and listed). */
export function measureExpansion(inputs: readonly ExpansionInput[]): ExpansionRun {
  const items: ItemExpansion[] = [];
  const refused: { set: SetName; id: string; code: string }[] = [];
  for (const input of inputs) {
    const wires: Partial<Record<Mode, Record<string, unknown>>> = {};
    let code: string | undefined;
    for (const mode of MODES) {
      let r: ReturnType<typeof compile>;
      try {
        r = compile(input.source, { ...input.options, ...MODE_OPTIONS[mode] });
      } catch (error) {
        code = `threw: ${String(error).slice(0, 60)}`;
        break;
      }
      if (!r.ok) {
        code = r.error.code;
        break;
      }
      wires[mode] = r.value.wire as Record<string, unknown>;
    }
    if (code !== undefined) {
      refused.push({ set: input.set, id: input.id, code });
      continue;
    }
    const w = wires as Record<Mode, Record<string, unknown>>;
    const sizes = {} as Record<Mode, Size>;
    for (const mode of MODES) sizes[mode] = sizeOf(w[mode]);
    items.push({ set: input.set, id: input.id, source: sizeOf(input.source), wires: w, sizes });
  }
  return { items, refused };
}

export interface Ratio {
  /** Sum of wire over sum of source. */
  readonly aggregate: number;
  /** Per-schema ratios: median and quartiles. */
  readonly perSchema: Summary;
}

export interface ModeExpansion {
  readonly bytes: Ratio;
  readonly tokens: Ratio;
}

function ratio(
  items: readonly ItemExpansion[],
  wire: (i: ItemExpansion) => number,
  source: (i: ItemExpansion) => number,
): Ratio {
  let w = 0;
  let s = 0;
  for (const i of items) {
    w += wire(i);
    s += source(i);
  }
  return { aggregate: w / s, perSchema: summarize(items.map((i) => wire(i) / source(i))) };
}

export function expansionOf(items: readonly ItemExpansion[], mode: Mode): ModeExpansion {
  return {
    bytes: ratio(
      items,
      (i) => i.sizes[mode].bytes,
      (i) => i.source.bytes,
    ),
    tokens: ratio(
      items,
      (i) => i.sizes[mode].tokens,
      (i) => i.source.tokens,
    ),
  };
}

// ---------------------------------------------------------------------------
// Rewriting wire schemas: attribution of tokens, and proposals.

type Schema = Record<string, unknown>;

const ABSENT_REF = "#/$defs/strictwire_absent";
const SCHEMA_MAPS = ["properties", "$defs"];
const SCHEMA_ONE = ["items", "additionalProperties"];

/** Rewrite every subschema bottom-up with f. */
function mapSchemas(node: unknown, f: (s: Schema) => Schema): unknown {
  if (!isPlainObject(node)) return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if (SCHEMA_MAPS.includes(k) && isPlainObject(v)) {
      const m: Schema = {};
      for (const [name, sub] of Object.entries(v)) m[name] = mapSchemas(sub, f);
      out[k] = m;
    } else if (SCHEMA_ONE.includes(k) && isPlainObject(v)) out[k] = mapSchemas(v, f);
    else if (k === "anyOf" && Array.isArray(v)) out[k] = v.map((b) => mapSchemas(b, f));
    else out[k] = v;
  }
  return f(out);
}

function presenceParts(s: Schema): { value: Schema; present: Schema } | undefined {
  if (!Array.isArray(s.anyOf) || s.anyOf.length !== 2) return undefined;
  const [absent, present] = s.anyOf as unknown[];
  if (
    !isPlainObject(absent) ||
    absent.$ref !== ABSENT_REF ||
    !isPlainObject(present) ||
    !isPlainObject(present.properties)
  )
    return undefined;
  const state = present.properties.state;
  const value = present.properties.value;
  if (!isPlainObject(state) || state.const !== "present" || !isPlainObject(value)) return undefined;
  return { value, present };
}

function compactParts(s: Schema): Schema | undefined {
  if (!Array.isArray(s.anyOf) || s.anyOf.length !== 2) return undefined;
  const [value, nul] = s.anyOf as unknown[];
  if (!isPlainObject(value) || !isPlainObject(nul) || nul.type !== "null" || Object.keys(nul).length !== 1)
    return undefined;
  return value;
}

function isUnionTag(s: Schema): Schema | undefined {
  const p = s.properties;
  if (s.type !== "object" || !isPlainObject(p) || Object.keys(p).length !== 2) return undefined;
  const branch = p.branch;
  if (!isPlainObject(branch) || typeof branch.const !== "number" || !isPlainObject(p.value)) return undefined;
  return p.value;
}

function entriesValue(s: Schema): Schema | undefined {
  if (s.type !== "array" || !isPlainObject(s.items)) return undefined;
  const p = s.items.properties;
  if (!isPlainObject(p) || Object.keys(p).length !== 2 || !isPlainObject(p.key) || !isPlainObject(p.value))
    return undefined;
  return p.value;
}

function withoutAbsentDef(wire: Schema): Schema {
  if (JSON.stringify(wire).includes(ABSENT_REF) || !isPlainObject(wire.$defs)) return wire;
  const { strictwire_absent: _absent, ...defs } = wire.$defs;
  const out = { ...wire };
  if (Object.keys(defs).length === 0) delete out.$defs;
  else out.$defs = defs;
  return out;
}

function dropCopiedDescription(outer: Schema, inner: Schema): Schema {
  if (outer.description === undefined || inner.description !== outer.description) return inner;
  const { description: _d, ...rest } = inner;
  return rest;
}

/** A description repeated on the tagged or nullable value inside its member, removed (wire values unchanged). */
function withoutCopiedDescriptions(wire: Schema): Schema {
  return mapSchemas(wire, (s) => {
    const p = presenceParts(s);
    if (p !== undefined) {
      const value = dropCopiedDescription(s, p.value);
      const present = { ...p.present, properties: { ...(p.present.properties as Schema), value } };
      return { ...s, anyOf: [(s.anyOf as unknown[])[0], present] };
    }
    const v = compactParts(s);
    if (v !== undefined) return { ...s, anyOf: [dropCopiedDescription(s, v), (s.anyOf as unknown[])[1]] };
    return s;
  }) as Schema;
}

export interface Rewrite {
  readonly name: string;
  readonly what: string;
  apply(wire: Schema): Schema;
}

/** What each construct costs: the wire with that construct written as a plain (non-strict) schema would write it. */
export const ATTRIBUTION: readonly Rewrite[] = [
  {
    name: "arguments wrapper",
    what: 'the {"arguments": ...} root object (wire 3: non-object roots only)',
    apply: (wire) => {
      // Wire 3 sends an object root bare; only a wire whose one member is "arguments" is wrapped.
      const props = wire.properties;
      if (!isPlainObject(props) || Object.keys(props).length !== 1 || !isPlainObject(props.arguments)) return wire;
      const args = props.arguments as Schema;
      return wire.$defs === undefined ? args : { ...args, $defs: wire.$defs };
    },
  },
  {
    name: "presence tags (tagged optional members)",
    what: "anyOf [absent tag, {state: present, value: X}] instead of X",
    apply: (wire) =>
      withoutAbsentDef(
        mapSchemas(wire, (s) => {
          const p = presenceParts(s);
          if (p === undefined) return s;
          const { anyOf: _a, ...annotations } = s;
          return { ...annotations, ...dropCopiedDescription(annotations, p.value) };
        }) as Schema,
      ),
  },
  {
    name: "null alternatives (compact optional members)",
    what: "anyOf [X, null] instead of X",
    apply: (wire) =>
      mapSchemas(wire, (s) => {
        const v = compactParts(s);
        if (v === undefined) return s;
        const { anyOf: _a, ...annotations } = s;
        return { ...annotations, ...dropCopiedDescription(annotations, v) };
      }) as Schema,
  },
  {
    name: "copied descriptions",
    what: "a description repeated on the tagged or nullable value inside its member",
    apply: withoutCopiedDescriptions,
  },
  {
    name: "union tags",
    what: "{branch: i, value: X} instead of X",
    apply: (wire) => mapSchemas(wire, (s) => isUnionTag(s) ?? s) as Schema,
  },
  {
    name: "entries (maps and any-JSON objects)",
    what: "[{key, value}] arrays instead of additionalProperties",
    apply: (wire) =>
      mapSchemas(wire, (s) => {
        const v = entriesValue(s);
        return v === undefined ? s : { type: "object", additionalProperties: v };
      }) as Schema,
  },
  {
    name: "closed objects (required + additionalProperties: false)",
    what: "what strict mode demands of every object",
    apply: (wire) =>
      mapSchemas(wire, (s) => {
        if (s.type !== "object") return s;
        const { required: _r, additionalProperties: ap, ...rest } = s;
        return ap === false || ap === undefined ? rest : { ...rest, additionalProperties: ap };
      }) as Schema,
  },
];

/** Candidate wire-format changes, each measured by rewriting the wire schemas. */
export const PROPOSALS: readonly Rewrite[] = [
  {
    name: 'P1 present as {"value": X}',
    what: 'drop the "state" member from the present branch: {"value": X} vs {"state": "absent"} stay distinct by their members',
    apply: (wire) =>
      mapSchemas(wire, (s) => {
        const p = presenceParts(s);
        if (p === undefined) return s;
        const present = {
          type: "object",
          properties: { value: p.value },
          required: ["value"],
          additionalProperties: false,
        };
        return { ...s, anyOf: [(s.anyOf as unknown[])[0], present] };
      }) as Schema,
  },
  {
    name: "P2 no type beside const",
    what: 'write tags as {"const": ...} without "type" (absent tag, union branch index)',
    apply: (wire) =>
      mapSchemas(wire, (s) => {
        if (!("const" in s) || typeof s.type !== "string" || Object.keys(s).length !== 2) return s;
        return { const: s.const };
      }) as Schema,
  },
  {
    name: "P3 no arguments wrapper",
    what: "when the root is an object, give its wire schema as the parameters (wire 3 does: nothing left to save)",
    apply: (wire) => ATTRIBUTION[0]!.apply(wire),
  },
];

export const ALL_PROPOSALS: Rewrite = {
  name: "P1+P2+P3",
  what: "all three",
  apply: (wire) => PROPOSALS.reduce((w, p) => p.apply(w), wire),
};

export interface RewriteEffect {
  readonly name: string;
  readonly what: string;
  /** Wire tokens the rewrite removes, as a share of all wire tokens (sums over schemas). */
  readonly share: number;
  /** Token expansion (aggregate) after the rewrite. */
  readonly tokens: number;
  readonly bytes: number;
}

export function rewriteEffects(
  items: readonly ItemExpansion[],
  mode: Mode,
  rewrites: readonly Rewrite[],
): RewriteEffect[] {
  const sourceTokens = items.reduce((a, i) => a + i.source.tokens, 0);
  const sourceBytes = items.reduce((a, i) => a + i.source.bytes, 0);
  const wireTokens = items.reduce((a, i) => a + i.sizes[mode].tokens, 0);
  return rewrites.map((r) => {
    let t = 0;
    let b = 0;
    for (const i of items) {
      const s = sizeOf(r.apply(i.wires[mode]));
      t += s.tokens;
      b += s.bytes;
    }
    return {
      name: r.name,
      what: r.what,
      share: (wireTokens - t) / wireTokens,
      tokens: t / sourceTokens,
      bytes: b / sourceBytes,
    };
  });
}

// ---------------------------------------------------------------------------

export interface ExpansionResult {
  readonly run: ExpansionRun;
  readonly bySet: Readonly<Record<string, Readonly<Record<Mode, ModeExpansion>>>>;
  readonly all: Readonly<Record<Mode, ModeExpansion>>;
  readonly attribution?: Readonly<Record<"tagged" | "compact", readonly RewriteEffect[]>>;
  readonly proposals?: Readonly<Record<"tagged" | "compact", readonly RewriteEffect[]>>;
}

export function runExpansion(inputs: readonly ExpansionInput[], analyse: boolean): ExpansionResult {
  const run = measureExpansion(inputs);
  const bySet: Record<string, Record<Mode, ModeExpansion>> = {};
  for (const set of ["fixtures", "bfcl", "mcp"] as const) {
    const items = run.items.filter((i) => i.set === set);
    if (items.length === 0) continue;
    bySet[set] = Object.fromEntries(MODES.map((m) => [m, expansionOf(items, m)])) as Record<Mode, ModeExpansion>;
  }
  const all = Object.fromEntries(MODES.map((m) => [m, expansionOf(run.items, m)])) as Record<Mode, ModeExpansion>;
  if (!analyse) return { run, bySet, all };
  const attribution = {
    tagged: rewriteEffects(run.items, "tagged", ATTRIBUTION),
    compact: rewriteEffects(run.items, "compact", ATTRIBUTION),
  };
  const proposals = {
    tagged: rewriteEffects(run.items, "tagged", [...PROPOSALS, ALL_PROPOSALS]),
    compact: rewriteEffects(run.items, "compact", [...PROPOSALS, ALL_PROPOSALS]),
  };
  return { run, bySet, all, attribution, proposals };
}

const fmtRatio = (r: Ratio): string =>
  `${r.aggregate.toFixed(2)} | ${r.perSchema.median.toFixed(2)} (${r.perSchema.p25.toFixed(2)}–${r.perSchema.p75.toFixed(2)})`;

export function renderExpansion(r: ExpansionResult): string {
  const counts = (set: string): string => {
    const n = r.run.items.filter((i) => set === "all" || i.set === set).length;
    const refused = r.run.refused.filter((i) => set === "all" || i.set === set).length;
    return refused > 0 ? `${n} (+${refused} refused)` : String(n);
  };
  const rows: (string | number)[][] = [];
  const sets = [...Object.keys(r.bySet), "all"];
  for (const set of sets) {
    const e = set === "all" ? r.all : r.bySet[set]!;
    for (const m of MODES) {
      const [bAgg, bMed] = fmtRatio(e[m].bytes).split(" | ");
      const [tAgg, tMed] = fmtRatio(e[m].tokens).split(" | ");
      rows.push([set, counts(set), MODE_LABEL[m], bAgg!, bMed!, tAgg!, tMed!]);
    }
  }
  const parts = [
    "## Expansion: wire schema over source schema",
    "",
    "Compact JSON text of each; tokens are o200k_base. Aggregate = sum of wire / sum of source; per-schema = median (p25–p75). Schemas refused in any mode are left out of all figures.",
    "",
    table(
      ["set", "schemas", "mode", "bytes: aggregate", "bytes: per schema", "tokens: aggregate", "tokens: per schema"],
      rows,
    ),
  ];
  if (r.run.refused.length > 0) {
    const codes = new Map<string, number>();
    for (const x of r.run.refused) codes.set(`${x.set}: ${x.code}`, (codes.get(`${x.set}: ${x.code}`) ?? 0) + 1);
    parts.push("", `Refused: ${[...codes].map(([k, n]) => `${k} (${n})`).join(", ")}.`);
  }
  if (r.attribution !== undefined && r.proposals !== undefined) {
    for (const mode of ["tagged", "compact"] as const) {
      parts.push(
        "",
        `### Where the ${mode} wire's tokens go`,
        "",
        "Each row rewrites only that construct into what a plain schema would say, over all schemas; share = wire tokens it accounts for.",
        "",
        table(
          ["construct", "share of wire tokens", "token expansion without it"],
          r.attribution[mode].map((a) => [a.name, pct(a.share), a.tokens.toFixed(2)]),
        ),
      );
    }
    for (const mode of ["tagged", "compact"] as const) {
      parts.push(
        "",
        `### Proposed wire-format changes, measured on the ${mode} wires`,
        "",
        table(
          ["proposal", "tokens saved", "token expansion after", "byte expansion after", "what"],
          r.proposals[mode].map((p) => [p.name, pct(p.share), p.tokens.toFixed(2), p.bytes.toFixed(2), p.what]),
        ),
      );
    }
  }
  return parts.join("\n");
}
