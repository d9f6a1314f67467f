// Dispatch (guarded calls, provider tool results, Standard Schema, AI SDK) and the types emitter.

export {
  type AgentCallDetails,
  type AgentGuardrailOutput,
  type AgentInputGuardrail,
  type AgentInputGuardrailData,
  type AgentOutputGuardrail,
  type AgentOutputGuardrailData,
  type AgentToolCall,
  type StrictFunctionTool,
  type StrictToolOptions,
  strictTool,
} from "./agents.js";
export { AiSdkAnswerError, type AiSdkOutput, type AiSdkOutputOptions, aiSdkOutput } from "./answer/ai-sdk.js";
export type { AnswerNaming } from "./answer/answer.js";
export {
  decodeOutput,
  type OutputApi,
  type OutputFormats,
  outputFormat,
  outputMessage,
  outputProbeRequest,
  outputRepairMessage,
  streamOutput,
} from "./answer/outputs.js";
export type { AnswerUpdate, StreamedAnswer } from "./answer/stream.js";
export {
  ABSENCE_SPELLINGS,
  type AbsenceSpelling,
  BUNDLE_FORMAT,
  type Bundle,
  type BundleOptions,
  type NonStrict,
  TAG_SPELLING_OPTIONS,
  type TagSpelling,
} from "./bundle/bundle.js";
export { CodecCore, type DecodeOptions, type RawArguments, type WireValue } from "./codec.js";
export { type CompileOptions, compile, compileCodec } from "./compile.js";
export { INPUT_DIALECTS, type InputDialect } from "./dialects.js";
export {
  type AiSdkExecuteOptions,
  type AiSdkInputDeltaOptions,
  type AiSdkInputTextDelta,
  type AiSdkMiddleware,
  type AiSdkMiddlewareOptions,
  type AiSdkTool,
  type AiSdkToolFields,
  aiSdkInputSchema,
  aiSdkMiddleware,
  aiSdkTool,
  aiSdkWireMessages,
} from "./dispatch/ai-sdk.js";
export {
  argumentsText,
  type CallOutcome,
  type CallReport,
  type CodecValue,
  createDispatcher,
  type Dispatched,
  Dispatcher,
  type DispatchOptions,
  type ToolCodecs,
  type ToolHandlers,
} from "./dispatch/dispatcher.js";
export {
  type GuardedCall,
  type GuardedResult,
  type GuardOptions,
  guardedCall,
  type ToolCallInfo,
  type ToolHandler,
} from "./dispatch/guard.js";
export type { StandardCodecProps, StandardCodecSchema } from "./dispatch/standard.js";
export { type EmitTypesOptions, emitTypes } from "./emit/types.js";
export type { Breach, CodecError, ErrorCode, Issue, PathStep, Result, RuleKeyword, RuleParams } from "./errors.js";
export { PARSE_CODES } from "./errors.js";
// Errors as words: for logs, for whoever must act, for --json; one formatter for every package.
export { adviceFor } from "./feedback/author.js";
export {
  type Audience,
  audienceOf,
  type ErrorJson,
  errorJson,
  FEEDBACK_LIMIT,
  type IssueJson,
  issueList,
} from "./feedback/format.js";
export {
  displayValue,
  memberRuleSentence,
  type RuleBreach,
  ruleSentence,
  typeName,
} from "./feedback/rules.js";
export { isLibrarySchema, type LibrarySchema } from "./input/library.js";
// Library schemas (Zod 4, Standard JSON Schema) as input.
export { withStandardSchema } from "./input/library-validation.js";
export {
  compileOptionsOf,
  type Inspection,
  type InspectOptions,
  inspect,
  type Size,
  type Sizes,
  type TravelNode,
} from "./inspect.js";
export type {
  Field,
  Node,
  Plan,
  Presence,
  RelaxedConstraint,
  UnionRule,
} from "./ir/nodes.js";
export { loadBundle } from "./load.js";
export { parseJson } from "./parse/json.js";
export { DEFAULT_PARSE_LIMITS, MAX_DEPTH_LIMIT, type ParseLimits } from "./parse/parser.js";
// Provider APIs: each one's tool definitions, response shapes and tool results (providers/, one module each).
export type {
  AnthropicContentBlockLike,
  AnthropicMessageLike,
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
} from "./providers/anthropic.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponseContent,
  type GeminiFunctionResponsePart,
  type GeminiResponseLike,
  type GeminiToolConfig,
  type GeminiTools,
  type GeminiToolsOptions,
  geminiToolConfig,
  geminiTools,
} from "./providers/gemini.js";
export {
  type ProviderApi,
  type ProviderApiName,
  providerApi,
  type ToolApi,
  type ToolDefinitions,
  type ToolResults,
  toolDefinition,
} from "./providers/lookup.js";
export type { ChatCompletionLike, ChatToolMessage } from "./providers/openai-chat.js";
export type {
  ResponsesFunctionCallOutput,
  ResponsesOutputItemLike,
  ResponsesResponseLike,
} from "./providers/openai-responses.js";
export { Codec } from "./public-codec.js";
export type { SchemaResources } from "./schema/resources.js";
export {
  codecFromModule,
  codecFromPrecompiled,
  type LoadOptions,
  type PrecompiledValidators,
  standaloneModule,
} from "./standalone.js";
export {
  type AiSdkRefusal,
  type AiSdkStreamOptions,
  type AiSdkStreamPart,
  aiSdkSourceInput,
} from "./stream/ai-sdk.js";
export {
  type CallUpdate,
  type StreamedCalls,
  type StreamingApi,
  type StreamProvider,
  streamCalls,
} from "./stream/calls.js";
export { streamDecoder } from "./stream/decoder.js";
export type { MemberState, StreamDecoder, StreamStep } from "./stream/types.js";
// Targets: each provider's strict mode, and the limits of a tool set sent together.
export {
  type Advisory,
  type CompiledTool,
  checkToolSet,
  describeFinding,
  estimateGrammar,
  FACT_KINDS,
  type Fact,
  type FactKind,
  type FirstKeyReading,
  type GrammarEstimate,
  type LimitFinding,
  type LimitName,
  TARGET_NAMES,
  type TargetLimits,
  type TargetName,
  type TargetProfile,
  type ToolSetLimits,
  type ToolSetOptions,
  targetProfile,
  toolSetAdvisories,
} from "./targets/index.js";
export { re2 as linearRegExp } from "./validate/regexp.js";

