/**
 * Unions (anyOf, oneOf, type lists). Decoding must know which branch a wire
 * value belongs to, because branches may decode differently. The rule is the
 * cheapest that is exact, chosen at compile time:
 * - same: every branch decodes as the identity, so the branch does not matter;
 * - type: the wire JSON type names the branch;
 * - discriminator: a required constant member of object branches names it;
 * - tag: {"branch": i, "value": W(branch i)}.
 * Exclusivity (oneOf) is not the wire's job: the final validation enforces it.
 */

import type { Defs } from "../ir/children.js";
import type { Node, ObjectNode, Plan, UnionNode } from "../ir/nodes.js";
import { canonicalJson, isPlainObject, type JsonType, jsonTypeOf } from "../json.js";
import type { Construct } from "./construct.js";
import { type EncodeContext, FAIL, type Fail, failAt, TRIAL, type Walk, type WalkContext } from "./context.js";

/**
 * Whether a plan has a union whose wire names its branch (the tag rule). The
 * contract alone cannot hold such a value to the branch the model named: the
 * walk leaves value constraints (a const, a pattern) to the final
 * validation, and another, overlapping branch of the source may take the
 * value there. So a decode of such a plan also checks the wire schema, which
 * keeps each branch's constraints, and accepts only what both accept.
 */
export function namesBranches(plan: Plan, walk: Walk): boolean {
  // Every definition is visited, so references need not be followed.
  const work: Node[] = [plan.root, ...Object.values(plan.defs)];
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    if (node.kind === "union" && node.rule.by === "tag") return true;
    for (const child of walk.children(node)) work.push(child.node);
  }
  return false;
}

function unionWireTypes(node: UnionNode, defs: Defs, seen: Set<string>, walk: Walk): JsonType[] {
  if (node.rule.by === "tag") return ["object"];
  const out = new Set<JsonType>();
  for (const b of node.branches) for (const t of walk.wireTypes(b, defs, seen)) out.add(t);
  return [...out];
}

export function resolveObject(node: Node, defs: Defs): ObjectNode | undefined {
  let n: Node | undefined = node;
  for (let hops = 0; n !== undefined && n.kind === "ref" && hops < 16; hops++) n = defs[n.def];
  return n?.kind === "object" ? n : undefined;
}

export function constantsOf(node: Node, defs: Defs): string[] | undefined {
  let n: Node | undefined = node;
  for (let hops = 0; n !== undefined && n.kind === "ref" && hops < 16; hops++) n = defs[n.def];
  if (n?.kind !== "scalar") return undefined;
  if (n.schema.const !== undefined) return [canonicalJson(n.schema.const)];
  if (Array.isArray(n.schema.enum) && n.schema.enum.length > 0) return n.schema.enum.map(canonicalJson);
  return undefined;
}

/** The branch index the decoder picks for a wire value, or -1. */
export function decoderBranch(node: UnionNode, wire: unknown): number {
  const rule = node.rule;
  switch (rule.by) {
    case "same":
      return 0;
    case "type": {
      const t = jsonTypeOf(wire);
      return t === undefined ? -1 : (rule.types[t] ?? -1);
    }
    case "discriminator": {
      if (!isPlainObject(wire) || !Object.hasOwn(wire, rule.field)) return -1;
      return rule.values[canonicalJson(wire[rule.field])] ?? -1;
    }
    case "tag": {
      if (!isPlainObject(wire)) return -1;
      const i = wire.branch;
      return typeof i === "number" && Number.isInteger(i) && i >= 0 && i < node.branches.length ? i : -1;
    }
  }
}

function encodeUnion(node: UnionNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  let firstError = ctx.error;
  for (const i of ctx.branchOrder(node, value)) {
    const branch = node.branches[i]!;
    const depth = ctx.path.length;
    const wire = ctx.walk.encode(branch, value, ctx);
    ctx.path.length = depth;
    if (wire === FAIL) {
      firstError ??= ctx.error;
      ctx.error = undefined;
      continue;
    }
    if (node.rule.by === "tag") return { branch: i, value: wire };
    // The decoder must come back through this branch, or through one that decodes the same way.
    const j = decoderBranch(node, wire);
    if (j === i || (j >= 0 && node.rule.by !== "discriminator" && isIdentitySafe(node, i, j, ctx))) return wire;
  }
  ctx.error = firstError;
  return firstError === undefined ? failAt(ctx, "invalid-value", "the value fits no alternative of this union") : FAIL;
}

function isIdentitySafe(node: UnionNode, i: number, j: number, ctx: EncodeContext): boolean {
  return ctx.walk.identity(node.branches[i]!, ctx.defs) && ctx.walk.identity(node.branches[j]!, ctx.defs);
}

