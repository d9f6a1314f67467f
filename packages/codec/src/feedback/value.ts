/**
 * A value's breach of the parser's limits (value-limits.ts, which words
 * nothing) worded: the same codes and words the parser's refusals of a text
 * carry, at the value's root.
 */
import type { CodecError } from "../errors.js";
import type { ValueBreach } from "../value-limits.js";
import { fail } from "./format.js";

/** The words of each breach; a new kind of breach without words fails to compile. */
function breachText(breach: ValueBreach): string {
  switch (breach.code) {
    case "input-too-large":
      return `more than ${breach.limit} bytes of JSON`;
    case "too-many-nodes":
      return `more than ${breach.limit} JSON values`;
    case "too-deep":
      return `nested deeper than ${breach.limit} levels`;
    case "unsafe-number":
      return `the number ${breach.value} is beyond ±${Number.MAX_SAFE_INTEGER} and would be rounded`;
    case "invalid-json":
      switch (breach.found) {
        case "non-finite-number":
          return "a number that JSON cannot carry (NaN or Infinity)";
        case "not-plain-object":
          return "not a plain JSON object";
        case "not-json-type":
          return `a ${breach.type} is not a JSON value`;
        case "unreadable":
          return `a member threw when read (${JSON.stringify(breach.reason)}): not a JSON value`;
      }
  }
}

/** A breach as the codec's error: its code, the root's path, its words. */
export function valueError(breach: ValueBreach): CodecError {
  return fail(breach.code, "", breachText(breach)).error;
}
