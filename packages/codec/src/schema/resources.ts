/**
 * Local reference resolution. Only references that resolve inside the schema
 * document are followed: strictwire never loads a file or a URL.
 */
import { pointerJoin, type Refused } from "../errors.js";
import { cloneJson, isPlainObject, pointerTokens } from "../json.js";
import { DATA_KEYWORDS } from "./keywords.js";

/** Base URI for a document without $id. Never fetched; it only anchors resolution. */
const DEFAULT_BASE = "https://strictwire.invalid/schema.json";

/** Where a reference landed: the schema and its JSON Pointer from the document root. */
export interface Target {
  readonly schema: unknown;
  readonly pointer: string;
}

export type Resolution = { readonly ok: true; readonly target: Target } | Refused<"remote" | "unresolved">;

/** Index of embedded resources ($id) and anchors, built once per document. */
export class Resources {
  /** absolute resource URI (no fragment) -> pointer of the resource root */
  private readonly roots = new Map<string, string>();
  /** absolute URI with anchor fragment -> pointer */
  private readonly anchors = new Map<string, string>();
  /** pointer -> base URI in effect at that schema */
  private readonly bases = new Map<string, string>();

  /** draft-04's `id` is already `$id` here: prepareSource rewrote it. */
  constructor(private readonly document: unknown) {
    this.index();
  }

  baseAt(pointer: string): string {
    return this.bases.get(pointer) ?? DEFAULT_BASE;
  }

  /** Resolve a $ref value found at `pointer`. */
  resolve(ref: string, pointer: string): Resolution {
    let absolute: URL;
    try {
      absolute = new URL(ref, this.baseAt(pointer));
    } catch {
      return { ok: false, reason: "unresolved" };
    }
    const fragment = decodeURIComponent(absolute.hash.slice(1));
    absolute.hash = "";
    const resource = this.roots.get(absolute.href);
    if (resource === undefined) return { ok: false, reason: "remote" };
    if (fragment === "" || fragment.startsWith("/")) {
      const target = this.at(resource + fragment);
      return target === undefined ? { ok: false, reason: "unresolved" } : { ok: true, target };
    }
    const anchored = this.anchors.get(`${absolute.href}#${fragment}`);
    if (anchored === undefined) return { ok: false, reason: "unresolved" };
    return { ok: true, target: { schema: this.at(anchored)?.schema, pointer: anchored } };
  }

  /** The schema at a pointer from the document root. */
  at(pointer: string): Target | undefined {
    let node: unknown = this.document;
    for (const token of pointerTokens(pointer)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isPlainObject(node) && Object.hasOwn(node, token)) node = node[token];
      else return undefined;
    }
    return node === undefined ? undefined : { schema: node, pointer };
  }

  private index(): void {
    // Iterative walk: a hostile schema may be very deep.
    const stack: { node: unknown; pointer: string; base: string }[] = [
      { node: this.document, pointer: "", base: DEFAULT_BASE },
    ];
    this.roots.set(DEFAULT_BASE, "");
    while (stack.length > 0) {
      const { node, pointer, base: parentBase } = stack.pop()!;
      if (Array.isArray(node)) {
        node.forEach((child, i) => {
          stack.push({ node: child, pointer: pointerJoin(pointer, i), base: parentBase });
        });
        continue;
      }
      if (!isPlainObject(node)) continue;
      let base = parentBase;
      const id = node.$id;
      if (typeof id === "string" && !(pointer.endsWith("/properties") || pointer.includes("/enum"))) {
        base = this.registerId(id, parentBase, pointer);
      }
      const anchor = node.$anchor;
      if (typeof anchor === "string") this.anchors.set(`${stripHash(base)}#${anchor}`, pointer);
      this.bases.set(pointer, base);
      for (const key of Object.keys(node)) {
        // Values of enum, const, default, examples are data: an $id there names nothing.
        if (DATA_KEYWORDS.has(key)) continue;
        stack.push({ node: node[key], pointer: pointerJoin(pointer, key), base });
      }
    }
  }

  private registerId(id: string, parentBase: string, pointer: string): string {
    try {
      const url = new URL(id, parentBase);
      if (url.hash.length > 1 && !url.hash.startsWith("#/")) {
        // draft-07 style plain-name fragment in $id acts as an anchor.
        const anchorName = url.hash.slice(1);
        url.hash = "";
        this.anchors.set(`${url.href}#${anchorName}`, pointer);
        return parentBase;
      }
      url.hash = "";
      if (!this.roots.has(url.href)) this.roots.set(url.href, pointer);
      return url.href;
    } catch {
      return parentBase;
    }
  }
}

function stripHash(uri: string): string {
  const i = uri.indexOf("#");
  return i < 0 ? uri : uri.slice(0, i);
}

/** Documents a schema may refer to, keyed by URI (a map or record), or carrying their own `$id` (a list). */
export type SchemaResources = ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>> | readonly unknown[];

