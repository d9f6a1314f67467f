/**
 * From the source schema as given to the schema the validators and the IR
 * builder read: a private deep copy, an input dialect adapter where asked, draft-04
 * rewritten into draft-07 terms, and a base $id so pointers into it resolve.
 */
import { pointerToken, type Refused } from "../errors.js";
import { cloneJson, isPlainObject, unescapeToken } from "../json.js";
import { type Draft, detectDraft, familyOf, rewriteDraft04, type ValidatorFamily, walkSchemas } from "./draft.js";
import { staticDynamicRefs } from "./dynamic.js";
import { subschemasOf } from "./keywords.js";

/** The base URI validators know the source under. Never fetched. */
export const SOURCE_ID = "https://strictwire.invalid/schema.json";

export interface PreparedSource {
  readonly schema: Record<string, unknown> | boolean;
  readonly draft: Draft;
  readonly family: ValidatorFamily;
  /** The URI refs into the source resolve against, for branch validators. */
  readonly id: string;
}

export type Prepared = { ok: true; value: PreparedSource } | Refused;

export type Adapter = (schema: unknown) => unknown;

export function prepareSource(source: unknown, adapter?: Adapter): Prepared {
  let schema: unknown = cloneJson(source);
  if (adapter) schema = adapter(schema);
  if (typeof schema !== "boolean" && !isPlainObject(schema))
    return { ok: false, reason: "a schema must be an object or a boolean" };
  const detected = detectDraft(schema);
  if (!detected.ok) return { ok: false, reason: `unknown $schema ${JSON.stringify(detected.uri)}` };
  const draft = detected.draft;
  if (draft === "draft-04") schema = rewriteDraft04(schema);
  // draft-06 reads as draft-07 (which only adds keywords); the validators know draft-07's meta-schema.
  if (draft === "draft-06" && isPlainObject(schema)) schema.$schema = "http://json-schema.org/draft-07/schema#";
  // `$async` makes ajv return a Promise, which a synchronous check would take for a pass.
  // From draft-06 on, `id` is no keyword (it became `$id`): an unknown keyword is an annotation,
  // but ajv refuses this one by name ("NOT SUPPORTED"), so a schema that declares a later draft
  // and still writes `id` loses it here, as the spec reads it.
  const idIsUnknown = draft !== "draft-04";
  walkSchemas(schema, (node) => {
    delete node.$async;
    if (idIsUnknown && Object.hasOwn(node, "id")) delete node.id;
  });
  dropIdsNothingReads(schema);
  schema = avoidAjvIdTraps(schema);
  renameIdMembersOnPointers(schema);
  let id = SOURCE_ID;
  if (isPlainObject(schema)) {
    const own = typeof schema.$id === "string" ? schema.$id : undefined;
    if (own === undefined) schema.$id = SOURCE_ID;
    else id = own;
  }
  // Dynamic references with one possible target are plain ones (2019-09 and 2020-12 have them).
  if (draft === "2020-12" || draft === "2019-09") staticDynamicRefs(schema);
  return {
    ok: true,
    value: { schema: schema as Record<string, unknown> | boolean, draft, family: familyOf(draft), id },
  };
}

const DEFINITION_MAPS = ["$defs", "definitions"] as const;

const REFERENCES = ["$ref", "$dynamicRef", "$recursiveRef"] as const;

/**
 * Subschema `$id`s that name one URI twice, in a document that refers to
 * nothing. Generated schemas often repeat an `$id` ("name", "/properties/…")
 * on several subschemas; the spec calls the document ambiguous and ajv refuses
 * it, yet with no reference in the document no resolution reads an `$id`, so
 * dropping the repeated ones changes what the schema accepts in nothing.
 */
function dropIdsNothingReads(schema: unknown): void {
  const nodes: { node: Record<string, unknown>; uri: string }[] = [];
  let refers = false;
  const stack: { node: unknown; base: string; root: boolean }[] = [{ node: schema, base: SOURCE_ID, root: true }];
  while (stack.length > 0) {
    const { node, base: outer, root } = stack.pop()!;
    if (!isPlainObject(node)) continue;
    if (REFERENCES.some((k) => Object.hasOwn(node, k))) refers = true;
    let base = outer;
    if (typeof node.$id === "string") {
      const uri = resolvedUri(node.$id, outer);
      if (uri !== undefined) {
        base = uri;
        if (!root) nodes.push({ node, uri });
      }
    }
    for (const entry of subschemasOf(node)) stack.push({ node: entry.schema, base, root: false });
  }
  if (refers) return;
  const rootUri =
    isPlainObject(schema) && typeof schema.$id === "string" ? resolvedUri(schema.$id, SOURCE_ID) : SOURCE_ID;
  const count = new Map<string, number>();
  for (const { uri } of nodes) count.set(uri, (count.get(uri) ?? 0) + 1);
  for (const { node, uri } of nodes) if (uri === rootUri || (count.get(uri) ?? 0) > 1) delete node.$id;
}

