/**
 * References travel as wire `$defs`, recursion included; both directions
 * follow the definition (the reference's referent).
 */

import type { Defs } from "../ir/children.js";
import type { Node, RefNode } from "../ir/nodes.js";
import { JSON_TYPES } from "../json.js";
import type { Construct } from "./construct.js";

/** The definition a reference names. */
export function referent(node: RefNode, defs: Defs): Node {
  const def = Object.hasOwn(defs, node.def) ? defs[node.def] : undefined;
  // A JSON bundle's plan is checked when loaded, and a module's is the one compile built (bundle/check.ts):
  // a dangling name is a bug, not bad input.
  if (def === undefined) throw new Error(`strictwire: plan has no definition ${node.def}`);
  return def;
}

export const reference: Construct<RefNode> = {
  kind: "ref",
  children: () => [],
  encode: (node, value, ctx) => ctx.walk.encode(referent(node, ctx.defs), value, ctx),
  decode: (node, wire, ctx) => ctx.walk.decode(referent(node, ctx.defs), wire, ctx),
  wireTypes(node, defs, seen, walk) {
    // Inside a cycle, assume anything: that only makes unions tag more, never wrongly.
    const def = Object.hasOwn(defs, node.def) ? defs[node.def] : undefined;
    if (seen.has(node.def) || def === undefined) return JSON_TYPES;
    seen.add(node.def);
    const out = walk.wireTypes(def, defs, seen);
    seen.delete(node.def);
    return out;
  },
  // Proving identity through recursion needs a fixpoint; "no" is always safe.
  identity: () => false,
  wireStep: (node, { i, value, defs }) => ({
    node: Object.hasOwn(defs, node.def) ? defs[node.def] : undefined,
    value,
    next: i,
  }),
};