export type Embedded = { readonly ok: true; readonly schema: unknown } | Refused;

/**
 * The source with the resources it refers to (directly or through one another)
 * embedded under `$defs`, each with its absolute URI as `$id`: one compound
 * document that carries everything, so the bundle needs nothing else and
 * nothing is ever fetched. A document's own `$id` names it; a key that differs
 * reaches it through an alias (a whole-document reference only); relative
 * keys and `$id`s resolve against the root's base. An embedded document's
 * `$schema` is dropped: the compound document is read in the root's draft.
 */
export function embedResources(root: unknown, resources: SchemaResources): Embedded {
  if (!isPlainObject(root)) return { ok: true, schema: root };
  const rootBase = typeof root.$id === "string" ? safeUrl(root.$id, DEFAULT_BASE) : DEFAULT_BASE;
  if (rootBase === undefined) return { ok: false, reason: `the schema's $id ${JSON.stringify(root.$id)} is not a URI` };
  const entries: [string | undefined, unknown][] = Array.isArray(resources)
    ? resources.map((doc) => [undefined, doc])
    : resources instanceof Map
      ? [...resources.entries()]
      : Object.entries(resources);
  const available = new Map<string, Record<string, unknown>>();
  for (const [key, doc] of entries) {
    const resource = asResource(key, doc, rootBase);
    if (!resource.ok) return resource;
    available.set(resource.uri, resource.schema);
    // Keyed by one URI, named by another: the key still reaches it, through an alias.
    if (resource.key !== undefined && resource.key !== resource.uri)
      available.set(resource.key, { $id: resource.key, $ref: resource.uri });
  }
  const compound = cloneJson(root) as Record<string, unknown>;
  if (compound.$defs !== undefined && !isPlainObject(compound.$defs))
    return { ok: false, reason: "the schema's $defs is not an object, so resources cannot be embedded beside it" };
  const defs: Record<string, unknown> = isPlainObject(compound.$defs) ? compound.$defs : {};
  let embedded = 0;
  for (;;) {
    const wanted = remoteTargets(compound).filter((uri) => available.has(uri));
    if (wanted.length === 0) break;
    for (const uri of wanted) {
      let name = `strictwire_resource_${embedded++}`;
      while (Object.hasOwn(defs, name)) name = `strictwire_resource_${embedded++}`;
      defs[name] = available.get(uri);
      available.delete(uri);
    }
    compound.$defs = defs;
  }
  return { ok: true, schema: compound };
}

function asResource(
  key: string | undefined,
  doc: unknown,
  rootBase: string,
): { ok: true; uri: string; key?: string; schema: Record<string, unknown> } | Refused {
  const what = key === undefined ? "a resource" : `resource ${JSON.stringify(key)}`;
  if (typeof doc !== "boolean" && !isPlainObject(doc)) return { ok: false, reason: `${what} is not a schema` };
  const schema: Record<string, unknown> =
    typeof doc === "boolean" ? (doc ? {} : { not: {} }) : (cloneJson(doc) as Record<string, unknown>);
  // draft-04 names it `id`.
  const own = typeof schema.$id === "string" ? schema.$id : typeof schema.id === "string" ? schema.id : undefined;
  const keyBase = key === undefined ? rootBase : safeUrl(key, rootBase);
  if (keyBase === undefined) return { ok: false, reason: `${what} is not keyed by a URI` };
  if (own === undefined && key === undefined) return { ok: false, reason: "a resource in a list needs an $id" };
  const uri = own === undefined ? keyBase : safeUrl(own, keyBase);
  if (uri === undefined) return { ok: false, reason: `${what} has an $id that is not a URI` };
  if (typeof schema.id === "string") delete schema.id;
  delete schema.$schema;
  schema.$id = uri;
  return { ok: true, uri, ...(key === undefined ? {} : { key: keyBase }), schema };
}

/** Absolute URI without its fragment, or undefined when it is not a URI. */
function safeUrl(ref: string, base: string): string | undefined {
  try {
    const url = new URL(ref, base);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

/** The documents (absolute URIs, no fragment) this compound document's references reach outside itself. */
function remoteTargets(document: unknown): string[] {
  const resources = new Resources(document);
  const out = new Set<string>();
  const stack: { node: unknown; pointer: string }[] = [{ node: document, pointer: "" }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        stack.push({ node: child, pointer: pointerJoin(pointer, i) });
      });
      continue;
    }
    if (!isPlainObject(node)) continue;
    if (typeof node.$ref === "string" && !resources.resolve(node.$ref, pointer).ok) {
      const uri = safeUrl(node.$ref, resources.baseAt(pointer));
      if (uri !== undefined) out.add(uri);
    }
    for (const key of Object.keys(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      stack.push({ node: node[key], pointer: pointerJoin(pointer, key) });
    }
  }
  return [...out];
}
