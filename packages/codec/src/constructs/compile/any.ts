/**
 * Any JSON value at compile time: its recursive wire definition, and how the
 * tools show it (the construct is ../any.ts).
 */

import { _ } from "../../code.js";
import type { AnyNode } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";

export const ANY_DEF = "strictwire_json";

const ANY_SCHEMA: JsonObject = {
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: "array", items: { $ref: `#/$defs/${ANY_DEF}` } },
    {
      type: "object",
      properties: {
        entries: {
          type: "array",
          items: {
            type: "object",
            properties: { key: { type: "string" }, value: { $ref: `#/$defs/${ANY_DEF}` } },
            required: ["key", "value"],
            additionalProperties: false,
          },
        },
      },
      required: ["entries"],
      additionalProperties: false,
    },
  ],
};

function anyWire(node: AnyNode, wctx: WireContext): JsonObject {
  wctx.extraDefs[ANY_DEF] = ANY_SCHEMA;
  return { ...node.schema, $ref: `#/$defs/${ANY_DEF}` };
}

export const anyCompiler: ConstructCompiler<AnyNode> = {
  kind: "any",
  mapChildren: (node) => node,
  wire: anyWire,
  // Any JSON value goes to the interpreted walk, behind the parser's checks: its entries nest without a plan to unroll.
  generateDecode: (node, e) => _`return X(${e.index(node)}, w, d, s);`,
  describe: () => ({ type: "any JSON", travels: "any JSON, objects as entries" }),
  tsType: (_node, ctx) => ctx.json(),
};
