/**
 * What the walks over the IR need to know of every node kind, and no more:
 * its children, and the decisions only the wire can make (wire types, a
 * union's rule). The constructs registry provides it; the IR stages take it
 * as a parameter, so this layer does not depend on the constructs above it.
 * References are the IR's own edges (a definition by name): walks follow them here.
 */
import type { JsonType } from "../json.js";
import type { Field, Node } from "./nodes.js";

export type Defs = Readonly<Record<string, Node>>;

/** A direct sub-node; a member of an object carries its field. `at` names its place for people. */
export interface Child {
  readonly node: Node;
  readonly at: string;
  readonly field?: Field;
}

export interface NodeKinds {
  children(node: Node): readonly Child[];
  /** The same node with each child replaced by `f` of it; the result is a new node. */
  mapChildren(node: Node, f: (child: Child) => Child): Node;
  wireTypes(node: Node, defs: Defs, seen: Set<string>): readonly JsonType[];
  /** Object levels the node's wire form puts around its children. */
  levels(node: Node): number;
  /** Whether its wire form is an object the provider takes at the top (the root then travels bare). */
  bare(node: Node): boolean;
  /** The node once its children are settled (a union's rule). */
  settle(node: Node, defs: Defs, unsettled: ReadonlySet<string>): Node;
}

/** Definitions a node refers to directly (not through other definitions). */
export function refsOf(kinds: NodeKinds, node: Node, out: Set<string> = new Set()): Set<string> {
  const work: Node[] = [node];
  while (work.length > 0) {
    const n = work.pop()!;
    if (n.kind === "ref") out.add(n.def);
    else for (const c of kinds.children(n)) work.push(c.node);
  }
  return out;
}

/** A member's child list entry. */
export function fieldChild(field: Field): Child {
  return { node: field.node, at: field.name, field };
}

/** The field a member child stands for after `f`: its node replaced. */
export function mapField(field: Field, f: (child: Child) => Child): Field {
  const out = f(fieldChild(field));
  const base = out.field ?? field;
  return base.node === out.node ? base : { ...base, node: out.node };
}
