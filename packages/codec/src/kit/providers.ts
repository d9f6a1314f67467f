/**
 * `@strictwire/codec/providers`: the one reader of provider responses (which
 * calls a response holds, with which ids, and whether it was cut off), shared
 * by the dispatcher and the classifier so the two cannot disagree, and of
 * their stream events (`streamCalls`: each call decoded as it arrives, by the
 * codecs it is given). Imports no compiler and no ajv.
 */
export {
  type AnthropicMessageLike,
  anthropicCalls,
  type ChatCompletionLike,
  chatCalls,
  type ExtractedCalls,
  type GeminiResponseLike,
  geminiCalls,
  type RawCall,
  type ResponsesResponseLike,
  responsesCalls,
  storedCalls,
} from "../dispatch/providers.js";
export { type CallUpdate, type StreamedCalls, type StreamProvider, streamCalls } from "../stream/calls.js";
