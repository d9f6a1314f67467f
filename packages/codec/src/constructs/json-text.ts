/**
 * Any JSON value carried as a JSON string, for targets whose strict mode
 * refuses recursive definitions. The string is read by the same bounded parser
 * as the arguments themselves.
 */

import { type JsonTextNode, jsonTextShape } from "../ir/nodes.js";
import { parseText } from "../parse/parser.js";
import type { Construct } from "./construct.js";
import { ABSENT, FAIL, type Fail, failAt, type PartialContext, type WalkContext } from "./context.js";

function encodeJsonText(value: unknown, ctx: WalkContext): unknown | Fail {
  const text = JSON.stringify(value);
  return typeof text === "string" ? text : failAt(ctx, "invalid-value", "not a JSON value");
}

function decodeJsonText(wire: unknown, ctx: WalkContext): unknown | Fail {
  if (typeof wire !== "string") return failAt(ctx, "wire-violation", "expected a string holding JSON text");
  const parsed = parseText(wire, ctx.limits);
  if (!parsed.ok) {
    failAt(ctx, parsed.error.code, `the JSON text inside does not parse: ${parsed.error.message}`);
    return FAIL;
  }
  return parsed.value;
}

/**
 * Nothing until its string is complete, then the value it holds (nothing if
 * it does not parse): a prefix of JSON text has no value of its own to show.
 */
function partialJsonText(wire: unknown, ctx: PartialContext): unknown {
  if (typeof wire !== "string" || !ctx.complete(wire)) return ABSENT;
  const parsed = parseText(wire, ctx.limits);
  return parsed.ok ? parsed.value : ABSENT;
}

export const jsonText: Construct<JsonTextNode> = {
  kind: "json-text",
  children: () => [],
  encode: (_node, value, ctx) => encodeJsonText(value, ctx),
  decode: (_node, wire, ctx) => decodeJsonText(wire, ctx),
  wireTypes: () => ["string"],
  identity: () => false,
  wireStep: () => undefined,
  check: jsonTextShape.check,
  partial: (_node, wire, ctx) => partialJsonText(wire, ctx),
};
