/**
 * A schema that reaches itself through keywords applying to the same value
 * ($ref, allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, dependencies:
 * the registry's in-place keywords) never reads
 * any deeper into that value, so validating it never ends: the validator
 * recurses until the stack runs out, on every call. Such a schema is refused.
 * Recursion through properties, items and the like is fine: each step reads
 * one level deeper, and the parse limits bound the depth.
 */
import { isPlainObject } from "../json.js";
import { entryPointer, subschemasOf } from "./keywords.js";
import type { Resources } from "./resources.js";

/** The pointer of a schema on such a loop, or undefined when there is none. */
export function inPlaceLoop(document: unknown, resources: Resources): string | undefined {
  const starts = schemaPointers(document);
  const state = new Map<string, "visiting" | "done">();
  for (const start of starts) {
    if (state.has(start)) continue;
    // Iterative depth-first search: a hostile schema may chain thousands of references.
    const stack: { pointer: string; next: string[]; i: number }[] = [
      { pointer: start, next: inPlaceNext(start, resources), i: 0 },
    ];
    state.set(start, "visiting");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.next.length) {
        state.set(top.pointer, "done");
        stack.pop();
        continue;
      }
      const next = top.next[top.i++]!;
      const s = state.get(next);
      if (s === "visiting") return next;
      if (s === "done") continue;
      state.set(next, "visiting");
      stack.push({ pointer: next, next: inPlaceNext(next, resources), i: 0 });
    }
  }
  return undefined;
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
