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

import { wireTypesOf } from "../constructs/dispatch.js";
import { chooseRule } from "../constructs/union.js";
import type { Field, Node, Plan, Presence, UnionRule } from "./nodes.js";
import { Refusal } from "./refusal.js";

/** Nested definitions followed at most while settling: a longer chain is a schema bomb. */
const MAX_CHAIN = 1000;
/** Hops through definitions that are nothing but a reference to another. */
const MAX_ALIAS_HOPS = 64;

export interface FinalizeOptions {
  readonly presence: Presence;
  readonly target: {
    readonly presence: Presence;
    readonly toolSet: { readonly maxOptionalParameters?: number };
  };
}

export function finalizePlan(plan: Plan, options: FinalizeOptions): Plan {
  const state = new Map<string, "visiting" | "done">();
  const defs = plan.defs;
  checkAliases(defs);
  let depth = 0;
  let nativeLeft =
    options.target.presence === "native"
      ? (options.target.toolSet.maxOptionalParameters ?? Number.POSITIVE_INFINITY)
      : 0;

  const visit = (node: Node): void => {
    switch (node.kind) {
      case "array":
        visit(node.items);
        return;
      case "object":
        settleFields(node.fields);
        return;
      case "mixed":
        settleFields(node.fields);
        visit(node.value);
        return;
      case "map":
        visit(node.value);
        return;
      case "union":
        for (const b of node.branches) visit(b);
        (node as { rule: UnionRule }).rule = chooseRule(node.branches, defs, unsettled());
        return;
      case "ref": {
        if (state.has(node.def)) return;
        const def = defs[node.def];
        if (def === undefined) return;
        state.set(node.def, "visiting");
        if (++depth > MAX_CHAIN) {
          throw new Refusal("expansion-limit", "", `references nest more than ${MAX_CHAIN} definitions deep`);
        }
        visit(def);
        depth--;
        state.set(node.def, "done");
        return;
      }
      default:
        return;
    }
  };

  const unsettled = (): Set<string> => {
    const out = new Set<string>();
    for (const [name, s] of state) if (s === "visiting") out.add(name);
    return out;
  };

  const settleFields = (fields: readonly Field[]): void => {
    for (const f of fields) {
      // Taken before the member's own members: document order.
      const native = f.optional && nativeLeft > 0;
      if (native) nativeLeft--;
      visit(f.node);
      if (f.optional) (f as { presence?: Presence }).presence = native ? "native" : presenceFor(f.node);
    }
  };

  const presenceFor = (child: Node): Presence => {
    if (options.presence !== "compact") return "tagged";
    // null already means something for this member, so it cannot also mean "absent".
    return wireTypesOf(child, defs, unsettled()).includes("null") ? "tagged" : "compact";
  };

  visit(plan.root);
  for (const name of Object.keys(defs)) visit({ kind: "ref", def: name });
  return plan;
}

/** A definition that only points at another must reach structure: a pure cycle has no wire form. */
function checkAliases(defs: Readonly<Record<string, Node>>): void {
  for (const name of Object.keys(defs)) {
    let node: Node | undefined = defs[name];
    for (let hops = 0; node?.kind === "ref"; hops++) {
      if (hops > MAX_ALIAS_HOPS) {
        throw new Refusal(
          "unsupported-schema",
          "",
          `definition ${name} is a chain of references with no schema behind it`,
        );
      }
      node = defs[node.def];
    }
  }
}
