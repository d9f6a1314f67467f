/**
 * Decode of realistic tool calls against the baseline: JSON.parse of the
 * original value's text plus a precompiled ajv validator of the original
 * schema. Encode against the least any encoder does: validating the value.
 */
import type { CallCase, SetName } from "../cases.js";
import { table } from "../format.js";
import { PEER_LABELS, PEERS, type PeerName, type PeerPlan, type PeerSummary, summarizePeers } from "../peers.js";
import {
  type ComparisonOptions,
  compareInterleaved,
  fmtMs,
  fmtSummary,
  geomean,
  type Summary,
  summarize,
} from "../stats.js";

export interface CaseTiming {
  readonly set: SetName;
  readonly id: string;
  readonly bytes: number;
  readonly wireBytes: number;
  readonly generated: boolean;
  readonly baselineMs: Summary;
  readonly taggedMs: Summary;
  readonly compactMs: Summary;
  /** Decode time over baseline time, per round. */
  readonly tagged: Summary;
  readonly compact: Summary;
  /** JSON.parse(original) + the codec's own source validator (RE2 patterns), over baseline. */
  readonly sameValidator: Summary;
  /** JSON.parse(tagged wire text) + the codec's source validator, over baseline: no bounded parse, no walk. */
  readonly floor: Summary;
  /** The floor plus strictwire's two text rules at their cheapest (see strictFloorChecks), over baseline. */
  readonly strictFloor: Summary;
  /** The same decodes by the interpreted plan walk (decode({ interpreted: true })), which the generated decoder replaces, over baseline. */
  readonly interpreted: Summary;
  readonly interpretedCompact: Summary;
  /** The peers' decode of this call over baseline, for the peers that represent it (see peers.ts). */
  readonly peers: Readonly<Partial<Record<PeerName, Summary>>>;
}

export interface SetSummary {
  readonly set: SetName | "all";
  readonly cases: number;
  /** Geometric mean over cases of each case's median ratio. */
  readonly geomean: number;
  /** The cases' median ratios: their median and quartiles. */
  readonly spread: Summary;
}

export interface DecodeResult {
  readonly cases: readonly CaseTiming[];
  readonly tagged: readonly SetSummary[];
  readonly compact: readonly SetSummary[];
  readonly sameValidator: readonly SetSummary[];
  readonly floor: readonly SetSummary[];
  readonly strictFloor: readonly SetSummary[];
  readonly interpreted: readonly SetSummary[];
  readonly interpretedCompact: readonly SetSummary[];
  /** Present when the peers were timed. */
  readonly peers?: Record<PeerName, PeerSummary>;
}

/**
 * What a decoder that keeps strictwire's two rules on the text pays beyond
 * the floor when it checks them plainly: one native pass for lone surrogates
 * (the whole text's isWellFormed) and one for the colons that prove no member
 * name repeats (JSON.parse keeps the last of a repeated name, so the parsed
 * value cannot tell). The result is returned so neither pass is optimised away.
 */
function strictFloorChecks(text: string): number {
  let colons = 0;
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) colons++;
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed() ? colons : -1;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`benchmark sanity check failed: ${what}`);
}

