/**
 * Amazon Bedrock Converse (`ConverseCommand`, `ConverseStreamCommand` of
 * `@aws-sdk/client-bedrock-runtime`): everything strictwire knows of it.
 * Read off the SDK's shipped types (3.1178.0, `models/models_0.d.ts`,
 * `models/enums.d.ts`), as the AWS documentation was not read from here.
 *
 * - Tools: `toolConfig.tools[]`, each `{ toolSpec: { name, description,
 *   inputSchema: { json }, strict } }`. `ToolSpecification.strict`: "Flag to
 *   enable structured output enforcement on a tool usage response". Which
 *   models honour it the types do not say: decode holds the contract either way.
 * - The wire follows the `anthropic` profile: Bedrock's strict tool use is
 *   Anthropic's structured outputs for the Claude models it hosts.
 * - Calls: `output.message.content[]` blocks holding `toolUse` (`toolUseId`,
 *   `name`, `input` as a document, i.e. an object). A `toolUse` of type
 *   "server_tool_use" is run by Bedrock itself and is not the caller's to answer.
 * - Cut: `stopReason` "max_tokens", "model_context_window_exceeded" or
 *   "content_filtered" (the enum `StopReason`). A response with no
 *   `stopReason` (the SDK's types make it required) is not known to be over
 *   (one put together from a stream that dropped): every call of it is cut, as
 *   for an Anthropic message whose `stop_reason` is null.
 * - Results: one user message of `toolResult` blocks (`toolUseId`,
 *   `content: [{ text }]`, `status: "error"` when the call failed).
 * - Stream events, as the SDK yields them once it has decoded AWS's binary
 *   event-stream framing: `contentBlockStart.start.toolUse` (`toolUseId`,
 *   `name`) at `contentBlockIndex` opens a call; `contentBlockDelta.delta.toolUse.input`
 *   (text) feeds it; `contentBlockStop` ends it; `messageStop` (with its
 *   `stopReason`) cuts every call still open: the provider never ended it, so
 *   it is never decoded (streamCalls' `cut`). A toolUse block ended with no
 *   input delta had no arguments: `{}` is pushed, as for Anthropic.
 * - Structured outputs: `outputConfig.textFormat`, `{ type: "json_schema",
 *   structure: { jsonSchema: { schema, name, description } } }` with the schema
 *   as a JSON string (`JsonSchemaDefinition.schema: string`); no strict switch.
 *   The answer is `output.message.content[]`'s `text` blocks; streamed, the
 *   `contentBlockDelta.delta.text` texts, ended by `messageStop` with a
 *   `stopReason` of "end_turn" or "stop_sequence"; "content_filtered" and
 *   "guardrail_intervened" are a block.
 */
import { isPlainObject, type JsonObject } from "../json.js";
import type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  DeltaSink,
  ExtractedCalls,
  ProviderApiModule,
  RawCall,
} from "./api.js";
import {
  answerNotText,
  Calls,
  isStrict,
  listOf,
  NO_CALLS,
  named,
  notText,
  streams,
  stringOr,
  TEXT_LOST,
  wholeCalls,
} from "./shared.js";

// ---- shapes -------------------------------------------------------------------

export interface BedrockConverseTool {
  readonly toolSpec: {
    readonly name: string;
    readonly description?: string;
    readonly inputSchema: { readonly json: JsonObject };
    readonly strict: boolean;
  };
}

/** A Converse response (`ConverseCommandOutput`): `output.message` is read. */
export interface ConverseResponseLike {
  readonly output?: unknown;
  readonly stopReason?: unknown;
}

export interface ConverseToolResultBlock {
  toolResult: {
    toolUseId: string;
    content: [{ text: string }];
    /** Set ("error") only when the call did not succeed. */
    status?: "error";
  };
}

/** The one user message carrying every tool result of a turn, in call order. */
export interface ConverseToolResultMessage {
  role: "user";
  content: ConverseToolResultBlock[];
}

