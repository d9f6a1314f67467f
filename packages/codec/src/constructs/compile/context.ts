/**
 * What the constructs' compile-time halves (compile/construct.ts) are given
 * besides the run-time walk: the walk with the wire schema added, the wire
 * schema's context, and the types writer's. Build time: nothing of the run
 * time imports this file.
 */
import type { Field, KeySchema, Node } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import type { Walk } from "../context.js";

/** The run-time walk and a child's wire schema fragment: how `wire` reaches its children. */
export interface WireWalk extends Walk {
  wire(node: Node, wctx: WireContext): JsonObject;
}

export interface WireContext {
  readonly defs: Readonly<Record<string, Node>>;
  /** The walk to a child. */
  readonly walk: WireWalk;
  /** Wire definitions the constructs asked for (the any-JSON form, the absent tag). */
  readonly extraDefs: Record<string, JsonObject>;
  readonly target: { readonly recursion: boolean };
}

/** How a rendered type binds: a union must be parenthesised before `[]`. */
export interface Rendered {
  readonly text: string;
  readonly union: boolean;
  /** An object type's body, `{ … }`: a definition of it is declared as an interface. */
  readonly body?: boolean;
}

/**
 * What a construct's `tsType` may ask of the types writer (emit/types.ts, build
 * time, which implements it), at the position being rendered: declared here,
 * beside the wire context, so a construct's compile-time half takes nothing of emit/.
 */
export interface TypeContext {
  /** A child inside structure (an item, a member, an entry's value). */
  child(node: Node): Rendered;
  /** A child that reads the same value, no structure between (a union branch). */
  inPlace(node: Node): Rendered;
  /** An object type of these members, plus an index signature for dynamic members of type `dynamic`. */
  objectBody(fields: readonly Field[], dynamic?: Node): string;
  mapBody(key: KeySchema, value: Node): string;
  reference(def: string): Rendered;
  /** Any JSON value. */
  json(): Rendered;
}
