/**
 * Decisions that need the whole graph: which rule each union decodes by, and
 * how each optional member travels (compact presence needs to know whether
 * the member can itself be null). Definitions are settled before the unions
 * that use them; inside a cycle the answer is the conservative one.
 *
 * Where the target takes optional members natively, at most its per-request
 * cap of them travel natively, the first in document order (depth first, a
 * definition where it is first used); the rest travel as `presence` says.
 */

import type { AbsenceSpelling, TagSpelling } from "../bundle/bundle.js";
import type { Child, NodeKinds } from "./children.js";
import { fitDepth } from "./depth.js";
import { canInline } from "./inline.js";
import type { Node, Plan, Presence, UnionNode } from "./nodes.js";
import { SchemaRefusal } from "./schema-refusal.js";

/** Nested definitions followed at most while settling: a longer chain is a schema bomb. */
const MAX_CHAIN = 1000;

export interface FinalizeOptions {
  /** The `presence` option: how absence is spelled where the target has no native optional members. */
  readonly presence: AbsenceSpelling;
  /** How presence tags are spelled (see constructs/presence.ts). */
  readonly tags?: TagSpelling;
  readonly target: {
    readonly presence: Presence;
    readonly toolSet: { readonly maxOptionalParameters?: number };
    readonly limits?: { readonly maxNesting?: number };
  };
  /** What the walk needs of each node kind (the constructs registry). */
  readonly kinds: NodeKinds;
  /** Unions to write in the tag form whatever rule would do (the first-key rule, wire-schema/first-key-unions.ts). */
  readonly tagUnions?: (node: UnionNode) => boolean;
}

/** The plan with every decision made: a new plan, the one given is left as it was. */
export function finalizePlan(plan: Plan, options: FinalizeOptions): Plan {
  const { kinds } = options;
  const state = new Map<string, "visiting" | "done">();
  // Definitions as settled so far: the decisions below read the settled form where there is one.
  const defs: Record<string, Node> = { ...plan.defs };
  checkAliases(defs);
  let depth = 0;
  let nativeLeft =
    options.target.presence === "native"
      ? (options.target.toolSet.maxOptionalParameters ?? Number.POSITIVE_INFINITY)
      : 0;

  const visit = (node: Node): Node => {
    if (node.kind === "ref") {
      settleDef(node.def);
      return node;
    }
    const settled = kinds.settle(kinds.mapChildren(node, settleChild), defs, unsettled());
    // Settled before the unions around it, which then see its tag form.
    return settled.kind === "union" && options.tagUnions?.(settled) === true
      ? { ...settled, rule: { by: "tag" } }
      : settled;
  };

  const settleDef = (name: string): void => {
    if (state.has(name)) return;
    const def = defs[name];
    if (def === undefined) return;
    state.set(name, "visiting");
    if (++depth > MAX_CHAIN) {
      throw new SchemaRefusal("expansion-limit", "", `references nest more than ${MAX_CHAIN} definitions deep`);
    }
    defs[name] = visit(def);
    depth--;
    state.set(name, "done");
  };

  const unsettled = (): Set<string> => {
    const out = new Set<string>();
    for (const [name, s] of state) if (s === "visiting") out.add(name);
    return out;
  };

  const settleChild = (child: Child): Child => {
    const field = child.field;
    if (field === undefined) return { ...child, node: visit(child.node) };
    // Taken before the member's own members: document order.
    const native = field.optional && nativeLeft > 0;
    if (native) nativeLeft--;
    const node = visit(child.node);
    if (!field.optional) return { ...child, node };
    const presence = native ? "native" : presenceFor(node);
    const tagged = presence === "tagged" || presence === "inline";
    return { ...child, node, field: { ...field, presence, ...(tagged && minimal ? { tags: "minimal" } : {}) } };
  };

  const minimal = options.tags === "minimal";
  const presenceFor = (child: Node): Presence => {
    // null already means something for this member, so it cannot also mean "absent".
    if (options.presence === "compact" && !kinds.wireTypes(child, defs, unsettled()).includes("null")) return "compact";
    // Inline presence is an object's own form (ir/inline.ts): any other kind, a new one too, is tagged.
    return child.kind === "object" && canInline(child.fields, minimal) ? "inline" : "tagged";
  };

  const root = visit(plan.root);
  for (const name of Object.keys(plan.defs)) settleDef(name);
  // Providers take only an object at the top: an object root is the wire value itself, anything else is wrapped.
  const envelope = kinds.bare(root) ? "bare" : "arguments";
  return fitDepth({ ...plan, root, envelope, defs }, options.target.limits?.maxNesting, kinds);
}

/**
 * A definition that only points at another must reach structure: a pure cycle
 * has no wire form. Linear in the number of definitions, whatever the chains'
 * lengths: each definition is walked once, and a chain stops at one known to reach structure.
 */
function checkAliases(defs: Readonly<Record<string, Node>>): void {
  const reaches = new Set<string>();
  for (const start of Object.keys(defs)) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let name: string | undefined = start;
    while (name !== undefined && !reaches.has(name)) {
      if (onPath.has(name)) {
        const cycle = [...path.slice(path.indexOf(name)), name].join(" -> ");
        throw new SchemaRefusal(
          "unsupported-schema",
          "",
          `definitions ${cycle} only refer to one another, with no schema behind them`,
        );
      }
      path.push(name);
      onPath.add(name);
      const node: Node | undefined = defs[name];
      name = node?.kind === "ref" ? node.def : undefined;
    }
    for (const walked of path) reaches.add(walked);
  }
}
