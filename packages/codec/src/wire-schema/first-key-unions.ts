/**
 * The unions whose object branches no order of members tells apart at the
 * first member (targets/first-key.ts): the same member names and no constant
 * among them that differs. On a target with the first-key rule they travel in
 * the union tag form, `{"branch": i, "value": ...}`, whose first member is a
 * constant that differs in every branch. A union is named by where its
 * branches stand in the source, which a second build of the same schema keeps.
 */
import { WIRE_WALK, wireOf } from "../constructs/compile/registry.js";
import { childrenOf } from "../constructs/registry.js";
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/author.js";
import type { Node, Plan, UnionNode } from "../ir/nodes.js";
import { canonicalJson, isPlainObject, type JsonObject } from "../json.js";
import { describeClash, orderFirstKeys, separable } from "../targets/first-key.js";
import { wireSchema } from "./assemble.js";

export function unionKey(node: UnionNode): string {
  return canonicalJson(node.branchSources);
}

/** Keys of the plan's unions, not already tagged, whose object branches cannot be told apart at the first member. */
export function inseparableUnions(plan: Plan, target: { readonly recursion: boolean }): Set<string> {
  const wire = wireSchema(plan, target);
  const defs = isPlainObject(wire.$defs) ? (wire.$defs as JsonObject) : {};
  const wctx = { defs: plan.defs, walk: WIRE_WALK, extraDefs: {}, target };
  const out = new Set<string>();
  const work: Node[] = [plan.root, ...Object.values(plan.defs)];
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    for (const child of childrenOf(node)) work.push(child.node);
    if (node.kind !== "union" || node.rule.by === "tag") continue;
    const own = wireOf(node, wctx);
    if (Array.isArray(own.anyOf) && !separable(own.anyOf, defs)) out.add(unionKey(node));
  }
  return out;
}

/** Rebuilds tried at most: each tags the unions the last one left inseparable (nesting can reveal more). */
const MAX_REBUILDS = 4;

export interface Fitted {
  readonly plan: Plan;
  readonly wire: JsonObject;
}

/**
 * The plan and wire with every `anyOf` told apart at the first member: members
 * reordered where that suffices, inseparable unions rebuilt in the tag form
 * otherwise. What is still left (a definition two unions need in different
 * orders) is a `target-limit` refusal naming the rule.
 */
export function fitFirstKeys(
  tool: string,
  target: { readonly recursion: boolean },
  start: Fitted,
  rebuild: (tagged: ReadonlySet<string>) => Result<Fitted>,
): Result<Fitted> {
  const tagged = new Set<string>();
  let current = start;
  for (let round = 0; ; round++) {
    const ordered = orderFirstKeys(current.wire);
    const clash = ordered.clashes[0];
    if (clash === undefined) return ok({ plan: current.plan, wire: ordered.wire });
    const more = [...inseparableUnions(current.plan, target)].filter((k) => !tagged.has(k));
    if (more.length === 0 || round >= MAX_REBUILDS)
      return fail("target-limit", clash.path, `firstKey: ${describeClash(clash, tool)}`);
    for (const k of more) tagged.add(k);
    const again = rebuild(tagged);
    if (!again.ok) return again;
    current = again.value;
  }
}