const CUT = new Set(["max_tokens", "model_context_window_exceeded", "content_filtered"]);

/** `outputConfig` of a Converse request: the answer held to the schema (sent as JSON text). */
export interface ConverseOutputFormat {
  readonly outputConfig: {
    readonly textFormat: {
      readonly type: "json_schema";
      readonly structure: {
        readonly jsonSchema: { readonly schema: string; readonly name: string; readonly description?: string };
      };
    };
  };
}

// ---- reading ------------------------------------------------------------------

export function converseCalls(response: ConverseResponseLike): ExtractedCalls {
  return wholeCalls(readConverseCalls, response);
}

function readConverseCalls(response: ConverseResponseLike): ExtractedCalls {
  // Typed as an object, but a stored response is whatever the JSON held (`null`).
  if (!isPlainObject(response)) return NO_CALLS;
  const stop = response.stopReason;
  const truncation = typeof stop === "string" && CUT.has(stop) ? stop : undefined;
  // No stopReason: the response is not known to be over, so none of its calls is known to be whole.
  const unfinished = stop === undefined || stop === null;
  const output = isPlainObject(response.output) ? response.output : {};
  const message = isPlainObject(output.message) ? output.message : {};
  const content = listOf(message.content);
  const calls: RawCall[] = [];
  content.forEach((block, i) => {
    if (!isPlainObject(block) || !isPlainObject(block.toolUse)) return;
    const use = block.toolUse;
    if (use.type === "server_tool_use") return;
    calls.push({
      id: stringOr(use.toolUseId),
      name: stringOr(use.name),
      kind: "function",
      arguments: use.input,
      // The input is an object, so a cut shows no syntax error: the block the output ended in is not trusted.
      cutOff: unfinished || (truncation !== undefined && i === content.length - 1),
    });
  });
  return { calls, truncation };
}

/** One user message of `toolResult` blocks (none when there were no calls). */
export function converseResults(calls: readonly AnsweredCall[]): ConverseToolResultMessage[] {
  if (calls.length === 0) return [];
  const content = calls.map(
    (c): ConverseToolResultBlock => ({
      toolResult: {
        toolUseId: c.id,
        content: [{ text: c.output }],
        ...(c.ok ? {} : { status: "error" as const }),
      },
    }),
  );
  return [{ role: "user", content }];
}

/** Converse stream events, as the SDK yields them (`response.stream`). */
export function converseCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  const index = (event: Record<string, unknown>): string | undefined =>
    typeof event.contentBlockIndex === "number" ? String(event.contentBlockIndex) : undefined;
  return streams(calls, (e) => {
    if (isPlainObject(e.contentBlockStart)) {
      const key = index(e.contentBlockStart);
      const start = e.contentBlockStart.start;
      const use = isPlainObject(start) ? start.toolUse : undefined;
      if (key === undefined || !isPlainObject(use) || use.type === "server_tool_use") return undefined;
      if (typeof use.toolUseId !== "string" || typeof use.name !== "string") return undefined;
      return calls.start(key, use.toolUseId, use.name);
    }
    if (isPlainObject(e.contentBlockDelta)) {
      const key = index(e.contentBlockDelta);
      const delta = e.contentBlockDelta.delta;
      const use = isPlainObject(delta) ? delta.toolUse : undefined;
      if (key === undefined) return undefined;
      // A tool block's deltas are its input's text: one that is not would be text lost from the call.
      if (!isPlainObject(use) || typeof use.input !== "string") {
        return calls.refuse(calls.get(key), notText(`contentBlockDelta for the toolUse block at index ${key}`));
      }
      return calls.push(calls.get(key), use.input);
    }
    if (isPlainObject(e.contentBlockStop)) {
      const key = index(e.contentBlockStop);
      const call = key === undefined ? undefined : calls.get(key);
      if (call !== undefined && call.pushed === 0) calls.push(call, "{}");
      return calls.end(call);
    }
    // The message is over, whatever its stop reason: a call still open was never ended, and is cut.
    if (isPlainObject(e.messageStop)) calls.finish();
    return undefined;
  });
}

