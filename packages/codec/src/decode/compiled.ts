/**
 * A plan's generated decoder, made into a function from its factory: one
 * built in memory (`compileDecoder`, generate/decoder.ts) or one a module
 * carries as code (`--emit module`), so that nothing is generated at start-up.
 */
import { type BranchHolds, FAIL, TRIAL, type WalkContext } from "../constructs/context.js";
import { decodeNode, WALK } from "../constructs/registry.js";
import type { Node, Plan, UnionNode } from "../ir/nodes.js";
import { canonicalJson, setOwn, unescapeToken } from "../json.js";
import { isWellFormed } from "../parse/chars.js";
import { checkWithin, type Walk } from "../parse/native.js";
import type { ParseLimits } from "../parse/parser.js";

/** The walk state a decode carries: the parser's, and the limits a json-text node parses with. */
export interface DecodeState extends Walk {
  readonly limits: ParseLimits;
  /** For a union whose wire names its branch (read by the interpreted walk): that branch's source holds. */
  readonly holds: BranchHolds | undefined;
}

/** The wire value's original value, or FAIL: the interpreted path then decides and words the refusal. */
export type CompiledDecoder = (wire: unknown, state: DecodeState) => unknown;

/** What a generated module's factory is called with, in DECODER_PARAMS order. */
export type DecoderFactory = (...helpers: unknown[]) => CompiledDecoder;

/** The decoder from a factory (generated now, or carried by a module) and the node table it was generated with. */
export function instantiate(factory: DecoderFactory, plan: Plan, table: readonly Node[]): CompiledDecoder {
  const interpreted = (i: number, w: unknown, d: number, s: DecodeState): unknown => {
    if (!checkWithin(w, d, s)) return FAIL;
    // Errors are never read from here: the interpreted path runs again to word them.
    const ctx: WalkContext = { defs: plan.defs, walk: WALK, path: [], error: TRIAL, limits: s.limits, holds: s.holds };
    return decodeNode(table[i]!, w === 0 ? 0 : w, ctx);
  };
  const discriminated = (i: number, v: unknown): number => {
    // Only a scalar names a branch here; anything else is left to the interpreted path, behind its checks.
    if (typeof v === "object" && v !== null) return -1;
    const rule = (table[i] as UnionNode).rule;
    return rule.by === "discriminator" ? (rule.values[canonicalJson(v)] ?? -1) : -1;
  };
  return factory(
    FAIL,
    Object.hasOwn,
    Object.keys,
    Array.isArray,
    setOwn,
    isWellFormed,
    Number.MAX_SAFE_INTEGER,
    interpreted,
    discriminated,
  );
}

/** The parameters every generated decoder factory takes, in order. */
export const DECODER_PARAMS = ["F", "H", "K", "A", "SET", "WF", "MAX", "X", "DISC"] as const;

/** The nodes a module's decoder table names (JSON Pointers into the plan), or undefined if one is missing. */
export function resolveTable(plan: Plan, pointers: readonly string[]): Node[] | undefined {
  const nodes: Node[] = [];
  for (const pointer of pointers) {
    let at: unknown = plan;
    for (const token of pointer.split("/").slice(1)) {
      const key = unescapeToken(token);
      at =
        typeof at === "object" && at !== null && Object.hasOwn(at, key)
          ? (at as Record<string, unknown>)[key]
          : undefined;
    }
    if (typeof at !== "object" || at === null || !("kind" in at)) return undefined;
    nodes.push(at as Node);
  }
  return nodes;
}
