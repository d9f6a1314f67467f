/**
 * What every construct provides to the stream decoder, in one interface: the
 * stream half of a node kind, beside its run-time half (the Construct of
 * ../construct.ts, in ../<kind>.ts) and its compile-time half
 * (../compile/<kind>.ts): the partial source value shown while a call
 * streams. The stream layer's: the core imports nothing of stream/, so a
 * bundle that only loads and decodes carries none of it. The one table is
 * `registry.ts`.
 */

import type { Node } from "../../ir/nodes.js";
import type { Absent } from "../context.js";
import type { PartialContext, PartialMemo } from "./context.js";

export interface ConstructStreamer<N extends Node = Node> {
  readonly kind: N["kind"];
  /**
   * The streaming decoder's partial source value for a wire value still being
   * written (stream/decoder.ts), or ABSENT for nothing to show yet. `memo`
   * holds what it showed for this same wire container at the last push: a
   * container's partial is that value updated in place, reading only what
   * the push added, so streaming costs linear time. Display only, never
   * validated: it may show what decode then refuses.
   */
  partial(node: N, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown | Absent;
}
