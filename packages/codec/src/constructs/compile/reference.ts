/** References at compile time: a wire `$ref` to the definition, and how the tools show one (../reference.ts). */

import { _ } from "../../code.js";
import type { RefNode } from "../../ir/nodes.js";
import type { ConstructCompiler } from "./construct.js";

export const referenceCompiler: ConstructCompiler<RefNode> = {
  kind: "ref",
  mapChildren: (node) => node,
  wire: (node) => ({ $ref: `#/$defs/${node.def}` }),
  // Never reached in practice: the generator calls the referent's own function. The interpreted walk is exact.
  generateDecode: (node, e) => _`return X(${e.index(node)}, w, d, s);`,
  describe: (node) => ({ type: `→ ${node.def}`, travels: `reference to $defs/${node.def}`, extra: { def: node.def } }),
  tsType: (node, ctx) => ctx.reference(node.def),
};
