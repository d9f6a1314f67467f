/**
 * Which JSON Schema draft a source schema is written against, and the draft-04 rewrite
 * that lets it be validated as draft-07 where the two mean the same.
 */
import { isPlainObject } from "../json.js";
import { keywordsWhere, subschemasOf } from "./keywords.js";

export type Draft = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

/** The validator family a draft is checked with. */
export type ValidatorFamily = "2020" | "2019" | "07";

const BY_URI: readonly [string, Draft][] = [
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft-06/schema", "draft-06"],
  ["json-schema.org/draft-04/schema", "draft-04"],
];

/** Keywords that only 2019-09 and later define: without $schema, their presence means 2020-12. */
const MODERN_KEYWORDS: ReadonlySet<string> = new Set(keywordsWhere((spec) => spec.modern === true));

export type DraftResult = { readonly ok: true; readonly draft: Draft } | { readonly ok: false; readonly uri: string };

/**
 * Without $schema: 2020-12 when a modern keyword appears, draft-04 when a
 * boolean exclusiveMinimum/Maximum does or when draft-04's `id` (a string, in
 * a keyword position) appears and no `$id` does, draft-07 otherwise (what most
 * real-world tool schemas are written against). A property named `id` is not
 * a keyword: the walk visits subschemas only, never the `properties` map itself.
 */
export function detectDraft(schema: unknown): DraftResult {
  if (isPlainObject(schema) && typeof schema.$schema === "string") {
    const uri = schema.$schema;
    for (const [needle, draft] of BY_URI) if (uri.includes(needle)) return { ok: true, draft };
    return { ok: false, uri };
  }
  let modern = false;
  let draft04 = false;
  let oldId = false;
  let newId = false;
  walkSchemas(schema, (node) => {
    for (const key of Object.keys(node)) if (MODERN_KEYWORDS.has(key)) modern = true;
    if (typeof node.exclusiveMinimum === "boolean" || typeof node.exclusiveMaximum === "boolean") draft04 = true;
    if (typeof node.id === "string") oldId = true;
    if (node.$id !== undefined) newId = true;
  });
  if (modern) return { ok: true, draft: "2020-12" };
  return { ok: true, draft: draft04 || (oldId && !newId) ? "draft-04" : "draft-07" };
}

export function familyOf(draft: Draft): ValidatorFamily {
  if (draft === "2020-12") return "2020";
  return draft === "2019-09" ? "2019" : "07";
}

/**
 * Rewrite draft-04 into draft-07 terms: boolean exclusiveMinimum/Maximum become
 * numbers, `id` becomes `$id`. Works on a copy the caller owns.
 */
export function rewriteDraft04(schema: unknown): unknown {
  walkSchemas(schema, (node) => {
    if (typeof node.exclusiveMinimum === "boolean") {
      if (node.exclusiveMinimum && typeof node.minimum === "number") {
        node.exclusiveMinimum = node.minimum;
        delete node.minimum;
      } else delete node.exclusiveMinimum;
    }
    if (typeof node.exclusiveMaximum === "boolean") {
      if (node.exclusiveMaximum && typeof node.maximum === "number") {
        node.exclusiveMaximum = node.maximum;
        delete node.maximum;
      } else delete node.exclusiveMaximum;
    }
    if (typeof node.id === "string" && node.$id === undefined) {
      node.$id = node.id;
      delete node.id;
    }
    if (typeof node.$schema === "string" && node.$schema.includes("draft-04")) {
      node.$schema = "http://json-schema.org/draft-07/schema#";
    }
  });
  return schema;
}

/** Visit every subschema object, iteratively (schemas may be hostile and deep). */
export function walkSchemas(root: unknown, visit: (node: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isPlainObject(node)) continue;
    visit(node);
    for (const entry of subschemasOf(node)) if (isPlainObject(entry.schema)) stack.push(entry.schema);
  }
}

/** Size and depth of a schema document, measured with a cap so a bomb costs little. */
export function measureDocument(root: unknown, cap: number): { nodes: number; depth: number; capped: boolean } {
  const stack: [unknown, number][] = [[root, 1]];
  let nodes = 0;
  let depth = 0;
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    nodes++;
    if (d > depth) depth = d;
    if (nodes > cap) return { nodes, depth, capped: true };
    if (Array.isArray(node)) for (const child of node) stack.push([child, d + 1]);
    else if (isPlainObject(node)) for (const key of Object.keys(node)) stack.push([node[key], d + 1]);
  }
  return { nodes, depth, capped: false };
}
