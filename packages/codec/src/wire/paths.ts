/**
 * A validator reports wire paths (/settings/value/timezone); people
 * and models think in original paths (/settings/timezone). Walk the wire value
 * alongside the plan to translate, as far as the wire value allows: each
 * construct takes one step (its `pathStep`).
 */
import { constructOf } from "../constructs/registry.js";
import { pointerToken } from "../errors.js";
import type { Node, Plan } from "../ir/nodes.js";
import { isPlainObject, pointerTokens } from "../json.js";

export function originalPath(plan: Plan, wire: unknown, wirePointer: string): string {
  const tokens = pointerTokens(wirePointer);
  const wrapped = plan.envelope === "arguments";
  if (wrapped && tokens[0] !== "arguments") return "";
  const out: string[] = [];
  let node: Node | undefined = plan.root;
  let value: unknown = !wrapped ? wire : isPlainObject(wire) ? wire.arguments : undefined;
  let i = wrapped ? 1 : 0;
  let guard = 0;
  while (node !== undefined && i < tokens.length && guard++ < 10_000) {
    const step = stepThrough(node, { tokens, i, value, defs: plan.defs }, 0);
    if (step === undefined) break;
    if (step.token !== undefined) out.push(step.token);
    ({ node, value, next: i } = step);
  }
  // A member the plan does not know (undeclared, so no step leads to it) is still the model's own name.
  if (node !== undefined && i === tokens.length - 1 && namesMembers(node)) out.push(tokens[i]!);
  return out.map((t) => `/${pointerToken(t)}`).join("");
}

type StepInput = Parameters<ReturnType<typeof constructOf>["pathStep"]>[1];

/**
 * One step; a union whose wire form is its branch's own (no tag to step
 * over) takes the step of the first branch that can take it: the branches
 * agree on the member names they share, which is all a path needs.
 */
function stepThrough(
  node: Node,
  input: StepInput,
  depth: number,
): ReturnType<ReturnType<typeof constructOf>["pathStep"]> {
  const step = constructOf(node).pathStep(node, input);
  if (step !== undefined || node.kind !== "union" || depth > 8) return step;
  for (const branch of node.branches) {
    const s = stepThrough(branch, input, depth + 1);
    if (s !== undefined) return s;
  }
  return undefined;
}

/** A node whose wire members are the original's own names: an object, or a union of objects without a tag. */
function namesMembers(node: Node): boolean {
  if ("fields" in node) return true;
  return node.kind === "union" && node.rule.by !== "tag";
}
