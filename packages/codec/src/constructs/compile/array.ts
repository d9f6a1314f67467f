/** Arrays at compile time: the wire schema, the generated decode, the type (the construct is ../array.ts). */

import { _, type Code } from "../../code.js";
import type { ArrayNode } from "../../ir/nodes.js";
import type { ConstructCompiler } from "./construct.js";
import type { DecodeGenerator } from "./decode-generator.js";

function generateArray(node: ArrayNode, e: DecodeGenerator): Code {
  const [len, o, i, v] = [e.local("len"), e.local("o"), e.local("i"), e.local("v")];
  return _`if (!A(w) || d > s.maxDepth) return F;
const ${len} = w.length;
s.nodes += ${len};
if (s.nodes > s.maxNodes) return F;
const ${o} = new Array(${len});
for (let ${i} = 0; ${i} < ${len}; ${i}++) {
const ${v} = ${e.fn(node.items)}(w[${i}], d + 1, s);
if (${v} === F) return F;
${o}[${i}] = ${v};
}
return ${o};`;
}

export const arrayCompiler: ConstructCompiler<ArrayNode> = {
  kind: "array",
  generateDecode: generateArray,
  mapChildren(node, f) {
    const items = f({ node: node.items, at: "[]" }).node;
    return items === node.items ? node : { ...node, items };
  },
  wire: (node, wctx) => ({ type: "array", items: wctx.walk.wire(node.items, wctx), ...node.schema }),
  describe: () => ({ type: "array", travels: "" }),
  tsType(node, ctx) {
    const items = ctx.child(node.items);
    return { text: items.union ? `(${items.text})[]` : `${items.text}[]`, union: false };
  },
};
