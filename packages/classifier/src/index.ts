export { type ArgumentsError, type ArgumentsErrorCode, type ParsedArguments, parseArguments } from "./arguments.js";
export { type BundleLoader, codecBundleLoader, type LoadedBundles, loadBundlesDir } from "./bundles.js";
export {
  type CallState,
  type Classification,
  type ClassifyOptions,
  classify,
  FINDINGS,
  repairLines,
  STATES,
  type ToolMap,
} from "./classify.js";
export { matchCodec, type ToolCodec } from "./codecs.js";
export {
  type AuthFailure,
  DEFAULT_BASE_URL,
  DEFAULT_TUNING,
  type FetchOptions,
  type FetchOutcome,
  type FetchTuning,
  fetchStoredResponses,
  parseRetryAfter,
  type ResolvedTuning,
  retryDelayMs,
  type StreamedOutcome,
  streamStoredResponses,
} from "./fetch.js";
export { type InputError, parseResponsesText, type ResponseEntry, readIds } from "./input.js";
export { type InputRecord, RECORD_CAP, RecordSplitter, splitRecords } from "./records.js";
export { bundleTools, type CallReport, humanLines, reportCalls, type Summary } from "./report.js";
export {
  EXIT_CLEAN,
  EXIT_FINDINGS,
  EXIT_USAGE,
  type RunIO,
  type RunOptions,
  type RunProgress,
  runClassify,
} from "./run.js";
export { type DeclaredTool, declaredTools, functionCalls, type ToolCall, truncation, wasTruncated } from "./shapes.js";
export {
  classifyStream,
  RECORD_LIMITS,
  type ResponseResult,
  type StreamOptions,
  type StreamRecord,
  WORKERS_AFTER,
} from "./stream.js";
export { checkSchema, type SchemaCheck, schemaViolations } from "./violations.js";

export const version = "0.1.0";
