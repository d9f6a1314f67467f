/**
 * The one table of the constructs' compile-time halves: every node kind and
 * the module that compiles it (its run-time half is in ../registry.ts's
 * table). Adding a node kind is, here, its import and its line in the table,
 * refused by TypeScript until it is made. Compile (the wire schema, the
 * generated decoder, the IR stages, inspection, emitted types) reaches a
 * construct's compile-time half through these functions; the halves import
 * nothing from here and reach their children through the walk they are
 * given (`wctx.walk`, the run-time `WALK` plus `wire`).
 */

import type { NodeKinds } from "../../ir/children.js";
import type { Node } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import { childrenOf, constructOf, WALK, wireTypesOf } from "../registry.js";
import { anyCompiler } from "./any.js";
import { arrayCompiler } from "./array.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext, WireWalk } from "./context.js";
import { jsonTextCompiler } from "./json-text.js";
import { mapCompiler } from "./map.js";
import { mixedCompiler } from "./mixed.js";
import { objectCompiler } from "./object.js";
import { referenceCompiler } from "./reference.js";
import { scalarCompiler } from "./scalar.js";
import { tupleCompiler } from "./tuple.js";
import { unionCompiler } from "./union.js";

type Table = { readonly [K in Node["kind"]]: ConstructCompiler<Extract<Node, { kind: K }>> };

const compilers: Table = {
  scalar: scalarCompiler,
  array: arrayCompiler,
  tuple: tupleCompiler,
  object: objectCompiler,
  map: mapCompiler,
  mixed: mixedCompiler,
  union: unionCompiler,
  ref: referenceCompiler,
  any: anyCompiler,
  "json-text": jsonTextCompiler,
};

export const compilerOf = (node: Node): ConstructCompiler => compilers[node.kind] as unknown as ConstructCompiler;

export function wireOf(node: Node, wctx: WireContext): JsonObject {
  return compilerOf(node).wire(node, wctx);
}

/** The walk a wire context carries: the run-time one, and a child's wire schema fragment. */
export const WIRE_WALK: WireWalk = { ...WALK, wire: wireOf };

/** What the IR stages need of the constructs, handed to them so that they import nothing from here. */
export const NODE_KINDS: NodeKinds = {
  children: childrenOf,
  mapChildren: (node, f) => compilerOf(node).mapChildren(node, f),
  wireTypes: wireTypesOf,
  bare: (node) => constructOf(node).bare === true,
  levels(node) {
    const c = compilerOf(node);
    return c.levels === undefined ? 0 : c.levels(node);
  },
  settle(node, defs, unsettled) {
    const c = compilerOf(node);
    return c.settle === undefined ? node : c.settle(node, defs, unsettled, WALK);
  },
};
