/**
 * The wire schema: derived from the plan. An object root is the wire root
 * itself (no extra nesting level); any other root is wrapped in a closed
 * `{"arguments": …}` object, since providers take only an object at the top.
 */

import type { WireContext } from "../constructs/context.js";
import { wireOf } from "../constructs/registry.js";
import type { Plan } from "../ir/nodes.js";
import type { JsonObject } from "../json.js";

export function wireSchema(plan: Plan, target: { readonly recursion: boolean }): JsonObject {
  const wctx: WireContext = { defs: plan.defs, extraDefs: {}, target };
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

/** The arguments inside a wire value, or `undefined`'s stand-in when the envelope is not there. */
export function unwrap(plan: Plan, wire: unknown): unknown {
  if (plan.envelope === "bare") return wire;
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return NO_ARGUMENTS;
  const keys = Object.keys(wire);
  return keys.length === 1 && keys[0] === "arguments" ? (wire as { arguments: unknown }).arguments : NO_ARGUMENTS;
}

/** The wire value for encoded arguments. */
export function wrap(plan: Plan, args: unknown): Record<string, unknown> {
  // A bare envelope holds an object root, whose encoding is an object.
  return plan.envelope === "bare" ? (args as Record<string, unknown>) : { arguments: args };
}

/** What `unwrap` returns when a wrapped wire value is not exactly `{"arguments": …}`. */
export const NO_ARGUMENTS: unique symbol = Symbol("no-arguments");