// ---- structured outputs ---------------------------------------------------------

/** Stop reasons that cut the answer, and those that say a filter stopped it (the enum `StopReason`). */
const ANSWER_CUT = new Set(["max_tokens", "model_context_window_exceeded"]);
const ANSWER_BLOCKED = new Set(["content_filtered", "guardrail_intervened"]);

function answerEnd(stop: unknown): AnswerSignal {
  if (stop === "end_turn" || stop === "stop_sequence") return { kind: "end" };
  if (typeof stop === "string" && ANSWER_CUT.has(stop)) return { kind: "ended", read: { kind: "cut", reason: stop } };
  if (typeof stop === "string" && ANSWER_BLOCKED.has(stop)) {
    return { kind: "ended", read: { kind: "blocked", reason: stop } };
  }
  return {
    kind: "ended",
    read: { kind: "none", reason: typeof stop === "string" ? `stopReason ${stop}` : "no stopReason" },
  };
}

function converseAnswer(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a Converse response" };
  const end = answerEnd(response.stopReason);
  if (end.kind === "ended") return end.read;
  const output = isPlainObject(response.output) ? response.output : {};
  const message = isPlainObject(output.message) ? output.message : {};
  let text = "";
  for (const block of listOf(message.content)) {
    if (!isPlainObject(block) || block.text == null) continue;
    // A text block without text would leave the answer short of a piece: no answer, never a shorter one.
    if (typeof block.text !== "string") return { kind: "none", reason: TEXT_LOST };
    text += block.text;
  }
  return text === "" ? { kind: "none", reason: "no text" } : { kind: "text", text };
}

/** ConverseStream events as the SDK yields them: `contentBlockDelta.delta.text`, then `messageStop`. */
function converseAnswerEvents(): (event: unknown) => readonly AnswerSignal[] {
  return (e) => {
    if (!isPlainObject(e)) return [];
    const delta = isPlainObject(e.contentBlockDelta) ? e.contentBlockDelta.delta : undefined;
    if (isPlainObject(delta) && typeof delta.text === "string") return [{ kind: "text", delta: delta.text }];
    if (isPlainObject(delta) && delta.text != null) return [answerNotText("contentBlockDelta text")];
    if (isPlainObject(e.messageStop)) return [answerEnd(e.messageStop.stopReason)];
    return [];
  };
}

const answer: AnswerSlot<ConverseOutputFormat> = {
  format: (schema, { name, description }, strict) =>
    strict
      ? {
          outputConfig: {
            textFormat: {
              type: "json_schema",
              structure: {
                jsonSchema: {
                  schema: JSON.stringify(schema),
                  name,
                  ...(description !== undefined ? { description } : {}),
                },
              },
            },
          },
        }
      : 'bedrock-converse has no non-strict answer format: this bundle is over the target\'s limits (compiled with strict: "auto"); make the schema fit the limits',
  read: converseAnswer,
  events: converseAnswerEvents,
  answerMessage: (text) => ({ role: "assistant", content: [{ text }] }),
  repairMessage: (feedback) => ({ role: "user", content: [{ text: feedback }] }),
};

export const bedrockConverse = {
  name: "bedrock-converse",
  spellings: [],
  target: "anthropic",
  tool: (b): BedrockConverseTool => ({
    toolSpec: { ...named(b), inputSchema: { json: b.wire }, strict: isStrict(b) },
  }),
  calls: converseCalls,
  holds: (response) => isPlainObject(response.output) && isPlainObject(response.output.message),
  results: converseResults,
  callStreams: converseCallStreams,
  answer,
} as const satisfies ProviderApiModule<
  "bedrock-converse",
  BedrockConverseTool,
  ConverseResponseLike,
  ConverseToolResultMessage
>;