export function runDecode(cases: readonly CallCase[], timing: ComparisonOptions, peers?: PeerPlan): DecodeResult {
  const out: CaseTiming[] = [];
  for (const [index, c] of cases.entries()) {
    const peerTasks = peers?.tasks[index] ?? [];
    check(c.baseline(JSON.parse(c.originalText)), `${c.id}: baseline rejects its value`);
    check(c.tagged.decode(c.taggedText).ok, `${c.id}: tagged decode fails`);
    check(c.compact.decode(c.compactText).ok, `${c.id}: compact decode fails`);
    const decoded = c.tagged.decode(c.taggedText);
    const value = decoded.ok ? decoded.value : undefined;
    const cmp = compareInterleaved(
      [
        { name: "baseline", fn: () => c.baseline(JSON.parse(c.originalText)) },
        { name: "tagged", fn: () => c.tagged.decode(c.taggedText) },
        { name: "compact", fn: () => c.compact.decode(c.compactText) },
        { name: "sameValidator", fn: () => c.tagged.validate(JSON.parse(c.originalText)) },
        { name: "floor", fn: () => [JSON.parse(c.taggedText), c.tagged.validate(value)] },
        {
          name: "strictFloor",
          fn: () => [JSON.parse(c.taggedText), strictFloorChecks(c.taggedText), c.tagged.validate(value)],
        },
        { name: "interpreted", fn: () => c.tagged.decode(c.taggedText, { interpreted: true }) },
        { name: "interpretedCompact", fn: () => c.compact.decode(c.compactText, { interpreted: true }) },
        ...peerTasks.map((p) => ({ name: `peer:${p.peer}`, fn: p.decode })),
      ],
      timing,
    );
    out.push({
      set: c.set,
      id: c.id,
      bytes: Buffer.byteLength(c.originalText),
      wireBytes: Buffer.byteLength(c.taggedText),
      generated: c.generated,
      baselineMs: cmp.perCall.baseline!,
      taggedMs: cmp.perCall.tagged!,
      compactMs: cmp.perCall.compact!,
      tagged: cmp.ratio.tagged!,
      compact: cmp.ratio.compact!,
      sameValidator: cmp.ratio.sameValidator!,
      floor: cmp.ratio.floor!,
      strictFloor: cmp.ratio.strictFloor!,
      interpreted: cmp.ratio.interpreted!,
      interpretedCompact: cmp.ratio.interpretedCompact!,
      peers: Object.fromEntries(peerTasks.map((p) => [p.peer, cmp.ratio[`peer:${p.peer}`]!])),
    });
  }
  return {
    cases: out,
    tagged: summarizeSets(out, "tagged"),
    compact: summarizeSets(out, "compact"),
    sameValidator: summarizeSets(out, "sameValidator"),
    floor: summarizeSets(out, "floor"),
    strictFloor: summarizeSets(out, "strictFloor"),
    interpreted: summarizeSets(out, "interpreted"),
    interpretedCompact: summarizeSets(out, "interpretedCompact"),
    ...(peers !== undefined ? { peers: summarizePeers(out.map(peerRatios), peers.leftOut) } : {}),
  };
}

function peerRatios(c: CaseTiming) {
  const peers: Partial<Record<PeerName, number>> = {};
  for (const [peer, r] of Object.entries(c.peers) as [PeerName, Summary][]) peers[peer] = r.median;
  return { tagged: c.tagged.median, compact: c.compact.median, peers };
}

export function summarizeSets(
  cases: readonly CaseTiming[],
  mode: "tagged" | "compact" | "sameValidator" | "floor" | "strictFloor" | "interpreted" | "interpretedCompact",
): SetSummary[] {
  const sets: (SetName | "all")[] = ["fixtures", "bfcl", "mcp", "all"];
  const out: SetSummary[] = [];
  for (const set of sets) {
    const chosen = cases.filter((c) => set === "all" || c.set === set);
    if (chosen.length === 0) continue;
    const ratios = chosen.map((c) => c[mode].median);
    out.push({ set, cases: chosen.length, geomean: geomean(ratios), spread: summarize(ratios) });
  }
  return out;
}

export function renderDecode(r: DecodeResult): string {
  const rows = r.cases.map((c) => [
    c.set,
    c.id.length > 48 ? `${c.id.slice(0, 45)}...` : c.id,
    c.bytes,
    c.wireBytes,
    fmtMs(c.baselineMs.median),
    fmtMs(c.taggedMs.median),
    fmtSummary(c.tagged),
    fmtSummary(c.compact),
    c.sameValidator.median.toFixed(2),
    c.floor.median.toFixed(2),
    c.strictFloor.median.toFixed(2),
  ]);
  const perCase = table(
    [
      "set",
      "schema",
      "bytes",
      "wire bytes",
      "baseline",
      "decode (tagged)",
      "tagged ratio",
      "compact ratio",
      "same validator",
      "floor",
      "strict floor",
    ],
    rows,
  );
  const sets = table(
    [
      "set",
      "cases",
      "tagged: geomean",
      "tagged: median (p25–p75)",
      "compact: geomean",
      "compact: median (p25–p75)",
      "same validator: geomean",
      "floor: geomean",
      "strict floor: geomean",
      "tagged / floor",
      "compact / floor",
      "tagged / strict floor",
      "compact / strict floor",
      "interpreted tagged: geomean",
      "interpreted compact: geomean",
    ],
    r.tagged.map((t, i) => {
      const c = r.compact[i]!;
      return [
        t.set,
        t.cases,
        t.geomean.toFixed(2),
        fmtSummary(t.spread),
        c.geomean.toFixed(2),
        fmtSummary(c.spread),
        r.sameValidator[i]!.geomean.toFixed(2),
        r.floor[i]!.geomean.toFixed(2),
        r.strictFloor[i]!.geomean.toFixed(2),
        (t.geomean / r.floor[i]!.geomean).toFixed(2),
        (c.geomean / r.floor[i]!.geomean).toFixed(2),
        (t.geomean / r.strictFloor[i]!.geomean).toFixed(2),
        (c.geomean / r.strictFloor[i]!.geomean).toFixed(2),
        r.interpreted[i]!.geomean.toFixed(2),
        r.interpretedCompact[i]!.geomean.toFixed(2),
      ];
    }),
  );
  return [
    "## Decode vs JSON.parse + ajv (original schema, precompiled)",
    "",
    "Ratio = codec.decode(wire text) time / (JSON.parse(original text) + ajv validate) time, same round; median over rounds (p25–p75).",
    "Two references beside it, over the same baseline: *same validator* = JSON.parse(original text) + the codec's own",
    "validator of the original schema (what the baseline costs with strictwire's RE2 patterns instead of native RegExp);",
    "*floor* = JSON.parse(tagged wire text) + that validator (what any decoder pays before the bounded parse and the walk);",
    "*strict floor* = the floor + the two rules strictwire holds every text to, each as one plain native pass over the whole",
    "text: isWellFormed (no lone surrogates) and a colon count (the proof that no member name repeats). strictwire checks",
    "only the strings it reads instead (O(1) for one-byte strings), so a decode can come in under this reference;",
    "*interpreted* = the same decodes by the interpreted plan walk (decode({ interpreted: true })), which the generated decoder replaces.",
    "",
    perCase,
    "",
    sets,
    ...(r.peers !== undefined ? ["", renderPeers(r.peers)] : []),
  ].join("\n");
}

