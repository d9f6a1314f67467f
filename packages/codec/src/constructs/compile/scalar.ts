/**
 * Scalars at compile time: how inspection and the emitted types show them,
 * and their generated decode (the construct is ../scalar.ts).
 */

import { _, type Code, join } from "../../code.js";
import type { ScalarNode } from "../../ir/nodes.js";
import { type JsonObject, type JsonType, type JsonValue, jsonTypeOf } from "../../json.js";
import type { ConstructCompiler } from "./construct.js";
import type { Rendered } from "./context.js";
import type { DecodeGenerator } from "./decode-generator.js";

export const scalarCompiler: ConstructCompiler<ScalarNode> = {
  kind: "scalar",
  mapChildren: (node) => node,
  wire: (node) => ({ ...node.schema }),
  generateDecode: generateScalar,
  describe: (node) => ({ type: scalarSummary(node.schema), travels: "" }),
  tsType: (node) => scalarType(node.schema, node.types),
};

/** A short enum is clearer spelt out; a long one only by its size. */
const MAX_ENUM_TEXT = 40;

const clip = (text: string): string => (text.length <= MAX_ENUM_TEXT ? text : `${text.slice(0, MAX_ENUM_TEXT - 1)}…`);

/** What values a scalar holds, briefly, for inspection. */
function scalarSummary(schema: Readonly<Record<string, JsonValue>>): string {
  if (schema.const !== undefined) return `const ${clip(JSON.stringify(schema.const))}`;
  if (Array.isArray(schema.enum)) {
    const spelt = schema.enum.map((v) => JSON.stringify(v)).join(" | ");
    return spelt.length <= MAX_ENUM_TEXT ? spelt : `enum (${schema.enum.length})`;
  }
  const type = schema.type;
  const base = Array.isArray(type) ? type.join(" | ") : typeof type === "string" ? type : "any";
  return typeof schema.format === "string" ? `${base} (${schema.format})` : base;
}

/** The TypeScript type: the literals of an enum or const (those of the node's types), else the types. */
function scalarType(schema: JsonObject, types: readonly JsonType[]): Rendered {
  let literals: JsonValue[] | undefined;
  if (schema.const !== undefined) literals = [schema.const];
  else if (Array.isArray(schema.enum)) literals = schema.enum;
  let parts: string[];
  if (literals !== undefined) {
    parts = [
      ...new Set(
        literals
          .filter((v) => {
            const t = jsonTypeOf(v);
            return t !== undefined && types.includes(t);
          })
          .map((v) => JSON.stringify(v)),
      ),
    ];
    if (parts.length === 0) parts = ["never"];
  } else {
    parts = [...new Set(types)];
  }
  return { text: parts.join(" | "), union: parts.length > 1 };
}

/** Each JSON type the node takes, checked as the parser checks it (safe numbers, -0 as 0, no lone surrogates). */
function generateScalar(node: ScalarNode, e: DecodeGenerator): Code {
  const has = (t: JsonType): boolean => node.types.includes(t);
  const lines = [_`switch (typeof w) {`];
  if (has("string")) lines.push(_`case "string": return s.checkStrings && !WF(w) ? F : w;`);
  if (has("number")) lines.push(_`case "number": return w <= MAX && w >= -MAX ? (w === 0 ? 0 : w) : F;`);
  if (has("boolean")) lines.push(_`case "boolean": return w;`);
  const containers = has("object") || has("array");
  if (has("null") || containers) {
    lines.push(
      has("null") ? _`case "object": if (w === null) return null;` : _`case "object": if (w === null) return F;`,
    );
    // A container held as a scalar (a const object): the interpreted check, behind the parser's.
    lines.push(containers ? _`return X(${e.index(node)}, w, d, s);` : _`return F;`);
  }
  lines.push(_`}`, _`return F;`);
  return join(lines);
}
