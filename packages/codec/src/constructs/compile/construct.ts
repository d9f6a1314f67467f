/**
 * What every construct provides at compile time, in one interface: the
 * compile-time half of a node kind, beside its run-time half (the Construct
 * of ../construct.ts, in ../<kind>.ts): its wire schema fragment, the
 * generated decode, the rebuilding of its children and the decisions made
 * once they are settled, inspection and the TypeScript type. Build time: the
 * run time imports nothing of compile/. The one table is `registry.ts`.
 */

import type { Code } from "../../code.js";
import type { Child, Defs } from "../../ir/children.js";
import type { Node } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import type { Walk } from "../context.js";
import type { Rendered, TypeContext, WireContext } from "./context.js";
import type { DecodeGenerator } from "./decode-generator.js";

/** How inspection shows a node (its position and children are added by the walk). */
export interface Described {
  /** What values it holds, briefly: "string", "integer | null", "enum (3)", "object", "→ Tree". */
  readonly type: string;
  /** How it is written on the wire, briefly; "" when it travels as itself. */
  readonly travels: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface ConstructCompiler<N extends Node = Node> {
  readonly kind: N["kind"];
  /** The same node with each child replaced by `f` of it (a member's field too). */
  mapChildren(node: N, f: (child: Child) => Child): N;
  /** The wire schema fragment. */
  wire(node: N, wctx: WireContext): JsonObject;
  /**
   * The body of its generated decode function (see decode-generator.ts): the
   * same acceptance as `decode`, plus the parser's checks on what it reads.
   * A construct that leaves a value to the interpreted walk says so in its
   * body (`X`, behind the parser's checks).
   */
  generateDecode(node: N, e: DecodeGenerator): Code;
  /** An object's generated decode of an inline presence tag's members (`state` beside them). */
  generateInlineDecode?(node: N, e: DecodeGenerator): Code;
  /**
   * Object levels its wire form puts around its children (an object 1, a map's
   * entry 1, a mixed object's `fields`/entries 2, a tagged union 1), for the
   * depth budget; absent means none.
   */
  levels?(node: N): number;
  /** Decisions that need the settled children (a union's rule), made once at compile. */
  settle?(node: N, defs: Defs, unsettled: ReadonlySet<string>, walk: Walk): N;
  /** How inspection shows it. */
  describe(node: N): Described;
  /** The TypeScript type of its decoded values. */
  tsType(node: N, ctx: TypeContext): Rendered;
}
