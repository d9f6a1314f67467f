/**
 * The provider API modules: the one table, one line per API (what a module
 * holds: api.ts; the names and lookups over this table: lookup.ts, which
 * reads every module exported here).
 */
export { anthropic } from "./anthropic.js";
export { bedrockConverse } from "./bedrock-converse.js";
export { gemini } from "./gemini.js";
export { openaiChat } from "./openai-chat.js";
export { openaiResponses } from "./openai-responses.js";