function decodeUnion(node: UnionNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  if (node.rule.by === "same") return decodeAnyBranch(node, wire, ctx);
  const i = decoderBranch(node, wire);
  if (i < 0) {
    const what =
      node.rule.by === "tag"
        ? `a union tag {"branch": 0..${node.branches.length - 1}, "value": ...}`
        : "a value of one of the alternatives";
    return failAt(ctx, "wire-violation", `expected ${what}`);
  }
  const payload = node.rule.by === "tag" ? (wire as Record<string, unknown>).value : wire;
  if (node.rule.by === "tag" && (Object.keys(wire as object).length !== 2 || !Object.hasOwn(wire as object, "value"))) {
    return failAt(ctx, "wire-violation", 'a union tag is exactly {"branch": i, "value": ...}');
  }
  const depth = ctx.path.length;
  const outer = ctx.error;
  const value = ctx.walk.decode(node.branches[i]!, payload, ctx);
  if (
    value !== FAIL &&
    node.rule.by === "tag" &&
    ctx.holds !== undefined &&
    !ctx.holds(node.branchSources[i]!, value)
  ) {
    // The branch named is the branch meant: a constraint of its own that the wire could not carry (uniqueItems,
    // dependentRequired...) still holds, though another branch of the contract would take the value.
    return failAt(ctx, "contract-violation", `the value breaks alternative ${i} of this union, the one its wire names`);
  }
  if (value !== FAIL || node.rule.by !== "type") return value;
  // Several identity branches may share a JSON type; the rule names the first. Try the others.
  const t = jsonTypeOf(wire);
  for (let j = 0; j < node.branches.length; j++) {
    const branch = node.branches[j]!;
    if (
      j === i ||
      t === undefined ||
      !ctx.walk.identity(branch, ctx.defs) ||
      !ctx.walk.wireTypes(branch, ctx.defs, new Set()).includes(t)
    )
      continue;
    const saved = ctx.error;
    ctx.error = TRIAL;
    ctx.path.length = depth;
    const other = ctx.walk.decode(branch, payload, ctx);
    ctx.error = saved;
    if (other !== FAIL) {
      ctx.error = outer;
      return other;
    }
  }
  return FAIL;
}

/**
 * Every branch decodes as the identity, so any branch that takes the wire value
 * structurally gives the same result; trying them keeps closed objects closed.
 */
function decodeAnyBranch(node: UnionNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  const depth = ctx.path.length;
  const outer = ctx.error;
  ctx.error = TRIAL;
  for (const branch of node.branches) {
    const value = ctx.walk.decode(branch, wire, ctx);
    ctx.path.length = depth;
    if (value !== FAIL) {
      ctx.error = outer;
      return value;
    }
  }
  ctx.error = outer;
  return failAt(ctx, "wire-violation", "expected a value of one of the alternatives");
}

/**
 * Every source location encode tests branches against (in unions whose
 * branches JSON types do not tell apart), sorted: a generated module compiles
 * a validator for each.
 */
export function branchTestPointers(plan: Plan, walk: Walk): string[] {
  const out = new Set<string>();
  const work: Node[] = [plan.root, ...Object.values(plan.defs)];
  while (work.length > 0) {
    const node = work.pop()!;
    if (node.kind === "union" && node.branchTypes === undefined) {
      for (const sources of node.branchSources) for (const p of sources) out.add(p);
    }
    for (const c of walk.children(node)) work.push(c.node);
  }
  return [...out].sort();
}

export const union: Construct<UnionNode> = {
  kind: "union",
  inPlace: true,
  children: (node) => node.branches.map((b, i) => ({ node: b, at: `|${i}` })),
  encode: encodeUnion,
  decode: decodeUnion,
  wireTypes: unionWireTypes,
  identity: (node, defs, walk) =>
    node.rule.by === "same" || (node.rule.by === "type" && node.branches.every((b) => walk.identity(b, defs))),
  wireStep(node, walk) {
    const { tokens, i, value } = walk;
    if (node.rule.by !== "tag") {
      // The wire form is its branch's own: the first branch that can take the step takes it (the
      // branches agree on the member names they share, which is all a path needs).
      for (const branch of node.branches) {
        const step = walk.wireStep(branch, walk);
        if (step !== undefined) return step;
      }
      return undefined;
    }
    if (tokens[i] !== "value") return undefined;
    const b = isPlainObject(value) ? value.branch : undefined;
    const branch = typeof b === "number" ? node.branches[b] : undefined;
    if (branch === undefined) return undefined;
    return { node: branch, value: (value as Record<string, unknown>).value, next: i + 1 };
  },
  namesMembers: (node) => node.rule.by !== "tag",
};
