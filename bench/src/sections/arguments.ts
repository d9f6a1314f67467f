/**
 * Argument tokens: what the model writes per call. For BFCL ground-truth calls
 * and generated MCP calls, o200k_base tokens of the compact JSON text of the
 * arguments as the source schema has them, against the wire value the codec
 * encodes them to (tagged, compact, tagged + factored). Then where the wire's
 * extra tokens go, and what candidate wire-format changes would save, measured
 * by rewriting the wire VALUES here (counterfactual encodings; the codec is not
 * changed).
 */
import {
  ABSENCE_SPELLINGS,
  type AbsenceSpelling,
  type Codec,
  type CompileOptions,
  compileCodec,
} from "@strictwire/codec";
import { canonicalJson as canonical, isPlainObject as isObject } from "@strictwire/codec/schema";
import { concreteCall } from "../../../scripts/conformance/bfcl.js";
import { listFiles, readJsonLines } from "../../../scripts/conformance/io.js";
import { bfclToJsonSchema, CORPORA, loadMcp, sample } from "../corpora.js";
import { pct, table } from "../format.js";
import { generateValue } from "../generate.js";
import { geomean } from "../stats.js";
import { tokens } from "../tokens.js";

export const ARGUMENT_FORMS = ["tagged", "compact", "minimal", "factored"] as const;
export type ArgumentForm = (typeof ARGUMENT_FORMS)[number];

const FORM_OPTIONS: Readonly<Record<ArgumentForm, CompileOptions>> = {
  tagged: { presence: "tagged" },
  compact: { presence: "compact" },
  minimal: { presence: "tagged", tags: "minimal" },
  factored: { presence: "tagged", factored: true },
};

export const FORM_LABEL: Readonly<Record<ArgumentForm, string>> = {
  tagged: "tagged",
  compact: "compact",
  minimal: "tagged, minimal tags",
  factored: "tagged + factored",
};

export type CallSet = "bfcl" | "mcp";

