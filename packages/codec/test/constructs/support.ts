/**
 * Contexts for running one construct on hand-built IR nodes: no schema, no
 * compiler, no validator. What a construct returns is its whole behaviour.
 */
import type { WireContext } from "../../src/constructs/compile/context.js";
import { WIRE_WALK, wireOf } from "../../src/constructs/compile/registry.js";
import { type EncodeContext, FAIL, type WalkContext } from "../../src/constructs/context.js";
import { decodeNode, encodeNode, WALK } from "../../src/constructs/registry.js";
import type { DecodeState } from "../../src/decode/compiled.js";
import type { CodecError } from "../../src/errors.js";
import type { Field, Node, ScalarNode, UnionNode } from "../../src/ir/nodes.js";
import type { JsonType } from "../../src/json.js";
import { DEFAULT_PARSE_LIMITS } from "../../src/parse/parser.js";

export type Defs = Record<string, Node>;

export const str: ScalarNode = { kind: "scalar", schema: { type: "string" }, types: ["string"] };
export const int: ScalarNode = { kind: "scalar", schema: { type: "integer" }, types: ["number"] };
export const nul: ScalarNode = { kind: "scalar", schema: { type: "null" }, types: ["null"] };
export const scalarOf = (...types: JsonType[]): ScalarNode => ({ kind: "scalar", schema: { type: types }, types });

export const required = (name: string, node: Node): Field => ({ name, node, optional: false });
export const optional = (name: string, node: Node, presence: Field["presence"] = "tagged"): Field => ({
  name,
  node,
  optional: true,
  presence,
});

export function walkContext(defs: Defs = {}): WalkContext {
  return { defs, walk: WALK, path: [], error: undefined, limits: DEFAULT_PARSE_LIMITS };
}

/** Encode tries branches in order unless told otherwise (a codec orders them by validating). */
export function encodeContext(defs: Defs = {}, order?: (node: UnionNode, value: unknown) => number[]): EncodeContext {
  return {
    ...walkContext(defs),
    branchOrder: order ?? ((node) => node.branches.map((_, i) => i)),
  };
}

export function wireContext(defs: Defs = {}, recursion = true): WireContext {
  return { defs, walk: WIRE_WALK, extraDefs: {}, target: { recursion } };
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: CodecError };

export function encode(node: Node, value: unknown, defs: Defs = {}): Outcome {
  const ctx = encodeContext(defs);
  const out = encodeNode(node, value, ctx);
  return out === FAIL ? { ok: false, error: ctx.error! } : { ok: true, value: out };
}

export function decode(node: Node, wire: unknown, defs: Defs = {}): Outcome {
  const ctx = walkContext(defs);
  const out = decodeNode(node, wire, ctx);
  return out === FAIL ? { ok: false, error: ctx.error! } : { ok: true, value: out };
}

/** The wire value, and what decoding it gives back. */
export function roundTrip(node: Node, value: unknown, defs: Defs = {}): { wire: unknown; back: Outcome } {
  const wire = encode(node, value, defs);
  if (!wire.ok) throw new Error(`encode: ${wire.error.message}`);
  return { wire: wire.value, back: decode(node, wire.value, defs) };
}

export const wire = (node: Node, defs: Defs = {}) => wireOf(node, wireContext(defs));

/** A fresh walk state for a generated decoder, at the default limits (the root counted). */
export const decodeState = (): DecodeState => ({
  maxNodes: DEFAULT_PARSE_LIMITS.maxNodes,
  maxDepth: DEFAULT_PARSE_LIMITS.maxDepth,
  checkStrings: true,
  nodes: 1,
  members: 0,
  limits: DEFAULT_PARSE_LIMITS,
  holds: undefined,
});
