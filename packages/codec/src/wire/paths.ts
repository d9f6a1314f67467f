/**
 * A validator reports wire paths (/arguments/settings/value/timezone); people
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
  if (tokens[0] !== "arguments") return "";
  const out: string[] = [];
  let node: Node | undefined = plan.root;
  let value: unknown = isPlainObject(wire) ? wire.arguments : undefined;
  let i = 1;
  let guard = 0;
  while (node !== undefined && i < tokens.length && guard++ < 10_000) {
    const step = constructOf(node).pathStep(node, { tokens, i, value, defs: plan.defs });
    if (step === undefined) break;
    if (step.token !== undefined) out.push(step.token);
    ({ node, value, next: i } = step);
  }
  return out.map((t) => `/${pointerToken(t)}`).join("");
}
