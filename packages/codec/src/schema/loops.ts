/**
 * A schema that reaches itself through keywords applying to the same value
 * ($ref, allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, dependencies:
 * the registry's in-place keywords) never reads
 * any deeper into that value, so validating it never ends: the validator
 * recurses until the stack runs out, on every call. Such a schema is refused.
 * Recursion through properties, items and the like is fine: each step reads
 * one level deeper, and the parse limits bound the depth.
 */
import { firstLoop, firstOverBudget } from "../graph.js";
import { isPlainObject } from "../json.js";
import { entryPointer, subschemasOf } from "./keywords.js";
import type { Resources } from "./resources.js";

/** The pointer of a schema on such a loop, or undefined when there is none. */
export function inPlaceLoop(document: unknown, resources: Resources): string | undefined {
  return firstLoop(schemaPointers(document), (pointer) => inPlaceNext(pointer, resources));
}

/**
 * The pointer of a schema from which more than `budget` chains of in-place
 * keywords start, or undefined. Without a loop such chains still multiply: a
 * definition whose `anyOf` names the next one twice, thirty deep, has 2^30,
 * and a validator walks every one of them on a value that fails them all.
 * Only for a document without a loop (inPlaceLoop found none).
 */
export function inPlaceFanOut(document: unknown, resources: Resources, budget: number): string | undefined {
  return firstOverBudget(schemaPointers(document), (pointer) => inPlaceNext(pointer, resources), budget);
}

/** What a refusal of inPlaceFanOut's finding says, for a source or a wire, at compile or at load. */
export function fanOutReason(budget: number): string {
  return `more than ${budget} chains of $ref, anyOf, allOf, oneOf and the like start here, each checked on a value that fails them all`;
}

/** The schemas that apply to the same value as the one at `pointer`. */
function inPlaceNext(pointer: string, resources: Resources): string[] {
  const schema = resources.at(pointer)?.schema;
  if (!isPlainObject(schema)) return [];
  const out: string[] = [];
  for (const entry of subschemasOf(schema, (spec) => spec.inPlace === true)) {
    if (isPlainObject(entry.schema)) out.push(entryPointer(pointer, entry));
  }
  if (typeof schema.$ref === "string") {
    const r = resources.resolve(schema.$ref, pointer);
    // Unresolved and remote references are refused elsewhere, with their own codes.
    if (r.ok) out.push(r.target.pointer);
  }
  return out;
}

/** Pointers of every subschema, iteratively. */
function schemaPointers(document: unknown): string[] {
  const out: string[] = [];
  const stack: [unknown, string][] = [[document, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (!isPlainObject(node)) continue;
    out.push(pointer);
    for (const entry of subschemasOf(node)) stack.push([entry.schema, entryPointer(pointer, entry)]);
  }
  return out;
}
