/**
 * Objects with declared and dynamic members at compile time: the wire schema
 * of {fields, entries} and its generated decode (the construct is ../mixed.ts).
 */

import { _, type Code, join, type Name } from "../../code.js";
import { mapField } from "../../ir/children.js";
import type { MixedNode } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";
import { counted, type DecodeGenerator, generateEntries, openObject } from "./decode-generator.js";
import { entriesWire } from "./map.js";
import { fieldsWire } from "./object.js";

function mixedWire(node: MixedNode, wctx: WireContext): JsonObject {
  return {
    ...node.schema,
    type: "object",
    properties: { fields: fieldsWire(node.fields, wctx), entries: entriesWire(node.key, node.value, wctx) },
    required: ["fields", "entries"],
    additionalProperties: false,
  };
}

/**
 * The generated decode of {fields, entries}: the fields as a closed object
 * (its own function), then the entries, none naming a declared field or
 * repeating a key.
 */
function generateMixedDecode(node: MixedNode, e: DecodeGenerator): Code {
  const fields = e.fn({ kind: "object", fields: node.fields, schema: {} });
  const [fw, ew, o] = [e.local("fields"), e.local("entries"), e.local("o")];
  const declared = (key: Code | Name): Code =>
    node.fields.length === 0
      ? _`false`
      : join(
          node.fields.map((f) => _`${key} === ${f.name}`),
          _` || `,
        );
  return _`${openObject(_`w`, _`d`)}
const ${fw} = w.fields, ${ew} = w.entries;
if (${fw} === undefined || ${ew} === undefined || !A(${ew}) || d + 1 > s.maxDepth) return F;
${counted(2)}
const ${o} = ${fields}(${fw}, d + 1, s);
if (${o} === F) return F;
${generateEntries(e, node.value, ew, _`d + 1`, o, declared)}
return ${o};`;
}

export const mixedCompiler: ConstructCompiler<MixedNode> = {
  kind: "mixed",
  generateDecode: generateMixedDecode,
  levels: () => 2,
  mapChildren(node, f) {
    const fields = node.fields.map((field) => mapField(field, f));
    const value = f({ node: node.value, at: "{}" }).node;
    if (value === node.value && fields.every((field, i) => field === node.fields[i])) return node;
    return { ...node, fields, value };
  },
  wire: mixedWire,
  describe: (node) => ({ type: "object + map", travels: "{fields, entries}", extra: { key: node.key } }),
  tsType: (node, ctx) => ({ text: ctx.objectBody(node.fields, node.value), union: false, body: true }),
};
