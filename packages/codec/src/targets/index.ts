export type { FirstKeyReading } from "./first-key.js";
export { estimateGrammar, type GrammarEstimate } from "./grammar.js";
export { checkSchemaLimits, describeFinding, type LimitFinding, type LimitName } from "./limits.js";
export type {
  CompiledTool,
  Fact,
  FactKind,
  Spelling,
  TargetLimits,
  TargetName,
  TargetProfile,
  ToolSetLimits,
} from "./profile.js";
export { FACT_KINDS } from "./profile.js";
export { TARGET_NAMES, targetProfile } from "./registry.js";
export { type Advisory, checkToolSet, type ToolSetOptions, toolSetAdvisories } from "./toolset.js";
