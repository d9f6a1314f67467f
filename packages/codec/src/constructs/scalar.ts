/** Scalars, enums and consts travel as themselves: encode and decode are the identity. */

import { _, type Code, join } from "../code.js";
import { type ScalarNode, scalarShape } from "../ir/nodes.js";
import type { JsonObject, JsonType, JsonValue } from "../json.js";
import { jsonTypeOf } from "../json.js";
import type { Construct } from "./construct.js";
import type { Rendered } from "./context.js";
import { type Fail, failAt, type WalkContext } from "./context.js";
import type { DecodeGenerator } from "./decode-generator.js";

/** Both directions: the value is its own wire form, if its JSON type fits. */
export function scalarCode(
  node: ScalarNode,
  value: unknown,
  ctx: WalkContext,
  code: "invalid-value" | "wire-violation",
): unknown | Fail {
  const t = jsonTypeOf(value);
  if (t !== undefined && node.types.includes(t)) return value;
  return failAt(ctx, code, `expected ${node.types.join(" or ")}`);
}

export const scalar: Construct<ScalarNode> = {
  kind: "scalar",
  children: () => [],
  mapChildren: (node) => node,
  wire: (node) => ({ ...node.schema }),
  encode: (node, value, ctx) => scalarCode(node, value, ctx, "invalid-value"),
  decode: (node, wire, ctx) => scalarCode(node, wire, ctx, "wire-violation"),
  generateDecode: generateScalar,
  wireTypes: (node) => node.types,
  identity: () => true,
  wireStep: () => undefined,
  check: scalarShape.check,
  describe: (node) => ({ type: scalarSummary(node.schema), travels: "" }),
  tsType: (node) => scalarType(node.schema, node.types),
  // As itself: a string being written shows its prefix (numbers appear only once complete).
  partial: (_node, wire) => wire,
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
