/**
 * Local reference resolution. Only references that resolve inside the schema
 * document are followed: strictwire never loads a file or a URL.
 */
import { pointerJoin } from "../errors.js";
import { isPlainObject, pointerTokens } from "../json.js";
import { DATA_KEYWORDS } from "./keywords.js";

/** Base URI for a document without $id. Never fetched; it only anchors resolution. */
const DEFAULT_BASE = "https://strictwire.invalid/schema.json";

/** Where a reference landed: the schema and its JSON Pointer from the document root. */
export interface Target {
  readonly schema: unknown;
  readonly pointer: string;
}

export type Resolution =
  | { readonly ok: true; readonly target: Target }
  | { readonly ok: false; readonly reason: "remote" | "unresolved" };

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
