/**
 * Does a set of tools, sent together in one request, fit the target? Each
 * schema against the per-schema limits, then the per-request caps across all
 * of them (Anthropic counts strict tools, optional and union parameters over
 * the whole request). The wires are measured as compiled.
 */
import type { Bundle } from "../bundle/bundle.js";
import { type LimitFinding, measureTool, requestFindings, schemaFindings } from "./limits.js";
import type { TargetName } from "./profile.js";
import { targetProfile } from "./profiles.js";

export function checkToolSet(bundles: readonly Bundle[], target: TargetName): LimitFinding[] {
  const profile = targetProfile(target);
  const tools = bundles.map((b) => measureTool(b.name, b.wire));
  return [...tools.flatMap((t) => schemaFindings(t, profile.limits)), ...requestFindings(tools, profile.toolSet)];
}
