/**
 * OpenAI's strict mode on fine-tuned models: the same subset and limits,
 * without the value keywords listed as unsupported for them. Those are relaxed
 * (left off the wire, enforced by the final validation).
 */
import { OPENAI_FACTS, openai } from "./openai.js";
import type { TargetProfile } from "./profile.js";

const RESTATED = "https://jsonschemaprofiles.unitvectorylabs.com/schemas/openai";
const READ = "2026-12-02";
const REREAD = "2026-12-04";

export const openaiFinetuned: TargetProfile = {
  ...openai,
  name: "openai-finetuned",
  keeps: { string: new Set([]), number: new Set([]), array: new Set([]), object: new Set([]) },
  formats: new Set([]),
  facts: [
    ...OPENAI_FACTS,
    {
      rule: "fine-tuned models",
      fact: "fine-tuned models do not take minLength, maxLength, pattern, format, minimum, maximum, multipleOf, patternProperties, minItems, maxItems in strict mode",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "exclusive bounds",
      fact: "exclusiveMinimum and exclusiveMaximum are not in that list; with minimum and maximum gone they are relaxed too, the conservative reading",
      source: RESTATED,
      read: REREAD,
      kind: "strictwire",
    },
  ],
};
