/** Typed maps at compile time: the entries' wire schema and generated decode (the map is ../map.ts). */

import { _, type Code } from "../../code.js";
import type { KeySchema, MapNode, Node } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";
import { type DecodeGenerator, generateEntries } from "./decode-generator.js";

export function entriesWire(key: KeySchema, value: Node, wctx: WireContext): JsonObject {
  return {
    type: "array",
    items: {
      type: "object",
      properties: { key: { ...key }, value: wctx.walk.wire(value, wctx) },
      required: ["key", "value"],
      additionalProperties: false,
    },
  };
}

/** The generated decode of entries: each {key, value} checked as the parser checks a container, no key twice. */
function generateMapDecode(node: MapNode, e: DecodeGenerator): Code {
  const o = e.local("o");
  return _`if (!A(w) || d > s.maxDepth) return F;
const ${o} = {};
${generateEntries(e, node.value, _`w`, _`d`, o)}
return ${o};`;
}

export const mapCompiler: ConstructCompiler<MapNode> = {
  kind: "map",
  generateDecode: generateMapDecode,
  levels: () => 1,
  mapChildren(node, f) {
    const value = f({ node: node.value, at: "{}" }).node;
    return value === node.value ? node : { ...node, value };
  },
  wire: (node, wctx) => ({ ...entriesWire(node.key, node.value, wctx), ...node.schema }),
  describe: (node) => ({ type: "map", travels: "entries [{key, value}]", extra: { key: node.key } }),
  tsType: (node, ctx) => ({ text: ctx.mapBody(node.key, node.value), union: false }),
};
