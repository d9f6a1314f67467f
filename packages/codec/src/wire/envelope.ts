/**
 * The envelope at run time: a wire value holds the arguments bare (an object
 * root) or as `{"arguments": …}` (`plan.envelope`; the wire schema that says
 * so is assemble.ts, at build time). Translating wire paths to original ones
 * is paths.ts beside it.
 */
import type { Plan } from "../ir/nodes.js";

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
