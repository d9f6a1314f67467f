/**
 * Dynamic references that have only one place to go, rewritten as the plain
 * references they are.
 *
 * A `$dynamicRef` first resolves like `$ref`; only when it lands on a
 * `$dynamicAnchor` of the same name does the dynamic scope decide, taking the
 * outermost resource that declares that anchor. When one schema in the whole
 * document (resources embedded) declares it, every scope that decides finds
 * that one schema: the reference is static. The same holds for
 * `$recursiveRef` (2019-09) when at most one schema says
 * `"$recursiveAnchor": true`. Such references become `$ref`s; any other stays
 * and is refused as before (`dynamic-ref`).
 */
import { pointerJoin } from "../errors.js";
import { isPlainObject } from "../json.js";
import { subschemasOf } from "./keywords.js";

/** The base the prepared source is read under, when it has no `$id` of its own yet. */
const DEFAULT_BASE = "https://strictwire.invalid/schema.json";

interface Visited {
  readonly node: Record<string, unknown>;
  readonly base: string;
  /** JSON Pointer from the enclosing resource's root. */
  readonly inResource: string;
}

export function staticDynamicRefs(root: unknown): void {
  if (!isPlainObject(root)) return;
  const visited = visit(root);
  const anchors = new Map<string, Visited[]>();
  let recursiveAnchors = 0;
  for (const v of visited) {
    const name = v.node.$dynamicAnchor;
    if (typeof name === "string") anchors.set(name, [...(anchors.get(name) ?? []), v]);
    if (v.node.$recursiveAnchor === true) recursiveAnchors++;
  }
  for (const v of visited) {
    const node = v.node;
    if (typeof node.$dynamicRef === "string") {
      const ref = staticTarget(node.$dynamicRef, v.base, anchors);
      if (ref !== undefined) replaceWithRef(node, "$dynamicRef", ref);
    }
    if (typeof node.$recursiveRef === "string" && recursiveAnchors <= 1) {
      replaceWithRef(node, "$recursiveRef", node.$recursiveRef);
    }
  }
}

/** The plain reference a dynamic one amounts to, or undefined when the dynamic scope could choose. */
function staticTarget(value: string, base: string, anchors: ReadonlyMap<string, Visited[]>): string | undefined {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  const name = decodeURIComponent(url.hash.slice(1));
  // A pointer fragment never lands on an anchor by name: it is a plain reference.
  if (name === "" || name.startsWith("/")) return value;
  const declared = anchors.get(name) ?? [];
  url.hash = "";
  const landing = declared.find((d) => d.base === url.href);
  // Not landing on a dynamic anchor: a plain reference to whatever `#name` names there.
  if (landing === undefined) return declared.length === 0 ? value : undefined;
  if (declared.length !== 1) return undefined;
  // By pointer: validators need not read `$dynamicAnchor` as a plain anchor.
  const pointer = landing.inResource
    .split("/")
    .map((token) => encodeURIComponent(token))
    .join("/");
  return `${landing.base}#${pointer}`;
}

function replaceWithRef(node: Record<string, unknown>, keyword: string, ref: string): void {
  delete node[keyword];
  if (node.$ref === undefined) node.$ref = ref;
  else node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { $ref: ref }];
}

/** Every schema with the base URI in effect and its pointer within its resource. */
function visit(root: Record<string, unknown>): Visited[] {
  const out: Visited[] = [];
  const stack: { node: Record<string, unknown>; base: string; inResource: string }[] = [
    { node: root, base: DEFAULT_BASE, inResource: "" },
  ];
  while (stack.length > 0) {
    const { node, base: outer, inResource: outerPointer } = stack.pop()!;
    let base = outer;
    let inResource = outerPointer;
    // A bare-fragment `$id` (draft-07's anchors) names no resource.
    if (typeof node.$id === "string" && !node.$id.startsWith("#")) {
      try {
        const url = new URL(node.$id, outer);
        url.hash = "";
        base = url.href;
        inResource = "";
      } catch {}
    }
    out.push({ node, base, inResource });
    for (const entry of subschemasOf(node)) {
      if (!isPlainObject(entry.schema)) continue;
      const pointer = entry.tokens.reduce<string>((p, t) => pointerJoin(p, t), inResource);
      stack.push({ node: entry.schema, base, inResource: pointer });
    }
  }
  return out;
}
