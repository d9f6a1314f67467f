/**
 * The peers' decode path, timed in the decode section's rounds beside
 * strictwire's: what a user of today's converters runs on a strict tool
 * call's argument text to get the tool's input back.
 *
 * - agentsCore: @openai/agents-core 0.20, `tool({ parameters, strict: true })`
 *   and the runner's entry point prepareFunctionToolInput (JSON.parse, then
 *   normalizeInput: null back to absent for the members it made nullable). For
 *   a plain JSON-schema tool the SDK validates nothing after that, so the
 *   original contract is checked by the baseline's own precompiled ajv, as a
 *   user would have to.
 * - mastra: @mastra/schema-compat 1.3, the tool path
 *   (OpenAISchemaCompatLayer.processToCompatSchema): JSON.parse, then its
 *   validate(), which turns null back into absent for the "x-optional" members
 *   and validates with its own ajv against the original schema.
 *
 * Each peer is timed only on the calls it can represent: the schema converts,
 * the peer's documented wire value for the call (absent members as null)
 * passes the converted schema, and the peer's decode of that text gives the
 * call back exactly, member presence included. The rest are left out, counted
 * by reason.
 */
import { wireValidator } from "./baseline.js";
import type { CallCase } from "./cases.js";
import { type Converter, type DecodeText, loadConverters } from "./converters.js";
import { candidate, classifyRejection, firstDifference } from "./sections/comparison.js";
import { geomean } from "./stats.js";

export const PEERS = ["agentsCore", "mastra"] as const;
export type PeerName = (typeof PEERS)[number];

export const PEER_LABELS: Readonly<Record<PeerName, string>> = {
  agentsCore: "@openai/agents-core 0.20 prepareFunctionToolInput + ajv (original schema)",
  mastra: "@mastra/schema-compat 1.3 OpenAISchemaCompatLayer validate (null transform + its ajv)",
};

/** One peer's decode of one call: the wire text it is given and the work it does on it. */
export interface PeerTask {
  readonly peer: PeerName;
  readonly text: string;
  readonly decode: () => unknown;
}

export interface PeerPlan {
  /** Per case (same order as the cases), the peers that represent it. */
  readonly tasks: readonly (readonly PeerTask[])[];
  /** Per peer, the calls left out by reason. */
  readonly leftOut: Readonly<Record<PeerName, ReadonlyMap<string, number>>>;
}

type Prepared = { ok: true; task: PeerTask } | { ok: false; reason: string };

function withContract(decodeText: DecodeText, contract: (v: unknown) => boolean): DecodeText {
  return (text) => {
    const r = decodeText(text);
    if (!r.ok) return r;
    return contract(r.value) ? r : { ok: false, reason: "the original schema rejects the decoded value" };
  };
}

function prepare(peer: PeerName, c: CallCase, converter: Converter): Prepared {
  const conv = converter.convert(c.jsonSchema);
  if (!conv.converted) return { ok: false, reason: "schema not converted" };
  let validate: ReturnType<typeof wireValidator>;
  try {
    validate = wireValidator(conv.wire);
  } catch {
    return { ok: false, reason: "converted schema does not compile" };
  }
  const inserted = new Set<string>();
  const wire = candidate(c.value, conv.wire, conv.wire, inserted);
  if (!validate(wire)) return { ok: false, reason: classifyRejection(validate, inserted) };
  const text = JSON.stringify(wire);
  const decodeText = peer === "agentsCore" ? withContract(conv.decodeText, c.baseline) : conv.decodeText;
  let back: ReturnType<DecodeText>;
  try {
    back = decodeText(text);
  } catch (error) {
    return { ok: false, reason: `decode threw: ${String(error).slice(0, 60)}` };
  }
  if (!back.ok) return { ok: false, reason: `decode rejected the call (${back.reason.slice(0, 50)})` };
  const diff = firstDifference(c.value, back.value);
  if (diff !== undefined) return { ok: false, reason: `not given back exactly: ${diff}` };
  return { ok: true, task: { peer, text, decode: () => decodeText(text) } };
}

/** The peers' decode tasks for the cases, and what each leaves out. */
export async function preparePeers(cases: readonly CallCase[]): Promise<PeerPlan> {
  const converters = await loadConverters();
  const byName: Record<PeerName, Converter> = {
    agentsCore: converters.find((c) => c.name.startsWith("@openai/agents-core"))!,
    mastra: converters.find((c) => c.name.endsWith("OpenAISchemaCompatLayer"))!,
  };
  const leftOut: Record<PeerName, Map<string, number>> = { agentsCore: new Map(), mastra: new Map() };
  const tasks = cases.map((c) => {
    const out: PeerTask[] = [];
    for (const peer of PEERS) {
      const p = prepare(peer, c, byName[peer]);
      if (p.ok) out.push(p.task);
      else leftOut[peer].set(p.reason, (leftOut[peer].get(p.reason) ?? 0) + 1);
    }
    return out;
  });
  return { tasks, leftOut };
}

/** One peer over the cases it represents: its ratio to the baseline and strictwire's on the same cases. */
export interface PeerSummary {
  readonly label: string;
  readonly cases: number;
  readonly leftOut: Readonly<Record<string, number>>;
  /** Geometric means over those cases of the per-case median ratios to the baseline. */
  readonly geomean: number;
  readonly strictwireTagged: number;
  readonly strictwireCompact: number;
  /** Peer time over strictwire's (above 1: strictwire is ahead by that factor). */
  readonly aheadTagged: number;
  readonly aheadCompact: number;
}

export interface PeerRatios {
  readonly tagged: number;
  readonly compact: number;
  readonly peers: Readonly<Partial<Record<PeerName, number>>>;
}

export function summarizePeers(
  perCase: readonly PeerRatios[],
  leftOut: PeerPlan["leftOut"],
): Record<PeerName, PeerSummary> {
  const out = {} as Record<PeerName, PeerSummary>;
  for (const peer of PEERS) {
    const chosen = perCase.filter((c) => c.peers[peer] !== undefined);
    const g = geomean(chosen.map((c) => c.peers[peer]!));
    const t = geomean(chosen.map((c) => c.tagged));
    const k = geomean(chosen.map((c) => c.compact));
    out[peer] = {
      label: PEER_LABELS[peer],
      cases: chosen.length,
      leftOut: Object.fromEntries(leftOut[peer]),
      geomean: g,
      strictwireTagged: t,
      strictwireCompact: k,
      aheadTagged: g / t,
      aheadCompact: g / k,
    };
  }
  return out;
}
