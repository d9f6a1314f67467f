export { answeredFetch } from "./answered-fetch.js";
export {
  type BoundedFetchOptions,
  boundedFetch,
  DEFAULT_MAX_MESSAGE_BYTES,
  type FetchLike,
} from "./bounded-fetch.js";
export type { ProxiedTool } from "./catalogue.js";
export { resultText, type StrictMcpTools, type StrictMcpToolsOptions, strictMcpTools } from "./client.js";
export { type CompileBudget, DEFAULT_COMPILE_BUDGET } from "./compile-pool.js";
export {
  DEFAULT_LIST_LIMITS,
  describeStop,
  type ListError,
  type ListErrorCode,
  type Listing,
  type ListLimits,
  listAllTools,
} from "./listing.js";
export { DEFAULT_MAX_NOTIFICATIONS_PER_SECOND } from "./notification-gate.js";
export {
  type ClosedBy,
  DEFAULT_INIT_TIMEOUT_MS,
  DEFAULT_MAX_CLIENT_REQUESTS,
  type McpProxy,
  type ProxyOptions,
  startProxy,
  type UpstreamInitError,
  type UpstreamInitErrorCode,
} from "./proxy.js";
export {
  type CompiledTool,
  codecName,
  compileTool,
  decodeArguments,
  decodeArgumentsText,
  describePassThrough,
  listedTool,
  type StrictOptions,
} from "./tools.js";
