import { openai } from "./openai.js";
import type { TargetName, TargetProfile } from "./profile.js";

export type { Fact, TargetLimits, TargetName, TargetProfile, ToolSetLimits } from "./profile.js";

const PROFILES: Partial<Record<TargetName, TargetProfile>> = { openai };

export const TARGET_NAMES: readonly TargetName[] = ["openai", "anthropic", "gemini"];

export function targetProfile(name: TargetName): TargetProfile | undefined {
  return PROFILES[name];
}
