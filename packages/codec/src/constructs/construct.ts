/**
 * What every construct provides at run time, in one interface. A construct is
 * one node kind of the plan: how a value travels (encode, decode), what it
 * holds (children, for every generic walk), and what error paths read of it
 * (wire pointer steps). Its plan check at load is its node's shape
 * (ir/nodes.ts, `NODE_SHAPES`), kept out of this object so that a bundle that
 * runs no such check (a generated module's load) carries none. Its compile-time half (the
 * wire schema, the generated decode, inspection, the TypeScript type) is
 * compile/construct.ts, and its stream half (the partial value shown while a
 * call streams) stream/construct.ts, so a bundle of the run time carries
 * neither. The one table of constructs is `registry.ts`; of their
 * compile-time halves, `compile/registry.ts`; of their stream halves,
 * `stream/registry.ts`.
 */

import type { PathStep } from "../errors.js";
import type { Child, Defs } from "../ir/children.js";
import type { Node } from "../ir/nodes.js";
import type { JsonType } from "../json.js";
import type { EncodeContext, Fail, Walk, WalkContext } from "./context.js";

/** Where a wire pointer walk stands: the wire tokens, the next one to read, the wire value there. */
export interface PathWalk {
  readonly tokens: readonly string[];
  readonly i: number;
  readonly value: unknown;
  readonly defs: Defs;
  /** The walk itself, for a construct whose step is one of its children's (a union without a tag). */
  wireStep(node: Node, walk: PathWalk): WireStep | undefined;
}

/**
 * One step of a wire pointer walk: the original path's step it adds (an
 * element's index as a number, a member's name as a string; none for a
 * reference), and where it leads.
 */
export interface WireStep {
  readonly step?: PathStep;
  readonly node: Node | undefined;
  readonly value: unknown;
  readonly next: number;
}

export interface Construct<N extends Node = Node> {
  readonly kind: N["kind"];
  /**
   * Its children read the very value it reads, no structure between (a
   * union's branches): a loop through such positions alone never ends.
   */
  readonly inPlace?: boolean;
  /** The direct sub-nodes, in document order; members carry their field. */
  children(node: N): readonly Child[];
  encode(node: N, value: unknown, ctx: EncodeContext): unknown | Fail;
  decode(node: N, wire: unknown, ctx: WalkContext): unknown | Fail;
  /** The JSON types its wire values can have; `seen` holds the definitions being followed. */
  wireTypes(node: N, defs: Defs, seen: Set<string>, walk: Walk): readonly JsonType[];
  /** Whether decoding returns the wire value unchanged ("no" is always safe). */
  identity(node: N, defs: Defs, walk: Walk): boolean;
  /** One step of translating a wire pointer to an original one; undefined stops there. */
  wireStep(node: N, walk: PathWalk): WireStep | undefined;
  /**
   * Whether its wire members are the original's own names (an object, a
   * union of objects without a tag): an undeclared member's name is then the
   * model's own. Absent: no.
   */
  namesMembers?(node: N): boolean;
  /** Whether its wire form is an object the provider takes at the top (then the root travels bare). Absent: no. */
  readonly bare?: boolean;
}
