/** References travel as wire `$defs`, recursion included; both directions follow the definition. */

import type { Node, RefNode } from "../ir/nodes.js";
import type { JsonObject } from "../json.js";
import type { WalkContext } from "./context.js";

export function refWire(node: RefNode): JsonObject {
  return { $ref: `#/$defs/${node.def}` };
}

export function target(node: RefNode, ctx: { readonly defs: Readonly<Record<string, Node>> } | WalkContext): Node {
  const def = Object.hasOwn(ctx.defs, node.def) ? ctx.defs[node.def] : undefined;
  // The plan is checked when loaded, so a dangling name is a bug, not bad input.
  if (def === undefined) throw new Error(`strictwire: plan has no definition ${node.def}`);
  return def;
}
