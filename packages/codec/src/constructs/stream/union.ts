/**
 * A union's partial: its branch's, once the wire names the branch; under a
 * `same` union (and a JSON type several branches of a `type` union take), an
 * object or array through the first branch what is written so far fits (the
 * construct and its rules are ../union.ts).
 */

import type { Defs } from "../../ir/children.js";
import type { Node, UnionNode } from "../../ir/nodes.js";
import { canonicalJson, isPlainObject, jsonTypeOf } from "../../json.js";
import { ABSENT } from "../context.js";
import { constantsOf, decoderBranch, resolveObject } from "../union.js";
import type { ConstructStreamer } from "./construct.js";
import type { PartialContext, PartialMemo } from "./context.js";

/**
 * The branch's partial once the wire names it: a branch of its JSON type
 * (same: every branch decodes as the identity; objects: the branch the
 * members written so far fit, below), the JSON type, the discriminator once
 * its value is complete, the tag's branch number (numbers appear complete)
 * once its value has started.
 */
function partialUnion(node: UnionNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  const rule = node.rule;
  // Under a type rule, a JSON type several branches take is one every such branch decodes as itself (decode reads
  // it through the first): shown as under `same`, through the branch what is written fits.
  if (rule.by === "same" || (rule.by === "type" && sharedTypes(node, ctx).has(jsonTypeOf(wire)!))) {
    if (isPlainObject(wire)) return partialSameObject(node, wire, ctx, memo);
    if (Array.isArray(wire)) return partialSameArray(node, wire, ctx, memo);
    // Any branch of its JSON type decodes a scalar alike (as written); shown through one, so every change is seen.
    const t = jsonTypeOf(wire);
    const branch = node.branches.find((b) => t !== undefined && ctx.walk.wireTypes(b, ctx.defs, new Set()).includes(t));
    return branch === undefined ? ABSENT : ctx.child(branch, wire);
  }
  if (rule.by === "discriminator") {
    if (!isPlainObject(wire) || !Object.hasOwn(wire, rule.field)) return ABSENT;
    if (!ctx.complete(wire[rule.field], wire, rule.field)) return ABSENT;
  }
  const i = decoderBranch(node, wire);
  if (i < 0) return ABSENT;
  if (rule.by !== "tag") return ctx.child(node.branches[i]!, wire);
  const tagged = wire as Record<string, unknown>;
  return Object.hasOwn(tagged, "value") ? ctx.child(node.branches[i]!, tagged.value, tagged, "value") : ABSENT;
}

