/**
 * The one table of constructs: every node kind and the module that knows it
 * at run time (its compile-time half has its own table, compile/registry.ts,
 * and its stream half, stream/registry.ts). Adding a node kind is one module
 * (see presence.ts for the model) and, here, its import, its line in the
 * table and its case in each of the two walk switches below (encode,
 * decode): four edits, each refused by TypeScript until it is made. Everything else reaches a
 * construct through these functions; the constructs themselves import
 * nothing from here and reach their children through `WALK`, handed to them
 * in their contexts (`ctx.walk`) or as the defs-only members' last parameter.
 */

import type { Child, Defs } from "../ir/children.js";
import type { Node } from "../ir/nodes.js";
import type { JsonType } from "../json.js";
import { any } from "./any.js";
import { array } from "./array.js";
import type { Construct } from "./construct.js";
import type { EncodeContext, Fail, Walk, WalkContext } from "./context.js";
import { jsonText } from "./json-text.js";
import { map } from "./map.js";
import { mixed } from "./mixed.js";
import { object } from "./object.js";
import { reference } from "./reference.js";
import { scalar } from "./scalar.js";
import { tuple } from "./tuple.js";
import { union } from "./union.js";

type Table = { readonly [K in Node["kind"]]: Construct<Extract<Node, { kind: K }>> };

let table: Table | undefined;

/**
 * Built on first use: the construct modules import the functions below, so
 * whichever of them is imported first, every one is initialised by then.
 */
function constructs(): Table {
  table ??= {
    scalar,
    array,
    tuple,
    object,
    map,
    mixed,
    union,
    ref: reference,
    any,
    "json-text": jsonText,
  };
  return table;
}

/** The construct for a kind read from a bundle, if there is one. */
export function constructOfKind(kind: unknown): Construct | undefined {
  const t = constructs();
  return typeof kind === "string" && Object.hasOwn(t, kind)
    ? (t[kind as Node["kind"]] as unknown as Construct)
    : undefined;
}

export const constructOf = (node: Node): Construct => constructs()[node.kind] as unknown as Construct;

/*
 * The two per-call walks (encode, decode) reach each construct object by a
 * direct call, not through the table: a table lookup makes every call site
 * megamorphic and cost decode 5-8% (see the benchmark). These switches ARE
 * the walk the constructs are handed (`WALK.encode`, `WALK.decode`, assigned
 * once, so a construct's `ctx.walk.decode` call has one target). TypeScript
 * refuses these switches until they name every kind (`node satisfies never`
 * after each), so a new kind is one case here in each. This is the one place
 * that says so.
 */

export function encodeNode(node: Node, value: unknown, ctx: EncodeContext): unknown | Fail {
  switch (node.kind) {
    case "scalar":
      return scalar.encode(node, value, ctx);
    case "array":
      return array.encode(node, value, ctx);
    case "tuple":
      return tuple.encode(node, value, ctx);
    case "object":
      return object.encode(node, value, ctx);
    case "map":
      return map.encode(node, value, ctx);
    case "mixed":
      return mixed.encode(node, value, ctx);
    case "union":
      return union.encode(node, value, ctx);
    case "ref":
      return reference.encode(node, value, ctx);
    case "any":
      return any.encode(node, value, ctx);
    case "json-text":
      return jsonText.encode(node, value, ctx);
  }
  // A kind without its case fails to compile here (the cases return, so only a missing kind reaches this line).
  node satisfies never;
}

export function decodeNode(node: Node, wire: unknown, ctx: WalkContext): unknown | Fail {
  switch (node.kind) {
    case "scalar":
      return scalar.decode(node, wire, ctx);
    case "array":
      return array.decode(node, wire, ctx);
    case "tuple":
      return tuple.decode(node, wire, ctx);
    case "object":
      return object.decode(node, wire, ctx);
    case "map":
      return map.decode(node, wire, ctx);
    case "mixed":
      return mixed.decode(node, wire, ctx);
    case "union":
      return union.decode(node, wire, ctx);
    case "ref":
      return reference.decode(node, wire, ctx);
    case "any":
      return any.decode(node, wire, ctx);
    case "json-text":
      return jsonText.decode(node, wire, ctx);
  }
  // A kind without its case fails to compile here (the cases return, so only a missing kind reaches this line).
  node satisfies never;
}

/** The JSON types a node's wire values can have. */
export function wireTypesOf(node: Node, defs: Defs, seen: Set<string>): readonly JsonType[] {
  return constructOf(node).wireTypes(node, defs, seen, WALK);
}

/** Whether decoding returns the wire value unchanged ("no" is always safe). */
export function isIdentity(node: Node, defs: Defs): boolean {
  return constructOf(node).identity(node, defs, WALK);
}

export function childrenOf(node: Node): readonly Child[] {
  return constructOf(node).children(node);
}

/** The walk every context carries: how a construct reaches its children. */
export const WALK: Walk = {
  encode: encodeNode,
  decode: decodeNode,
  wireTypes: wireTypesOf,
  identity: isIdentity,
  children: childrenOf,
};
