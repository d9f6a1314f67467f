/**
 * The one table of the constructs' stream halves: every node kind and the
 * module that shows its partial source value while a call streams (its
 * run-time half is in ../registry.ts's table, its compile-time half in
 * ../compile/registry.ts's). The table is the switch below: the partial walk
 * calls each kind's streamer directly, as the run-time registry's encode and
 * decode do. Adding a node kind is, here, its import and its case, refused by
 * TypeScript until it is made. The stream decoder (stream/decoder.ts) reaches
 * a construct's partial through `partialNode`, and the streamers reach their
 * children through `ctx.child`, importing nothing from here.
 */

import type { Node } from "../../ir/nodes.js";
import type { Absent } from "../context.js";
import { anyStreamer } from "./any.js";
import { arrayStreamer } from "./array.js";
import type { PartialContext, PartialMemo } from "./context.js";
import { jsonTextStreamer } from "./json-text.js";
import { mapStreamer } from "./map.js";
import { mixedStreamer } from "./mixed.js";
import { objectStreamer } from "./object.js";
import { referenceStreamer } from "./reference.js";
import { scalarStreamer } from "./scalar.js";
import { tupleStreamer } from "./tuple.js";
import { unionStreamer } from "./union.js";

/**
 * The stream decoder's partial walk, by direct calls, as the run-time
 * registry's encode and decode (a push reaches a construct's partial several
 * times; through a table lookup each call site would be megamorphic).
 */
export function partialNode(node: Node, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown | Absent {
  switch (node.kind) {
    case "scalar":
      return scalarStreamer.partial(node, wire, ctx, memo);
    case "array":
      return arrayStreamer.partial(node, wire, ctx, memo);
    case "tuple":
      return tupleStreamer.partial(node, wire, ctx, memo);
    case "object":
      return objectStreamer.partial(node, wire, ctx, memo);
    case "map":
      return mapStreamer.partial(node, wire, ctx, memo);
    case "mixed":
      return mixedStreamer.partial(node, wire, ctx, memo);
    case "union":
      return unionStreamer.partial(node, wire, ctx, memo);
    case "ref":
      return referenceStreamer.partial(node, wire, ctx, memo);
    case "any":
      return anyStreamer.partial(node, wire, ctx, memo);
    case "json-text":
      return jsonTextStreamer.partial(node, wire, ctx, memo);
  }
  // A kind without its case fails to compile here (the cases return, so only a missing kind reaches this line).
  node satisfies never;
}
