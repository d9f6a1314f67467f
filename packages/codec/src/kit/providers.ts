/**
 * `@strictwire/codec/providers`: the provider APIs, one module each
 * (providers/): the one reader of provider responses (which calls a response
 * holds, with which ids, and whether it was cut off), shared by the
 * dispatcher, the classifier and the eval harness so they cannot disagree;
 * each API's tool definition, tool-result writer and HTTP exchange; and their
 * stream events (`streamCalls`: each call decoded as it arrives, by the codecs
 * it is given). Imports no compiler and no ajv.
 */

export {
  type AnthropicContentBlockLike,
  type AnthropicMessageLike,
  type AnthropicOutputFormat,
  type AnthropicTool,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  anthropicCallStreams,
  anthropicCalls,
  anthropicResults,
} from "../providers/anthropic.js";
export type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  CallStreamsOptions,
  CallStreamsReader,
  DeltaSink,
  Exchange,
  ExtractedCalls,
  ProviderApiModule,
  RawCall,
  Reply,
  ReplyCall,
  RequestSettings,
  RequestTool,
  StreamedCall,
} from "../providers/api.js";
export type { ConverseOutputFormat } from "../providers/bedrock-converse.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponseContent,
  type GeminiFunctionResponsePart,
  type GeminiOutputFormat,
  type GeminiResponseLike,
  type GeminiToolConfig,
  type GeminiTools,
  type GeminiToolsOptions,
  geminiCalls,
  geminiRequest,
  geminiResults,
  geminiToolConfig,
  geminiTools,
} from "../providers/gemini.js";
export {
  type OutputApi,
  type OutputFormats,
  PROVIDER_API_NAMES,
  type ProviderApi,
  type ProviderApiName,
  type ProviderApiWith,
  type ProviderResponses,
  providerApi,
  providerModule,
  storedCalls,
  type ToolApi,
  type ToolDefinitions,
  type ToolResults,
  toolDefinition,
} from "../providers/lookup.js";
export {
  type ChatCompletionLike,
  type ChatOutputFormat,
  type ChatToolMessage,
  chatCalls,
  chatCompletionsCallStreams,
  chatResults,
  type OpenAIChatTool,
} from "../providers/openai-chat.js";
export {
  type OpenAIResponsesTool,
  type ResponsesFunctionCallOutput,
  type ResponsesOutputFormat,
  type ResponsesOutputItemLike,
  type ResponsesResponseLike,
  responsesCallStreams,
  responsesCalls,
  responsesResults,
} from "../providers/openai-responses.js";
export * from "../providers/registry.js";
export {
  type CallUpdate,
  type StreamedCalls,
  type StreamingApi,
  type StreamProvider,
  streamCalls,
} from "../stream/calls.js";