function resolvedUri(id: string, base: string): string | undefined {
  try {
    const url = new URL(id, base);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * Two shapes ajv 8 cannot compile, rewritten into ones that mean the same:
 * - `$id` beside `$ref` in one subschema: ajv resolves the `$ref` against that
 *   very `$id` and recurses until the stack overflows. The `$ref` moves into an
 *   `allOf` of its own; it still resolves against the `$id` (2019-09 and later
 *   read it so, and so does the IR builder).
 * - a definition named `$id`: ajv takes the definitions map for a schema with an
 *   `$id` while following any pointer through it. The definition is renamed
 *   and every `$ref` pointer naming it follows.
 */
function avoidAjvIdTraps(schema: unknown): unknown {
  const maps: Record<string, unknown>[] = [];
  walkSchemas(schema, (node) => {
    if (typeof node.$ref === "string" && typeof node.$id === "string") {
      node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { $ref: node.$ref }];
      delete node.$ref;
    }
    for (const keyword of DEFINITION_MAPS) {
      const defs = node[keyword];
      if (isPlainObject(defs) && Object.hasOwn(defs, "$id")) maps.push(defs);
    }
  });
  if (maps.length === 0) return schema;
  let fresh = "$id_";
  while (maps.some((defs) => Object.hasOwn(defs, fresh))) fresh += "_";
  for (const defs of maps) {
    defs[fresh] = defs.$id;
    delete defs.$id;
  }
  walkSchemas(schema, (node) => {
    if (typeof node.$ref === "string") node.$ref = renamePointer(node.$ref, fresh);
  });
  return schema;
}

/**
 * A member named `$id` in an object that is no schema (an OpenAPI-style
 * `components.schemas` map, any unknown keyword's value) on the way of a
 * local `$ref`: ajv reads every object a pointer passes for an `$id`, takes
 * that member (a schema, not a string) for one and fails ("id.replace is not
 * a function"). Such a member is renamed, and the pointers through it follow.
 * Only these objects: a schema's own `$id` is an identifier, and a non-string
 * one stays for the meta-schema check to refuse.
 */
function renameIdMembersOnPointers(schema: unknown): void {
  const positions = new Set<unknown>();
  const referring: Record<string, unknown>[] = [];
  walkSchemas(schema, (node) => {
    positions.add(node);
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) referring.push(node);
  });
  const holders = new Set<Record<string, unknown>>();
  const holdsId = (at: unknown): at is Record<string, unknown> =>
    isPlainObject(at) && !positions.has(at) && Object.hasOwn(at, "$id") && typeof at.$id !== "string";
  for (const node of referring) {
    walkPointer(schema, node.$ref as string, (at) => {
      if (holdsId(at)) holders.add(at);
    });
  }
  if (holders.size === 0) return;
  let fresh = "$id_";
  while ([...holders].some((h) => Object.hasOwn(h, fresh))) fresh += "_";
  // Pointers first, read against the document as it still is.
  for (const node of referring) {
    const ref = node.$ref as string;
    const tokens: string[] = [];
    let renamed = false;
    walkPointer(
      schema,
      ref,
      (_, token) => tokens.push(token),
      (from, token) => {
        if (token !== "$id" || !holders.has(from as Record<string, unknown>)) return token;
        renamed = true;
        return fresh;
      },
    );
    // Only a pointer that passes a renamed member, and only when it was followed to its end.
    if (renamed && tokens.length === ref.slice(2).split("/").length) {
      node.$ref = `#/${tokens.map(pointerToken).join("/")}`;
    }
  }
  for (const holder of holders) {
    holder[fresh] = holder.$id;
    delete holder.$id;
  }
}

/**
 * Follows a local pointer (`#/a/b`) from the root, calling `visit` with each
 * object reached and the token that reached it (written through `rename`).
 * Stops where the pointer leaves the document.
 */
function walkPointer(
  root: unknown,
  ref: string,
  visit: (at: unknown, token: string) => void,
  rename: (from: unknown, token: string) => string = (_, token) => token,
): void {
  let at = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = unescapeToken(decodeURIComponent(raw));
    } catch {
      return;
    }
    const written = rename(at, token);
    if (Array.isArray(at)) at = /^\d+$/.test(token) ? at[Number(token)] : undefined;
    else if (isPlainObject(at) && Object.hasOwn(at, token)) at = at[token];
    else return;
    visit(at, written);
  }
}

/** `…#/$defs/$id/…` to `…#/$defs/<fresh>/…`. */
function renamePointer(ref: string, fresh: string): string {
  const hash = ref.indexOf("#");
  if (hash < 0 || ref[hash + 1] !== "/") return ref;
  const tokens = ref.slice(hash + 2).split("/");
  for (let i = 1; i < tokens.length; i++) {
    const keyword = tokens[i - 1];
    if ((keyword === "$defs" || keyword === "definitions") && (tokens[i] === "$id" || tokens[i] === "%24id"))
      tokens[i] = fresh;
  }
  return `${ref.slice(0, hash)}#/${tokens.join("/")}`;
}