/** One call: the schema compile is given and the arguments as the source schema has them. */
export interface ArgumentCall {
  readonly set: CallSet;
  readonly id: string;
  readonly schema: unknown;
  readonly options: CompileOptions;
  readonly args: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Calls

/**
 * BFCL's single-turn ground-truth calls (the possible_answer files whose
 * answers are lists of {function: {param: [acceptable...]}}), each read as the
 * conformance run reads it (concreteCall: first acceptable value, "" = left
 * out), paired with the function of that name in the same question. Duplicate
 * calls (same function, same arguments) are counted once. Multi-turn answers
 * (Python call text) are not included.
 */
export function loadBfclCalls(): ArgumentCall[] {
  const dir = `${CORPORA}/bfcl`;
  const out: ArgumentCall[] = [];
  const seen = new Set<string>();
  for (const file of listFiles(`${dir}/possible_answer`, ".json.gz")) {
    const functionsById = new Map<string, unknown[]>();
    for (const entry of readJsonLines(`${dir}/${file}`)) {
      if (!entry.ok || !isObject(entry.value)) continue;
      const q = entry.value;
      if (typeof q.id === "string" && Array.isArray(q.function)) functionsById.set(q.id, q.function);
    }
    for (const entry of readJsonLines(`${dir}/possible_answer/${file}`)) {
      if (!entry.ok || !isObject(entry.value)) continue;
      const { id, ground_truth: truth } = entry.value;
      if (typeof id !== "string" || !Array.isArray(truth) || !truth.every(isObject)) continue;
      for (const call of truth) {
        const name = Object.keys(call)[0] ?? "";
        const fn = functionsById.get(id)?.find((f) => isObject(f) && f.name === name);
        if (!isObject(fn) || !isObject(fn.parameters)) continue;
        const args = concreteCall(call[name], bfclToJsonSchema(fn.parameters));
        const key = canonical({ name, parameters: fn.parameters, args });
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({
          set: "bfcl",
          id: `${file.replace(/\.json\.gz$/, "")}/${id}/${name}`,
          schema: fn.parameters,
          options: { dialect: "bfcl" },
          args,
        });
      }
    }
  }
  return out;
}

/**
 * MCP tool schemas have no calls: three generated per tool, as the comparison
 * section does (required members only, about half, all optional members), so
 * absent members occur in realistic proportions.
 */
export function loadMcpCalls(maxTools: number): ArgumentCall[] {
  const out: ArgumentCall[] = [];
  for (const t of sample(loadMcp(), maxTools, 3)) {
    [0, 0.5, 1].forEach((optional, i) => {
      const v = generateValue(t.schema, { seed: 100 + i, scale: 1, optional, maxChars: 20_000 });
      if (isObject(v)) out.push({ set: "mcp", id: `${t.id}#${i}`, schema: t.schema, options: {}, args: v });
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Encoding and counting

export interface EncodedCall {
  readonly call: ArgumentCall;
  /** Compact JSON text of the source arguments, and its tokens. */
  readonly sourceTokens: number;
  /** The wire value ({"arguments": ...}) per form, and its tokens. */
  readonly wires: Readonly<Record<ArgumentForm, unknown>>;
  readonly wireTokens: Readonly<Record<ArgumentForm, number>>;
}

export interface EncodeRun {
  readonly calls: readonly EncodedCall[];
  /** Calls left out of every figure: by reason (compile refusal or encode refusal code). */
  readonly excluded: Readonly<Record<string, number>>;
}

export const textTokens = (value: unknown): number => tokens(JSON.stringify(value));

/** Encode every call in every form; a call any form cannot carry (refused schema, invalid answer) is left out of all. */
export function encodeCalls(calls: readonly ArgumentCall[]): EncodeRun {
  const codecs = new Map<string, Codec | string>();
  const codecFor = (call: ArgumentCall, form: ArgumentForm): Codec | string => {
    const key = `${form}\u0000${canonical(call.schema)}\u0000${canonical(call.options)}`;
    let c = codecs.get(key);
    if (c === undefined) {
      const r = compileCodec(call.schema, { ...call.options, ...FORM_OPTIONS[form] });
      c = r.ok ? r.value : `schema refused: ${r.error.code}`;
      codecs.set(key, c);
    }
    return c;
  };
  const out: EncodedCall[] = [];
  const excluded: Record<string, number> = {};
  for (const call of calls) {
    const wires: Partial<Record<ArgumentForm, unknown>> = {};
    let reason: string | undefined;
    for (const form of ARGUMENT_FORMS) {
      const codec = codecFor(call, form);
      if (typeof codec === "string") {
        reason = codec;
        break;
      }
      const r = codec.encode(call.args);
      if (!r.ok) {
        reason = `call refused: ${r.error.code}`;
        break;
      }
      wires[form] = r.value;
    }
    if (reason !== undefined) {
      excluded[`${call.set}: ${reason}`] = (excluded[`${call.set}: ${reason}`] ?? 0) + 1;
      continue;
    }
    const w = wires as Record<ArgumentForm, unknown>;
    const wireTokens = Object.fromEntries(ARGUMENT_FORMS.map((f) => [f, textTokens(w[f])])) as Record<
      ArgumentForm,
      number
    >;
    out.push({ call, sourceTokens: textTokens(call.args), wires: w, wireTokens });
  }
  return { calls: out, excluded };
}

/** How per-call token counts compare with the source's. */
export interface TokenRatio {
  readonly meanSource: number;
  readonly meanWire: number;
  /** mean(wire) / mean(source) = sum(wire) / sum(source): what a bill sees. The headline. */
  readonly ratioOfMeans: number;
  /** Geometric mean of the per-call ratios wire/source: what a typical call sees. */
  readonly geomeanRatio: number;
}

export function tokenRatio(pairs: readonly { source: number; wire: number }[]): TokenRatio {
  let s = 0;
  let w = 0;
  for (const p of pairs) {
    s += p.source;
    w += p.wire;
  }
  const n = Math.max(pairs.length, 1);
  return {
    meanSource: s / n,
    meanWire: w / n,
    ratioOfMeans: w / s,
    geomeanRatio: geomean(pairs.map((p) => p.wire / p.source)),
  };
}

export function formRatios(calls: readonly EncodedCall[]): Record<ArgumentForm, TokenRatio> {
  return Object.fromEntries(
    ARGUMENT_FORMS.map((f) => [f, tokenRatio(calls.map((c) => ({ source: c.sourceTokens, wire: c.wireTokens[f] })))]),
  ) as Record<ArgumentForm, TokenRatio>;
}

// ---------------------------------------------------------------------------
// Counterfactual encodings: the wire value rewritten, walked beside the source
// value so that each construct is recognised by what the codec added (a member
// the source lacks is an absent member; an object the source does not have is
// a tag), not by its shape alone.

export type Lever =
  /** X instead of {"arguments": X}. */
  | "noRoot"
  /** Absent members left out of the wire, as the source leaves them out. */
  | "omitAbsent"
  /** {"state":"absent"} written as null (what compact pays). */
  | "absentAsNull"
  /** {"state":"absent"} written as {}. */
  | "absentAsEmpty"
  /** {"state":"present","value":X} written as {"value":X}. */
  | "presentValueOnly"
  /** {"state":"present","value":X} written as X. */
  | "unwrapPresent"
  /** Entry arrays ([{"key":k,"value":v}] and {"entries":[...]}) written as objects. */
  | "entriesAsObjects"
  /** {"branch":i,"value":X} written as X. */
  | "unwrapUnion";

const ABSENT_TAG = canonical({ state: "absent" });

const hasExactly = (v: Record<string, unknown>, keys: readonly string[]): boolean => {
  const own = Object.keys(v);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(v, k));
};

const isPresentTag = (w: unknown): w is { state: "present"; value: unknown } =>
  isObject(w) && hasExactly(w, ["state", "value"]) && w.state === "present";

/** A present tag inline in the object's own fields: the wire has "state", the source object does not. */
const isInlinePresentTag = (w: unknown, s: unknown): w is Record<string, unknown> & { state: "present" } =>
  isObject(w) && w.state === "present" && isObject(s) && !Array.isArray(s) && !Object.hasOwn(s, "state");

const isUnionTag = (w: unknown): w is { branch: number; value: unknown } =>
  isObject(w) && hasExactly(w, ["branch", "value"]) && typeof w.branch === "number";

const isEntry = (e: unknown): e is { key: string; value: unknown } =>
  isObject(e) && hasExactly(e, ["key", "value"]) && typeof e.key === "string";

const isEntryArray = (w: unknown): w is { key: string; value: unknown }[] => Array.isArray(w) && w.every(isEntry);

/** Tally of the constructs met while rewriting (for the breakdown's counts). */
export interface ConstructCounts {
  absentMembers: number;
  absentTags: number;
  presentTags: number;
  entryArrays: number;
  entries: number;
  unionTags: number;
}

export const noCounts = (): ConstructCounts => ({
  absentMembers: 0,
  absentTags: 0,
  presentTags: 0,
  entryArrays: 0,
  entries: 0,
  unionTags: 0,
});

function walk(w: unknown, s: unknown, levers: ReadonlySet<Lever>, counts: ConstructCounts): unknown {
  // Untouched data: nothing the codec added lies below.
  if (canonical(w) === canonical(s)) return w;
  if (isPresentTag(w)) {
    counts.presentTags++;
    const inner = walk(w.value, s, levers, counts);
    if (levers.has("unwrapPresent")) return inner;
    return levers.has("presentValueOnly") ? { value: inner } : { state: "present", value: inner };
  }
  // An optional object member's tag carried inline (wire 3): {"state":"present", ...its fields}.
  if (isInlinePresentTag(w, s)) {
    counts.presentTags++;
    const { state: _state, ...fields } = w;
    const inner = walk(fields, s, levers, counts) as Record<string, unknown>;
    // Both shorter spellings write the fields alone (the minimal spelling of an inline tag).
    if (levers.has("unwrapPresent") || levers.has("presentValueOnly")) return inner;
    return { state: "present", ...inner };
  }
  if (isUnionTag(w)) {
    counts.unionTags++;
    const inner = walk(w.value, s, levers, counts);
    return levers.has("unwrapUnion") ? inner : { branch: w.branch, value: inner };
  }
  if (isObject(s) && !Array.isArray(s)) {
    const any = isObject(w) && hasExactly(w, ["entries"]) && isEntryArray(w.entries);
    const list = any ? (w.entries as unknown[]) : w;
    if (isEntryArray(list)) {
      counts.entryArrays++;
      counts.entries += list.length;
      const rewritten = list.map((e) => ({ key: e.key, value: walk(e.value, s[e.key], levers, counts) }));
      if (levers.has("entriesAsObjects")) {
        const o: Record<string, unknown> = {};
        for (const e of rewritten)
          Object.defineProperty(o, e.key, { value: e.value, enumerable: true, writable: true, configurable: true });
        return o;
      }
      return any ? { entries: rewritten } : rewritten;
    }
  }
  if (Array.isArray(w) && Array.isArray(s)) return w.map((x, i) => walk(x, s[i], levers, counts));
  if (isObject(w) && isObject(s)) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(w)) {
      let out: unknown;
      if (!Object.hasOwn(s, k)) {
        counts.absentMembers++;
        const tag = canonical(v) === ABSENT_TAG;
        if (tag) counts.absentTags++;
        if (levers.has("omitAbsent")) continue;
        out = tag && levers.has("absentAsNull") ? null : tag && levers.has("absentAsEmpty") ? {} : v;
      } else out = walk(v, s[k], levers, counts);
      Object.defineProperty(o, k, { value: out, enumerable: true, writable: true, configurable: true });
    }
    return o;
  }
  return w;
}

/**
 * The wire value with the levers applied, walked beside the source arguments.
 * An object root travels bare (wire 3); any other root as {"arguments": X},
 * which "noRoot" removes.
 */
export function counterfactual(
  wire: unknown,
  source: unknown,
  levers: Iterable<Lever>,
  counts: ConstructCounts = noCounts(),
): unknown {
  const set = new Set(levers);
  // A source whose own single member is "arguments" is not a wrapper.
  const wrapped =
    isObject(wire) &&
    hasExactly(wire, ["arguments"]) &&
    !(isObject(source) && !Array.isArray(source) && hasExactly(source, ["arguments"]));
  const rewritten = walk(wrapped ? wire.arguments : wire, source, set, counts);
  return wrapped && !set.has("noRoot") ? { arguments: rewritten } : rewritten;
}

/** Every construct removed: what should give the source arguments back (the walker's self-check). */
export const ALL_REMOVED: readonly Lever[] = [
  "noRoot",
  "omitAbsent",
  "unwrapPresent",
  "entriesAsObjects",
  "unwrapUnion",
];

export interface Decomposition {
  readonly form: AbsenceSpelling;
  readonly calls: number;
  readonly meanSource: number;
  readonly meanWire: number;
  /** Mean tokens per call each construct costs: wire minus the wire with only that construct removed. */
  readonly parts: readonly {
    readonly name: string;
    readonly what: string;
    readonly tokens: number;
    /** A share of the part above it (not added again into the total). */
    readonly within?: true;
  }[];
  /** Wire minus source minus the parts (key order, interactions between constructs). */
  readonly rest: number;
  /** Calls whose wire, every construct removed, equals the source arguments. */
  readonly reconstructed: number;
  readonly counts: ConstructCounts;
}

const PARTS: readonly { name: string; what: string; levers: readonly Lever[]; only?: "tagged"; within?: true }[] = [
  { name: "root", what: '{"arguments": …}', levers: ["noRoot"] },
  { name: "absent members", what: "key and tag (or null) of each member the call leaves out", levers: ["omitAbsent"] },
  {
    name: "of which the tag beyond null",
    within: true,
    what: '{"state":"absent"} instead of null',
    levers: ["absentAsNull"],
    only: "tagged",
  },
  { name: "present tags", what: '{"state":"present","value":…} around a present value', levers: ["unwrapPresent"] },
  {
    name: "map entries",
    what: '[{"key":…,"value":…}] / {"entries":…} instead of an object',
    levers: ["entriesAsObjects"],
  },
  { name: "union tags", what: '{"branch":…,"value":…} around a value', levers: ["unwrapUnion"] },
];

export function decompose(calls: readonly EncodedCall[], form: AbsenceSpelling): Decomposition {
  const n = Math.max(calls.length, 1);
  const counts = noCounts();
  let source = 0;
  let wire = 0;
  let reconstructed = 0;
  for (const c of calls) {
    source += c.sourceTokens;
    wire += c.wireTokens[form];
    const back = counterfactual(c.wires[form], c.call.args, ALL_REMOVED, counts);
    if (canonical(back) === canonical(c.call.args)) reconstructed++;
  }
  const parts = PARTS.filter((p) => p.only === undefined || p.only === form).map((p) => {
    let saved = 0;
    for (const c of calls)
      saved += c.wireTokens[form] - textTokens(counterfactual(c.wires[form], c.call.args, p.levers));
    return { name: p.name, what: p.what, tokens: saved / n, ...(p.within ? { within: true as const } : {}) };
  });
  const summed = parts.filter((p) => p.within === undefined).reduce((a, p) => a + p.tokens, 0);
  return {
    form,
    calls: calls.length,
    meanSource: source / n,
    meanWire: wire / n,
    parts,
    rest: (wire - source) / n - summed,
    reconstructed,
    counts,
  };
}

/** Candidate wire-format changes (proposals for the next step), measured as counterfactual encodings. */
export const LEVERS: Readonly<Record<AbsenceSpelling, readonly { name: string; levers: readonly Lever[] }[]>> = {
  tagged: [
    { name: "L1 no root", levers: ["noRoot"] },
    { name: "L2 absent as {}", levers: ["absentAsEmpty"] },
    { name: 'L3 present as {"value":…}', levers: ["presentValueOnly"] },
    { name: "L4 absent members omitted (targets that allow optional members)", levers: ["omitAbsent"] },
    { name: "L1+L2", levers: ["noRoot", "absentAsEmpty"] },
    { name: "L1+L3", levers: ["noRoot", "presentValueOnly"] },
    { name: "L1+L2+L3", levers: ["noRoot", "absentAsEmpty", "presentValueOnly"] },
    { name: "L1+L3+L4", levers: ["noRoot", "presentValueOnly", "omitAbsent"] },
  ],
  compact: [
    { name: "L1 no root", levers: ["noRoot"] },
    { name: "L4 absent members omitted (targets that allow optional members)", levers: ["omitAbsent"] },
    { name: "L1+L4", levers: ["noRoot", "omitAbsent"] },
  ],
};

export interface LeverEffect {
  readonly name: string;
  readonly meanWire: number;
  readonly ratioOfMeans: number;
  readonly geomeanRatio: number;
}

export function leverEffects(calls: readonly EncodedCall[], form: AbsenceSpelling): LeverEffect[] {
  return LEVERS[form].map((l) => {
    const r = tokenRatio(
      calls.map((c) => ({
        source: c.sourceTokens,
        wire: textTokens(counterfactual(c.wires[form], c.call.args, l.levers)),
      })),
    );
    return { name: l.name, meanWire: r.meanWire, ratioOfMeans: r.ratioOfMeans, geomeanRatio: r.geomeanRatio };
  });
}

// ---------------------------------------------------------------------------

export interface ArgumentsResult {
  readonly bySet: Readonly<
    Record<CallSet, { readonly calls: number; readonly forms: Record<ArgumentForm, TokenRatio> }>
  >;
  readonly excluded: Readonly<Record<string, number>>;
  readonly decomposition?: Readonly<Record<AbsenceSpelling, Decomposition>>;
  readonly levers?: Readonly<Record<AbsenceSpelling, readonly LeverEffect[]>>;
  /** The same decomposition over the generated MCP calls (maps and unions occur there, not in BFCL). */
  readonly mcpDecomposition?: Readonly<Record<AbsenceSpelling, Decomposition>>;
}

export function runArguments(selection: { bfcl: number; mcp: number }, analyse: boolean): ArgumentsResult {
  const bfclCalls = sample(loadBfclCalls(), selection.bfcl, 23);
  const mcpCalls = loadMcpCalls(selection.mcp);
  const run = encodeCalls([...bfclCalls, ...mcpCalls]);
  const of = (set: CallSet): EncodedCall[] => run.calls.filter((c) => c.call.set === set);
  const bySet = {
    bfcl: { calls: of("bfcl").length, forms: formRatios(of("bfcl")) },
    mcp: { calls: of("mcp").length, forms: formRatios(of("mcp")) },
  };
  if (!analyse) return { bySet, excluded: run.excluded };
  const bfcl = of("bfcl");
  return {
    bySet,
    excluded: run.excluded,
    decomposition: { tagged: decompose(bfcl, "tagged"), compact: decompose(bfcl, "compact") },
    levers: { tagged: leverEffects(bfcl, "tagged"), compact: leverEffects(bfcl, "compact") },
    mcpDecomposition: { tagged: decompose(of("mcp"), "tagged"), compact: decompose(of("mcp"), "compact") },
  };
}

export function argumentsJson(r: ArgumentsResult): {
  argumentTokens: Record<ArgumentForm, number>;
  argumentTokensDetail: unknown;
} {
  const headline = Object.fromEntries(ARGUMENT_FORMS.map((f) => [f, r.bySet.bfcl.forms[f].ratioOfMeans])) as Record<
    ArgumentForm,
    number
  >;
  return {
    argumentTokens: headline,
    argumentTokensDetail: {
      aggregate:
        "ratioOfMeans: mean wire tokens per call / mean source tokens per call; geomeanRatio: geometric mean of per-call ratios",
      bySet: r.bySet,
      excluded: r.excluded,
      ...(r.decomposition !== undefined
        ? { decomposition: r.decomposition, levers: r.levers, mcpDecomposition: r.mcpDecomposition }
        : {}),
    },
  };
}

const f2 = (x: number): string => x.toFixed(2);
const f1 = (x: number): string => x.toFixed(1);

export function renderArguments(r: ArgumentsResult): string {
  const rows: (string | number)[][] = [];
  for (const set of ["bfcl", "mcp"] as const) {
    const s = r.bySet[set];
    rows.push([set, s.calls, "source", f1(s.forms.tagged.meanSource), "1.00", "1.00"]);
    for (const f of ARGUMENT_FORMS) {
      const x = s.forms[f];
      rows.push([set, s.calls, FORM_LABEL[f], f1(x.meanWire), f2(x.ratioOfMeans), f2(x.geomeanRatio)]);
    }
  }
  const parts = [
    "## Argument tokens per call",
    "",
    "o200k_base tokens of the compact JSON text a model writes: the source arguments vs the wire value. Ratio of means = mean wire / mean source (the headline: what a bill sees); geomean = geometric mean of per-call ratios.",
    "",
    table(["set", "calls", "form", "mean tokens", "ratio of means", "geomean ratio"], rows),
  ];
  const ex = Object.entries(r.excluded);
  if (ex.length > 0) parts.push("", `Left out: ${ex.map(([k, n]) => `${k} (${n})`).join(", ")}.`);
  if (r.decomposition !== undefined && r.levers !== undefined) {
    for (const form of ABSENCE_SPELLINGS) {
      const d = r.decomposition[form];
      const extra = d.meanWire - d.meanSource;
      parts.push(
        "",
        `### Where the ${form} wire's argument tokens go (BFCL, ${d.calls} calls)`,
        "",
        `Mean ${f1(d.meanSource)} source tokens, ${f1(d.meanWire)} wire tokens per call (+${f1(extra)}). Each row: tokens per call the wire saves with only that construct removed. ${d.reconstructed} of ${d.calls} calls give the source back with every construct removed.`,
        "",
        table(
          ["construct", "tokens per call", "share of the extra", "what"],
          [
            ...d.parts.map((p) => [`${p.within ? "… " : ""}${p.name}`, f2(p.tokens), pct(p.tokens / extra), p.what]),
            ["rest", f2(d.rest), pct(d.rest / extra), "key order, interactions"],
          ],
        ),
        "",
        `Constructs met: ${d.counts.absentMembers} absent members (${d.counts.absentTags} as tags), ${d.counts.presentTags} present tags, ${d.counts.entryArrays} entry arrays (${d.counts.entries} entries), ${d.counts.unionTags} union tags.`,
        "",
        `### Candidate changes, ${form} (counterfactual encodings, BFCL)`,
        "",
        table(
          ["lever", "mean tokens", "ratio of means", "geomean ratio"],
          [
            ["as today", f1(d.meanWire), f2(d.meanWire / d.meanSource), f2(r.bySet.bfcl.forms[form].geomeanRatio)],
            ...r.levers[form].map((l) => [l.name, f1(l.meanWire), f2(l.ratioOfMeans), f2(l.geomeanRatio)]),
          ],
        ),
      );
    }
  }
  const m = r.mcpDecomposition;
  if (m !== undefined) {
    const row = (name: string, pick: (d: Decomposition) => number): string[] => [
      name,
      f2(pick(m.tagged)),
      f2(pick(m.compact)),
    ];
    const part = (d: Decomposition, name: string): number => d.parts.find((p) => p.name === name)?.tokens ?? 0;
    parts.push(
      "",
      `### Where the argument tokens go, generated MCP calls (${m.tagged.calls} calls)`,
      "",
      table(
        ["tokens per call", "tagged", "compact"],
        [
          row("source", (d) => d.meanSource),
          row("wire", (d) => d.meanWire),
          ...["root", "absent members", "present tags", "map entries", "union tags"].map((name) =>
            row(name, (d) => part(d, name)),
          ),
          row("rest", (d) => d.rest),
        ],
      ),
      "",
      `Constructs met: ${m.tagged.counts.absentMembers} absent members, ${m.tagged.counts.presentTags} present tags (tagged), ${m.tagged.counts.entryArrays} entry arrays (${m.tagged.counts.entries} entries), ${m.tagged.counts.unionTags} union tags; ${m.tagged.reconstructed} of ${m.tagged.calls} calls give the source back with every construct removed.`,
    );
  }
  return parts.join("\n");
}
