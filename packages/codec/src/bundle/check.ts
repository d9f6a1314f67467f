/**
 * Structural check of a bundle read from disk: every member the decoder will
 * touch has the type it expects, so a damaged plan is refused at load time
 * instead of failing in the middle of a tool call. Each node kind has its
 * shape (ir/nodes.ts, `NODE_SHAPES`), which checks its own members; this file
 * walks the plan and checks what is not a node.
 *
 * A generated module's bundle takes a cheaper check (`checkModuleBundleShape`,
 * the reason is there), and a bundle of such modules alone carries neither the
 * walk nor the shapes.
 */

import { constructOfKind } from "../constructs/registry.js";
import { INPUT_DIALECTS } from "../dialects.js";
import { firstLoop } from "../graph.js";
import { NODE_SHAPES, type Node } from "../ir/nodes.js";
import { type Check, type CheckContext, OK } from "../ir/shape.js";
import { isPlainObject } from "../json.js";
import { MAX_DEPTH_LIMIT } from "../parse/parser.js";
import { TARGET_NAMES } from "../targets/profile.js";
import { ABSENCE_SPELLINGS, TAG_SPELLING_OPTIONS } from "./bundle.js";

const bad = (path: string, reason: string): Check => ({ ok: false, path, reason });

/** A JSON bundle's check: its members, then every node of its plan. */
export function checkBundleShape(b: unknown): Check {
  const members = checkMembers(b);
  return members.ok ? checkPlan((b as Readonly<Record<string, unknown>>).plan) : members;
}

/**
 * A generated module's bundle: its members and its plan's frame (its own
 * members, the envelope, the kind of its root and of each definition), not
 * each node's members nor the loops through references. A module is code,
 * trusted as the code it is (its digest is not recomputed either, read.ts):
 * its plan is the one compile built, written beside a decoder generated from
 * that very plan and validators compiled from its wire, which run unchecked;
 * a hand that could damage the plan could as well damage them, and the check
 * would stop none of it. What stays is what costs nothing to carry: the
 * members a load reads first, and a plan that names no node kind this
 * version knows (one from another version, or not a plan) refused with the
 * JSON loaders' words. A JSON bundle is data from disk or the network, read by
 * loadBundle and loadJsonBundle, and keeps every check.
 */
export function checkModuleBundleShape(b: unknown): Check {
  const members = checkMembers(b);
  return members.ok ? checkModulePlan((b as Readonly<Record<string, unknown>>).plan) : members;
}

