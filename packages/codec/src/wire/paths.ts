/**
 * A validator reports wire paths (/settings/value/timezone); people
 * and models think in original paths (/settings/timezone). Walk the wire value
 * alongside the plan to translate, as far as the wire value allows: each
 * construct takes one step (its `pathStep`).
 */
import { constructOf } from "../constructs/registry.js";
import { type PathStep, pointerOf } from "../errors.js";
import type { Node, Plan } from "../ir/nodes.js";
import { isPlainObject, pointerTokens } from "../json.js";

export function originalPath(plan: Plan, wire: unknown, wirePointer: string): string {
  return pointerOf(originalSteps(plan, wire, wirePointer));
}

/** The original path as steps: a step into an array is its index (a number), any other a member name. */
export function originalSteps(plan: Plan, wire: unknown, wirePointer: string): PathStep[] {
  return walkSteps(plan, wire, wirePointer).steps;
}

/** The original steps only when the walk reached the pointer's end (no precision lost on the way). */
export function wholeOriginalSteps(plan: Plan, wire: unknown, wirePointer: string): PathStep[] | undefined {
  const walked = walkSteps(plan, wire, wirePointer);
  return walked.whole ? walked.steps : undefined;
}

function walkSteps(plan: Plan, wire: unknown, wirePointer: string): { steps: PathStep[]; whole: boolean } {
  const tokens = pointerTokens(wirePointer);
  const wrapped = plan.envelope === "arguments";
  if (wrapped && tokens[0] !== "arguments") return { steps: [], whole: false };
  const out: PathStep[] = [];
  let node: Node | undefined = plan.root;
  let value: unknown = !wrapped ? wire : isPlainObject(wire) ? wire.arguments : undefined;
  let i = wrapped ? 1 : 0;
  let guard = 0;
  while (node !== undefined && i < tokens.length && guard++ < 10_000) {
    const step = stepThrough(node, { tokens, i, value, defs: plan.defs }, 0);
    if (step === undefined) break;
    if (step.token !== undefined) out.push(node.kind === "array" ? Number(step.token) : step.token);
    ({ node, value, next: i } = step);
  }
  // A member the plan does not know (undeclared, so no step leads to it) is still the model's own name.
  if (node !== undefined && i === tokens.length - 1 && namesMembers(node)) {
    out.push(tokens[i]!);
    i++;
  }
  return { steps: out, whole: i >= tokens.length };
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