function renderPeers(peers: Record<PeerName, PeerSummary>): string {
  return [
    "### The peers' decode path, same rounds, same baseline",
    "",
    "Each peer on the calls it represents exactly (its wire value: absent members as null); strictwire's ratios on the same calls beside it.",
    "*ahead* = peer time / strictwire time (above 1: strictwire is faster by that factor).",
    "",
    table(
      [
        "peer",
        "calls",
        "peer: geomean",
        "strictwire tagged",
        "strictwire compact",
        "ahead (tagged)",
        "ahead (compact)",
      ],
      PEERS.map((p) => {
        const s = peers[p];
        return [
          PEER_LABELS[p],
          s.cases,
          s.geomean.toFixed(2),
          s.strictwireTagged.toFixed(2),
          s.strictwireCompact.toFixed(2),
          s.aheadTagged.toFixed(2),
          s.aheadCompact.toFixed(2),
        ];
      }),
    ),
    "",
    ...PEERS.map(
      (p) =>
        `Left out for ${p}: ${
          Object.entries(peers[p].leftOut)
            .map(([reason, n]) => `${reason} (${n})`)
            .join("; ") || "none"
        }.`,
    ),
  ].join("\n");
}

// ---------------------------------------------------------------------------

export interface EncodeTiming {
  readonly set: SetName;
  readonly id: string;
  readonly validateMs: Summary;
  readonly encodeMs: Summary;
  readonly ratio: Summary;
}

export function runEncode(cases: readonly CallCase[], timing: ComparisonOptions): EncodeTiming[] {
  return cases.map((c) => {
    const cmp = compareInterleaved(
      [
        { name: "validate", fn: () => c.baseline(c.value) },
        { name: "encode", fn: () => c.tagged.encode(c.value) },
      ],
      timing,
    );
    return {
      set: c.set,
      id: c.id,
      validateMs: cmp.perCall.validate!,
      encodeMs: cmp.perCall.encode!,
      ratio: cmp.ratio.encode!,
    };
  });
}

export function renderEncode(rows: readonly EncodeTiming[]): string {
  const ratios = rows.map((r) => r.ratio.median);
  return [
    "## Encode (tagged) vs ajv validate of the same value",
    "",
    "Encode checks the value against the source schema, transforms it, checks the wire value against the wire schema and measures it; the reference is the source check alone.",
    "",
    table(
      ["set", "schema", "ajv validate", "encode", "ratio (p25–p75)"],
      rows.map((r) => [
        r.set,
        r.id.slice(0, 48),
        fmtMs(r.validateMs.median),
        fmtMs(r.encodeMs.median),
        fmtSummary(r.ratio),
      ]),
    ),
    "",
    `Encode over validate: geomean ${geomean(ratios).toFixed(2)}, median ${fmtSummary(summarize(ratios))} over ${rows.length} schemas.`,
  ].join("\n");
}