/** What is not the plan: name, digest, wire, options, limits. */
function checkMembers(b: unknown): Check {
  if (!isPlainObject(b)) return bad("", "a bundle is a JSON object");
  if (typeof b.name !== "string" || b.name.length === 0) return bad("/name", "expected a non-empty string");
  if (b.description !== undefined && typeof b.description !== "string") return bad("/description", "expected a string");
  if (typeof b.digest !== "string") return bad("/digest", "expected a string");
  if (!isPlainObject(b.wire)) return bad("/wire", "expected an object");
  if (b.source === undefined) return bad("/source", "missing");
  const o = b.options;
  if (!isPlainObject(o)) return bad("/options", "expected an object");
  if (!TARGET_NAMES.includes(o.target as never)) return bad("/options/target", "unknown target");
  if (!ABSENCE_SPELLINGS.includes(o.presence as never)) return bad("/options/presence", "expected tagged or compact");
  if (!TAG_SPELLING_OPTIONS.includes(o.tags as never)) return bad("/options/tags", "expected state or minimal");
  if (o.openObjects !== "close" && o.openObjects !== "preserve")
    return bad("/options/openObjects", "expected close or preserve");
  if (typeof o.factored !== "boolean") return bad("/options/factored", "expected a boolean");
  if (o.dialect !== undefined && !INPUT_DIALECTS.includes(o.dialect as never))
    return bad("/options/dialect", "unknown input dialect");
  const n = b.nonStrict;
  if (
    n !== undefined &&
    (!isPlainObject(n) || typeof n.limit !== "string" || typeof n.path !== "string" || typeof n.reason !== "string")
  )
    return bad("/nonStrict", "expected an object with limit, path and reason strings");
  const l = b.limits;
  if (!isPlainObject(l)) return bad("/limits", "expected an object");
  for (const k of ["maxBytes", "maxNodes", "maxDepth"]) {
    const v = l[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
      return bad(`/limits/${k}`, "expected a positive integer");
  }
  if ((l.maxDepth as number) > MAX_DEPTH_LIMIT) return bad("/limits/maxDepth", `at most ${MAX_DEPTH_LIMIT}`);
  return OK;
}

/** The plan's own members and the envelope its root allows. */
function checkFrame(plan: unknown): Check {
  if (!isPlainObject(plan)) return bad("/plan", "expected an object");
  if (!isPlainObject(plan.defs)) return bad("/plan/defs", "expected an object");
  if (!Array.isArray(plan.relaxed)) return bad("/plan/relaxed", "expected an array");
  if (plan.envelope !== "bare" && plan.envelope !== "arguments")
    return bad("/plan/envelope", "expected bare or arguments");
  // Only an object's wire form is an object the provider takes at the top.
  if (plan.envelope === "bare" && !(isPlainObject(plan.root) && constructOfKind(plan.root.kind)?.bare === true))
    return bad("/plan/envelope", "a bare envelope needs an object root");
  return OK;
}

/** Every node of the plan, each against its kind's shape, then the loops through references. */
export function checkPlan(plan: unknown): Check {
  const frame = checkFrame(plan);
  if (!frame.ok) return frame;
  const { root, defs } = plan as { readonly root: unknown; readonly defs: Readonly<Record<string, unknown>> };
  const stack: [unknown, string][] = [[root, "/plan/root"]];
  for (const name of Object.keys(defs)) stack.push([defs[name], `/plan/defs/${name}`]);
  const ctx: CheckContext = { defs, push: (node, at) => stack.push([node, at]) };
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (!isPlainObject(node)) return bad(at, "expected a plan node");
    if (typeof node.kind !== "string" || !Object.hasOwn(NODE_SHAPES, node.kind))
      return bad(`${at}/kind`, "unknown node kind");
    const r = NODE_SHAPES[node.kind as Node["kind"]].check(node, at, ctx);
    if (!r.ok) return r;
  }
  return checkLoops(defs);
}

/** A module's plan: its frame, and a known kind at its root and each definition (checkModuleBundleShape). */
function checkModulePlan(plan: unknown): Check {
  const frame = checkFrame(plan);
  if (!frame.ok) return frame;
  const { root, defs } = plan as { readonly root: unknown; readonly defs: Readonly<Record<string, unknown>> };
  const starts: [unknown, string][] = [[root, "/plan/root"]];
  for (const name of Object.keys(defs)) starts.push([defs[name], `/plan/defs/${name}`]);
  for (const [node, at] of starts) {
    if (!isPlainObject(node)) return bad(at, "expected a plan node");
    if (constructOfKind(node.kind) === undefined) return bad(`${at}/kind`, "unknown node kind");
  }
  return OK;
}

/**
 * References and in-place children (a union's branches) hand the same value
 * on (decode for unions decided by type or discriminator, encode for every
 * union), so a loop made of nothing else never ends. Every loop must pass
 * through structure: an array, an object, a map or a tagged member, each of
 * which reads one level deeper. Runs on a plan whose nodes passed their checks.
 */
function checkLoops(defs: Record<string, unknown>): Check {
  const next = (name: string): string[] => {
    const out: string[] = [];
    const stack: unknown[] = [defs[name]];
    while (stack.length > 0) {
      const n = stack.pop();
      if (!isPlainObject(n)) continue;
      if (n.kind === "ref" && typeof n.def === "string") {
        out.push(n.def);
        continue;
      }
      const construct = constructOfKind(n.kind);
      if (construct?.inPlace === true) {
        for (const c of construct.children(n as never)) stack.push(c.node);
      }
    }
    return out;
  };
  const loop = firstLoop(Object.keys(defs), next);
  if (loop !== undefined) return bad(`/plan/defs/${loop}`, "references loop without reading any structure");
  return OK;
}
