/** The targets by name: the one table of profiles (what a profile holds: profile.ts). */
import { anthropic } from "./anthropic.js";
import { gemini } from "./gemini.js";
import { openai } from "./openai.js";
import { openaiFinetuned } from "./openai-finetuned.js";
import type { TargetName, TargetProfile } from "./profile.js";

export { TARGET_NAMES } from "./profile.js";

const PROFILES: Readonly<Record<TargetName, TargetProfile>> = {
  openai,
  "openai-finetuned": openaiFinetuned,
  anthropic,
  gemini,
};

export function targetProfile(name: TargetName): TargetProfile {
  return PROFILES[name];
}