// Earlier names, kept so existing imports keep working.
import { ABSENCE_SPELLINGS, type AbsenceSpelling } from "./bundle/bundle.js";
/** @deprecated The `presence` option's values under their earlier name: use ABSENCE_SPELLINGS. */
export const PRESENCE_OPTIONS = ABSENCE_SPELLINGS;
/** @deprecated The `presence` option's type under its earlier name: use AbsenceSpelling. */
export type PresenceOption = AbsenceSpelling;

// The deprecated method form of streamDecoder(codec), on the main entry only (until 0.3.0): the run-time
// class leaves it out, so that a bundle of @strictwire/codec/runtime that never streams has no stream decoder.
// A side effect of loading this file (package.json's sideEffects lists it); defined as a class method is
// (not enumerable), so a codec shows no new key.
import type { DecodeOptions } from "./codec.js";
import { Codec as PublicCodec } from "./public-codec.js";
import { streamDecoder as streamDecoderOf } from "./stream/decoder.js";
import type { StreamDecoder } from "./stream/types.js";

declare module "./public-codec.js" {
  interface Codec<T> {
    /**
     * A decoder for one call's argument text as the model writes it: push each
     * delta for the partial source value (display only) or an early refusal;
     * end() is decode of the whole text. See stream/decoder.ts.
     * @deprecated Call `streamDecoder(codec, options)` (from `@strictwire/codec`
     * or `@strictwire/codec/runtime`): the same decoder. This method is there
     * only where the main entry `@strictwire/codec` is loaded, and goes in 0.3.0.
     */
    streamDecoder(options?: DecodeOptions): StreamDecoder<T>;
  }
}

Object.defineProperty(PublicCodec.prototype, "streamDecoder", {
  value: function streamDecoder<T>(this: PublicCodec<T>, options: DecodeOptions = {}): StreamDecoder<T> {
    return streamDecoderOf(this, options);
  },
  writable: true,
  configurable: true,
  enumerable: false,
});
