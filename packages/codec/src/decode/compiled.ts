/**
 * A plan's generated decoder, made into a function: in memory at load
 * (`new Function` over the generated source, once per codec), or from a
 * module that carries the same source as code (`--emit module`).
 */
import { FAIL, TRIAL, type WalkContext } from "../constructs/context.js";
import { decodeNode } from "../constructs/registry.js";
import type { Node, Plan, UnionNode } from "../ir/nodes.js";
import { canonicalJson, setOwn } from "../json.js";
import { checkWithin, type Walk } from "../parse/native.js";
import type { ParseLimits } from "../parse/parser.js";
import { DECODER_PARAMS, type GeneratedDecoder, generateDecoder } from "./generate.js";
import { type NodePlace, nodesAt } from "./table.js";

/** The walk state a decode carries: the parser's, and the limits a json-text node parses with. */
export interface DecodeState extends Walk {
  readonly limits: ParseLimits;
}

/** The wire value's original value, or FAIL: the interpreted path then decides and words the refusal. */
export type CompiledDecoder = (wire: unknown, state: DecodeState) => unknown;

/** What a generated module's factory is called with, in DECODER_PARAMS order. */
export type DecoderFactory = (...helpers: unknown[]) => CompiledDecoder;

const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The decoder for a plan, generated and built in memory. */
export function compileDecoder(plan: Plan): CompiledDecoder {
  const generated = generateDecoder(plan);
  const factory = new Function(...DECODER_PARAMS, generated.source) as DecoderFactory;
  return instantiate(factory, plan, generated.table);
}

/** The decoder from a factory (generated now, or carried by a module) and the node table it was generated with. */
export function instantiate(factory: DecoderFactory, plan: Plan, table: readonly Node[]): CompiledDecoder {
  const interpreted = (i: number, w: unknown, d: number, s: DecodeState): unknown => {
    if (!checkWithin(w, d, s)) return FAIL;
    // Errors are never read from here: the interpreted path runs again to word them.
    const ctx: WalkContext = { defs: plan.defs, path: [], error: TRIAL, limits: s.limits };
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

/** The decoder a generated module carries as code: its factory, and its node table as places in the plan. */
export interface ModuleDecoder {
  readonly factory: DecoderFactory;
  readonly table: readonly NodePlace[];
}

/** A module's decoder for `plan`, or undefined where its table does not fit the plan (the codec then generates its own). */
export function decoderFromModule(plan: Plan, carried: ModuleDecoder): CompiledDecoder | undefined {
  const table = nodesAt(plan, carried.table);
  return table === undefined ? undefined : instantiate(carried.factory, plan, table);
}

export { type GeneratedDecoder, generateDecoder };
