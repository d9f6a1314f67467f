export { resultText, type StrictMcpTools, type StrictMcpToolsOptions, strictMcpTools } from "./client.js";
export { type ClosedBy, type McpProxy, type ProxyOptions, startProxy } from "./proxy.js";
export {
  type CompiledTool,
  codecName,
  compileTool,
  decodeArguments,
  describePassThrough,
  listAllTools,
  listedTool,
  type StrictOptions,
} from "./tools.js";