/** The JSON types more than one branch of a union takes on the wire (read once per union). */
const shared = new WeakMap<UnionNode, ReadonlySet<string>>();
function sharedTypes(node: UnionNode, ctx: PartialContext): ReadonlySet<string> {
  let found = shared.get(node);
  if (found === undefined) {
    const counts = new Map<string, number>();
    for (const b of node.branches) {
      for (const t of new Set(ctx.walk.wireTypes(b, ctx.defs, new Set()))) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    found = new Set([...counts].filter(([, n]) => n > 1).map(([t]) => t));
    shared.set(node, found);
  }
  return found;
}

/**
 * An object under a `same` union: every branch decodes it as the identity,
 * but each shows only the members it declares, so it is shown through the
 * first object branch the members written so far fit. A branch is ruled out
 * for good by a member name it does not declare (a closed object), a member
 * of a JSON type its member does not take, a complete member whose constant
 * it does not allow, or a complete container member it would show otherwise
 * than as written (decode's value is the wire itself). A member is judged
 * at each push until it is complete, then no more: the memo keeps the
 * branches ruled out (`settled`, by branch) and the complete members judged
 * (`keys`). With every branch ruled out (a text decode will refuse), the
 * first object branch shows it.
 */
function partialSameObject(
  node: UnionNode,
  wire: Record<string, unknown>,
  ctx: PartialContext,
  memo: PartialMemo,
): unknown {
  const branches = node.branches;
  memo.settled ??= branches.map((b) => !ctx.walk.wireTypes(b, ctx.defs, new Set()).includes("object"));
  memo.keys ??= new Set();
  const ruledOut = memo.settled;
  const judged = memo.keys;
  const objects = branches.map((b) => resolveObject(b, ctx.defs));
  for (const name in wire) {
    if (judged.has(name)) continue;
    const member = wire[name];
    const complete = ctx.complete(member, wire, name);
    for (let i = 0; i < branches.length; i++) {
      if (ruledOut[i]) continue;
      const object = objects[i];
      if (object === undefined) continue; // not read here: fits anything
      const field = object.fields.find((f) => f.name === name);
      if (field === undefined || !memberFits(field.node, member, complete, ctx)) ruledOut[i] = true;
    }
    if (complete) judged.add(name);
  }
  let chosen = ruledOut.indexOf(false);
  if (chosen < 0) chosen = branches.findIndex((b) => ctx.walk.wireTypes(b, ctx.defs, new Set()).includes("object"));
  return chosen < 0 ? ABSENT : ctx.child(branches[chosen]!, wire);
}

/**
 * An array under a `same` union: shown through the first array branch the
 * elements written so far fit (an array of objects shows an element that is
 * an array as nothing), judged as `partialSameObject` judges members. Elements
 * end in order, so the memo keeps the branches ruled out (`settled`) and how
 * many leading elements are complete and judged (`read`).
 */
function partialSameArray(node: UnionNode, wire: unknown[], ctx: PartialContext, memo: PartialMemo): unknown {
  const branches = node.branches;
  memo.settled ??= branches.map((b) => !ctx.walk.wireTypes(b, ctx.defs, new Set()).includes("array"));
  const ruledOut = memo.settled;
  for (let k = memo.read; k < wire.length; k++) {
    const element = wire[k];
    const complete = ctx.complete(element, wire, k);
    for (let i = 0; i < branches.length; i++) {
      if (ruledOut[i]) continue;
      const item = elementNode(branches[i]!, k, ctx.defs);
      if (item === false || (item !== undefined && !memberFits(item, element, complete, ctx))) ruledOut[i] = true;
    }
    if (!complete) break;
    memo.read = k + 1;
  }
  let chosen = ruledOut.indexOf(false);
  if (chosen < 0) chosen = branches.findIndex((b) => ctx.walk.wireTypes(b, ctx.defs, new Set()).includes("array"));
  return chosen < 0 ? ABSENT : ctx.child(branches[chosen]!, wire);
}

/** The node of an array branch's element at `index`: undefined when not read here (fits anything), false when none may be there. */
function elementNode(branch: Node, index: number, defs: Defs): Node | undefined | false {
  let n: Node | undefined = branch;
  for (let hops = 0; n !== undefined && n.kind === "ref" && hops < 16; hops++) n = defs[n.def];
  if (n?.kind === "array") return n.items;
  if (n?.kind !== "tuple" || n.form !== "array") return undefined;
  return n.positions[index]?.node ?? n.rest ?? false;
}

/**
 * Whether a wire member may be a branch's member: its JSON type one the
 * member's wire takes (known from its first character); once complete, its
 * constant allowed and a container shown as written.
 */
function memberFits(node: Node, member: unknown, complete: boolean, ctx: PartialContext): boolean {
  const t = jsonTypeOf(member);
  if (t === undefined || !ctx.walk.wireTypes(node, ctx.defs, new Set()).includes(t)) return false;
  if (!complete) return true;
  const constants = constantsOf(node, ctx.defs);
  if (constants !== undefined) return constants.includes(canonicalJson(member));
  if (typeof member !== "object" || member === null) return true;
  const shown = ctx.aside(node, member);
  return shown !== ABSENT && canonicalJson(shown) === canonicalJson(member);
}

export const unionStreamer: ConstructStreamer<UnionNode> = {
  kind: "union",
  partial: partialUnion,
};
