/**
 * Any JSON value carried as a JSON string, for targets whose strict mode
 * refuses recursive definitions. The string is read by the same bounded parser
 * as the arguments themselves.
 */

import type { WordedCode } from "../feedback/format.js";
import type { JsonTextNode } from "../ir/nodes.js";
import { parseText } from "../parse/parser.js";
import type { Construct } from "./construct.js";
import { FAIL, type Fail, failAt, type WalkContext } from "./context.js";

function encodeJsonText(value: unknown, ctx: WalkContext): unknown | Fail {
  const text = JSON.stringify(value);
  return typeof text === "string" ? text : failAt(ctx, "invalid-value", "not a JSON value");
}

function decodeJsonText(wire: unknown, ctx: WalkContext): unknown | Fail {
  if (typeof wire !== "string") return failAt(ctx, "wire-violation", "expected a string holding JSON text");
  const parsed = parseText(wire, ctx.limits);
  if (!parsed.ok) {
    // A parse refusal's code (PARSE_CODES): the model's, worded as the walk's are.
    failAt(ctx, parsed.error.code as WordedCode, `the JSON text inside does not parse: ${parsed.error.message}`);
    return FAIL;
  }
  return parsed.value;
}

export const jsonText: Construct<JsonTextNode> = {
  kind: "json-text",
  children: () => [],
  encode: (_node, value, ctx) => encodeJsonText(value, ctx),
  decode: (_node, wire, ctx) => decodeJsonText(wire, ctx),
  wireTypes: () => ["string"],
  identity: () => false,
  wireStep: () => undefined,
};
