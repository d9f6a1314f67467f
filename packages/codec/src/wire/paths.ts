/**
 * A validator reports wire paths (/settings/value/timezone); people
 * and models think in original paths (/settings/timezone). Walk the wire value
 * alongside the plan to translate, as far as the wire value allows: each
 * construct takes one step (its `wireStep`).
 */
import type { PathWalk, WireStep } from "../constructs/construct.js";
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
    const step = stepThrough(node, { tokens, i, value, defs: plan.defs, wireStep: stepThrough });
    if (step === undefined) break;
    if (step.step !== undefined) out.push(step.step);
    ({ node, value, next: i } = step);
  }
  // A member the plan does not know (undeclared, so no step leads to it) is still the model's own name.
  if (node !== undefined && i === tokens.length - 1 && constructOf(node).namesMembers?.(node) === true) {
    out.push(tokens[i]!);
    i++;
  }
  return { steps: out, whole: i >= tokens.length };
}

/** Steps that hand on the very value they read (a union's branches) nest at most this deep in one step. */
const MAX_IN_PLACE = 8;

/** One step, by the node's construct; a construct that steps through a child (`walk.wireStep`) goes one level deeper. */
const stepper =
  (depth: number) =>
  (node: Node, walk: PathWalk): WireStep | undefined =>
    depth > MAX_IN_PLACE ? undefined : constructOf(node).wireStep(node, { ...walk, wireStep: stepper(depth + 1) });

const stepThrough = stepper(0);
