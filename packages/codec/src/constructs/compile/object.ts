/**
 * Closed objects at compile time: the declared members' wire schema and
 * generated decode (the object is ../object.ts).
 */

import { _, type Code, join } from "../../code.js";
import { mapField } from "../../ir/children.js";
import type { Field, ObjectNode } from "../../ir/nodes.js";
import { type JsonObject, setOwn } from "../../json.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";
import { counted, type DecodeGenerator, openObject } from "./decode-generator.js";
import { fieldWire, generateFieldDecode, wireRequired } from "./presence.js";

export function fieldsWire(fields: readonly Field[], wctx: WireContext): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const f of fields) {
    setOwn(properties, f.name, fieldWire(f, wctx));
    if (wireRequired(f)) required.push(f.name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}

/**
 * The generated decode of a closed object: each declared member in order,
 * counted as read (that no other member is there is proved on the text, see
 * openObject). `inline`: the object is an optional member's present tag, its
 * `state` beside the members (the state spelling).
 */
export function generateObjectDecode(node: ObjectNode, e: DecodeGenerator, inline: boolean): Code {
  const [o, seen] = [e.local("o"), e.local("seen")];
  return join([
    openObject(_`w`, _`d`),
    _`const ${o} = {};`,
    inline ? _`if (w.state !== "present") return F;\nlet ${seen} = 1;` : _`let ${seen} = 0;`,
    ...node.fields.map((f) => generateFieldDecode(f, e, o, seen)),
    counted(seen),
    _`return ${o};`,
  ]);
}

export const objectCompiler: ConstructCompiler<ObjectNode> = {
  kind: "object",
  generateDecode: (node, e) => generateObjectDecode(node, e, false),
  generateInlineDecode: (node, e) => generateObjectDecode(node, e, true),
  levels: () => 1,
  mapChildren(node, f) {
    const fields = node.fields.map((field) => mapField(field, f));
    return fields.every((field, i) => field === node.fields[i]) ? node : { ...node, fields };
  },
  wire: (node, wctx) => ({ ...node.schema, ...fieldsWire(node.fields, wctx) }),
  describe: () => ({ type: "object", travels: "" }),
  tsType: (node, ctx) => ({ text: ctx.objectBody(node.fields), union: false, body: true }),
};
