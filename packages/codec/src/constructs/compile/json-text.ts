/** JSON text at compile time: its wire schema, inspection and type (the construct is ../json-text.ts). */

import { _ } from "../../code.js";
import type { JsonTextNode } from "../../ir/nodes.js";
import type { ConstructCompiler } from "./construct.js";

export const jsonTextCompiler: ConstructCompiler<JsonTextNode> = {
  kind: "json-text",
  mapChildren: (node) => node,
  wire: (node) => ({ description: "a JSON value, written as JSON text", ...node.schema, type: "string" }),
  // The text inside is read by the bounded parser: the interpreted walk does that, behind the parser's checks.
  generateDecode: (node, e) => _`return X(${e.index(node)}, w, d, s);`,
  describe: () => ({ type: "any JSON", travels: "JSON text in a string" }),
  tsType: (_node, ctx) => ctx.json(),
};
