export { estimateGrammar, type GrammarEstimate } from "./grammar.js";
export { checkSchemaLimits, describeFinding, type LimitFinding, type LimitName } from "./limits.js";
export type { Fact, FactKind, Spelling, TargetLimits, TargetName, TargetProfile, ToolSetLimits } from "./profile.js";
export { FACT_KINDS } from "./profile.js";
export { TARGET_NAMES, targetProfile } from "./registry.js";
export {
  type CompiledTool,
  type GeminiFunctionDeclaration,
  type ToolApi,
  type ToolDefinitions,
  toolDefinition,
} from "./tools.js";
export { type Advisory, checkToolSet, type ToolSetOptions, toolSetAdvisories } from "./toolset.js";
