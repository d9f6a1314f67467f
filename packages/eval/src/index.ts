export {
  API_NAMES,
  type Api,
  type Arm,
  type ArmTool,
  BUILTIN_ARMS,
  DEFAULT_ARMS,
  describePresence,
  PRESENCE_NOTE,
  type SentTool,
} from "./arms.js";
export { renderChart, shade } from "./chart.js";
export { type HttpOptions, type HttpOutcome, postJson, retryAfterMs } from "./http.js";
export { loadPeerArms } from "./peers.js";
export {
  errorText,
  type ProbeAnswer,
  type ProbeOptions,
  type ProbeReport,
  type ProbeResult,
  probeRequest,
  probeTools,
} from "./probe.js";
export {
  endpointHost,
  isLoopback,
  loopbackWarning,
  type Provenance,
  provenanceLine,
  strictwireCommit,
  strictwireVersion,
} from "./provenance.js";
export {
  buildRequest,
  CLARIFY_TOOL,
  DEFAULT_ENDPOINTS,
  type ExchangeApi,
  type ExchangeApiName,
  exchangeApi,
  exchangeOf,
  GEMINI_ENDPOINT,
  geminiRequest,
  REFUSE_TOOL,
  readGeminiReply,
  readReply,
  repairRequest,
  type Settings,
  type ToolCall,
} from "./providers.js";
export { REDACTED, redact, redactDeep } from "./redact.js";
export {
  type ArmSummary,
  type CategorySummary,
  categoryCell,
  type PairId,
  pairLabel,
  pct,
  type Report,
  renderMarkdown,
  renderTable,
  summarise,
  type VsControl,
} from "./report.js";
export {
  type AttemptRecord,
  type Finished,
  holdsNoTrial,
  type RunError,
  type RunOptions,
  type RunOutcome,
  readFinished,
  runEval,
  schedule,
  systemText,
  type TrialRecord,
  trialKey,
  userText,
} from "./run.js";
export { applyPatch, type Judgement, judge, redundantWrites, type WriteContext } from "./score.js";
export { prng, quantile, shuffle, wilson } from "./stats.js";
export {
  type Action,
  BUNDLED_SUITE,
  type Expected,
  loadOracle,
  loadSuite,
  type Oracle,
  type Scenario,
  type Suite,
  suiteDigest,
  type Workflow,
} from "./suite.js";
