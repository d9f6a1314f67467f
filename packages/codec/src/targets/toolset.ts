/**
 * Does a set of tools, sent together in one request, fit the target? Each
 * schema against the per-schema limits, then the per-request caps across all
 * of them (Anthropic counts strict tools, optional and union parameters over
 * the whole request). The wires are measured as compiled.
 */
import type { Bundle } from "../bundle/bundle.js";
import { firstKeyClashes } from "./first-key.js";
import { describeGrammar, estimateGrammar, type GrammarEstimate } from "./grammar.js";
import { type LimitFinding, measureTool, requestFindings, schemaFindings } from "./limits.js";
import type { TargetName } from "./profile.js";
import { targetProfile } from "./profiles.js";

export function checkToolSet(bundles: readonly Bundle[], target: TargetName): LimitFinding[] {
  const profile = targetProfile(target);
  const tools = bundles.map((b) => measureTool(b.name, b.wire));
  const rules = profile.distinctFirstKeys ? bundles.flatMap(firstKeyFinding) : [];
  return [
    ...tools.flatMap((t) => schemaFindings(t, profile.limits)),
    ...rules,
    ...requestFindings(tools, profile.toolSet),
  ];
}

/** A bundle compiled before the rule was modelled (or by hand) may break it. */
function firstKeyFinding(b: Bundle): LimitFinding[] {
  const clashes = firstKeyClashes(b.wire);
  const first = clashes[0];
  return first === undefined
    ? []
    : [{ limit: "firstKey", measured: clashes.length, max: 0, path: first.path, tool: b.name }];
}

/** What may go wrong that no published limit says: advice, never a refusal. */
export interface Advisory {
  readonly kind: "grammarSize";
  readonly estimate: GrammarEstimate;
  readonly message: string;
}

/** Anthropic's grammar size, estimated for the set (targets/grammar.ts); none for other targets. */
export function toolSetAdvisories(bundles: readonly Bundle[], target: TargetName): Advisory[] {
  if (target !== "anthropic") return [];
  const estimate = estimateGrammar(bundles.map((b) => ({ name: b.name, wire: b.wire })));
  return estimate.level === "fine" ? [] : [{ kind: "grammarSize", estimate, message: describeGrammar(estimate) }];
}
