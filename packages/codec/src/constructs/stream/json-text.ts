/** JSON text's partial: the value it holds, once its string is complete (the construct is ../json-text.ts). */

import type { JsonTextNode } from "../../ir/nodes.js";
import { parseText } from "../../parse/parser.js";
import { ABSENT } from "../context.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext } from "./context.js";

/**
 * Nothing until its string is complete, then the value it holds (nothing if
 * it does not parse): a prefix of JSON text has no value of its own to show.
 */
function partialJsonText(wire: unknown, ctx: PartialContext): unknown {
  if (typeof wire !== "string" || !ctx.complete(wire)) return ABSENT;
  const parsed = parseText(wire, ctx.limits);
  return parsed.ok ? parsed.value : ABSENT;
}

export const jsonTextStreamer: ConstructStreamer<JsonTextNode> = {
  kind: "json-text",
  partial: (_node, wire, ctx) => partialJsonText(wire, ctx),
};
