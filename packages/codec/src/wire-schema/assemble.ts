/**
 * The wire schema, at build time: derived from the plan. An object root is
 * the wire root itself (no extra nesting level); any other root is wrapped in
 * a closed `{"arguments": …}` object, since providers take only an object at
 * the top. Taking that envelope off and putting it on at run time is
 * envelope.ts.
 */

import type { WireContext } from "../constructs/compile/context.js";
import { WIRE_WALK, wireOf } from "../constructs/compile/registry.js";
import type { Plan } from "../ir/nodes.js";
import type { JsonObject } from "../json.js";

export function wireSchema(plan: Plan, target: { readonly recursion: boolean }): JsonObject {
  const wctx: WireContext = { defs: plan.defs, walk: WIRE_WALK, extraDefs: {}, target };
  const root = wireOf(plan.root, wctx);
  const defs: JsonObject = {};
  for (const name of Object.keys(plan.defs).sort()) defs[name] = wireOf(plan.defs[name]!, wctx);
  for (const name of Object.keys(wctx.extraDefs).sort()) defs[name] = wctx.extraDefs[name]!;
  const schema: JsonObject =
    plan.envelope === "bare"
      ? { ...root }
      : { type: "object", properties: { arguments: root }, required: ["arguments"], additionalProperties: false };
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return schema;
}
