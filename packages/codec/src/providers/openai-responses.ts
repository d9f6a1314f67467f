/**
 * The OpenAI Responses API (`client.responses.create`): everything strictwire
 * knows of it. Tools are `{ type: "function", name, parameters, strict }`;
 * calls are `function_call` output items, answered by `function_call_output`
 * input items naming their `call_id`; a cut is `status: "incomplete"` with
 * `incomplete_details.reason`; an item `incomplete` or `in_progress` is a call
 * cut off. Structured outputs: `text.format` of type
 * `json_schema`; the answer is the `output_text` parts of its `message`
 * items, a refusal a `refusal` part.
 *
 * Stream events: `response.output_item.added` with a `function_call` item
 * (its `id`, `call_id`, `name`) opens a call; `response.function_call_arguments.delta`
 * (`item_id`, `delta`) feeds it; `response.function_call_arguments.done`
 * (`item_id`, `arguments`), or else `response.output_item.done` with the
 * item, ends it. The text is given once, whichever event carries it: the
 * deltas when any came, otherwise the `arguments` the item or `done` carries;
 * an event that restates the arguments must agree with the deltas, or the
 * call is refused (`stream-violation`), never silently resolved. A `call_id`
 * given to two items refuses both.
 */
import { isPlainObject, type JsonObject } from "../json.js";
import type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  DeltaSink,
  Exchange,
  ExtractedCalls,
  ProviderApiModule,
  RawCall,
  ReplyCall,
  RequestTool,
} from "./api.js";
import {
  answerNotText,
  argumentsTextOf,
  type Call,
  Calls,
  isStrict,
  listOf,
  NO_CALLS,
  named,
  notText,
  streams,
  streamViolation,
  stringOr,
  TEXT_LOST,
  TOOLS_TURN,
  usageOf,
  wholeCalls,
} from "./shared.js";

// ---- shapes -------------------------------------------------------------------

export interface OpenAIResponsesTool {
  readonly type: "function";
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonObject;
  /** false only for a bundle compiled with `strict: "auto"` over the target's limits (`bundle.nonStrict`). */
  readonly strict: boolean;
}

/** An OpenAI Responses API response (`client.responses.create`). */
export interface ResponsesResponseLike {
  readonly status?: unknown;
  readonly incomplete_details?: unknown;
  readonly output: readonly ResponsesOutputItemLike[];
}

export interface ResponsesOutputItemLike {
  readonly type?: unknown;
  /** The item's own id (fc_…); never the call's, which is `call_id`. */
  readonly id?: unknown;
  readonly call_id?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
  readonly status?: unknown;
}

/** A Responses API input item answering one function call. */
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** `text.format` of a Responses request: the answer held to `schema`. */
export interface ResponsesOutputFormat {
  readonly text: {
    readonly format: {
      readonly type: "json_schema";
      readonly name: string;
      readonly description?: string;
      readonly schema: JsonObject;
      readonly strict: boolean;
    };
  };
}

// ---- reading ------------------------------------------------------------------

export function responsesCalls(response: ResponsesResponseLike): ExtractedCalls {
  return wholeCalls(readResponsesCalls, response);
}

function readResponsesCalls(response: ResponsesResponseLike): ExtractedCalls {
  // Typed as an object, but a stored response is whatever the JSON held (`null`).
  if (!isPlainObject(response)) return NO_CALLS;
  let truncation: string | undefined;
  if (response.status === "incomplete") {
    const reason = isPlainObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    truncation = typeof reason === "string" ? reason : "incomplete";
  }
  const calls: RawCall[] = [];
  for (const item of listOf(response.output)) {
    if (!isPlainObject(item) || item.type !== "function_call") continue;
    // No fallback to `id` (the item id, fc_…): an answer must name call_id, and
    // the API refuses one that names anything else.
    calls.push({
      id: stringOr(item.call_id),
      name: stringOr(item.name),
      kind: "function",
      arguments: item.arguments,
      // "in_progress": the item is not done (a background response, the SDK's snapshot of a stream).
      cutOff: item.status === "incomplete" || item.status === "in_progress",
    });
  }
  return { calls, truncation };
}

export function responsesResults(calls: readonly AnsweredCall[]): ResponsesFunctionCallOutput[] {
  return calls.map((c) => ({ type: "function_call_output", call_id: c.id, output: c.output }));
}

/** OpenAI Responses API stream events. */
export function responsesCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open, true);
  // The arguments an item carried when it was added, given only if no delta comes.
  const announced = new Map<Call<S>, string>();
  /** The provider ended the call; `restated` is the whole text as its end event gives it, if it does. */
  const close = (call: Call<S> | undefined, restated: unknown): Call<S> | undefined => {
    if (call === undefined || call.ended) return call;
    const given = typeof restated === "string" && restated !== "" ? restated : announced.get(call);
    if (call.pushed === 0) {
      if (given !== undefined) calls.push(call, given);
    } else {
      // Not kept once the call's end no longer depends on it (refused, or past the byte limit): nothing to compare.
      const text = calls.textOf(call);
      for (const other of [announced.get(call), typeof restated === "string" ? restated : undefined]) {
        if (text !== undefined && other !== undefined && other !== "" && other !== text) {
          calls.refuse(
            call,
            streamViolation("the streamed argument deltas and the arguments the stream restates disagree"),
          );
        }
      }
    }
    return calls.end(call);
  };
  return streams(calls, (e) => {
    if (e.type === "response.output_item.added" || e.type === "response.output_item.done") {
      const item = e.item;
      if (!isPlainObject(item) || item.type !== "function_call") return undefined;
      const { id, call_id: callId, name } = item;
      if (typeof callId !== "string" || typeof name !== "string") return undefined;
      // The argument events name the item by its id (optional in the SDK's type; the call id stands in).
      const key = typeof id === "string" ? id : callId;
      if (e.type === "response.output_item.done") return close(calls.get(key), item.arguments);
      const call = calls.start(key, callId, name);
      if (call !== undefined && typeof item.arguments === "string" && item.arguments !== "") {
        announced.set(call, item.arguments);
      }
      return call;
    }
    if (typeof e.item_id !== "string") return undefined;
    const call = calls.get(e.item_id);
    if (e.type === "response.function_call_arguments.delta") {
      return typeof e.delta === "string"
        ? calls.push(call, e.delta)
        : calls.refuse(call, notText(`response.function_call_arguments.delta for item ${e.item_id}`));
    }
    if (e.type === "response.function_call_arguments.done") return close(call, e.arguments);
    return undefined;
  });
}

// ---- structured outputs ---------------------------------------------------------

/** Output item types that are calls of the caller's own tools (the server runs its built-in ones itself). */
const CALLER_CALLS = new Set(["function_call", "custom_tool_call"]);

const holdsCalls = (response: unknown): boolean =>
  isPlainObject(response) &&
  listOf(response.output).some((i) => isPlainObject(i) && CALLER_CALLS.has(i.type as string));

function responsesAnswer(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a response" };
  let text = "";
  for (const item of listOf(response.output)) {
    if (!isPlainObject(item) || item.type !== "message") continue;
    for (const part of listOf(item.content)) {
      if (!isPlainObject(part)) continue;
      if (part.type === "refusal" && typeof part.refusal === "string")
        return { kind: "refused", message: part.refusal };
      if (part.type !== "output_text") continue;
      // An output_text part without text would leave the answer short of a piece: no answer, never a shorter one.
      if (typeof part.text !== "string") return { kind: "none", reason: TEXT_LOST };
      text += part.text;
    }
  }
  if (response.status === "incomplete") {
    const reason = isPlainObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    return reason === "content_filter"
      ? { kind: "blocked", reason }
      : { kind: "cut", reason: typeof reason === "string" ? reason : "incomplete" };
  }
  // Only a completed response has ended its answer (a background one may be queued, in progress or cancelled).
  if (response.status !== "completed") {
    return { kind: "none", reason: typeof response.status === "string" ? `status ${response.status}` : "no status" };
  }
  // The status says completed for a turn of calls too: text beside them is not the answer (as Chat's "tool_calls").
  if (holdsCalls(response)) return TOOLS_TURN;
  return text === "" ? { kind: "none", reason: "no output_text" } : { kind: "text", text };
}

/**
 * The answer ends at `response.completed`, the response's own end:
 * `response.output_text.done` closes a text part even when the response then
 * ends incomplete, so it only restates the part: its text stands in for
 * deltas that never came, and one that differs from the deltas that came
 * (a delta lost on the way) fails the answer, never resolved by picking one.
 */
function responsesAnswerEvents(): (event: unknown) => readonly AnswerSignal[] {
  // Each text part's text so far, by its item and index.
  const parts = new Map<string, string>();
  const partOf = (e: Record<string, unknown>): string => `${String(e.item_id)} ${String(e.content_index)}`;
  let calls = false;
  return (e) => {
    if (!isPlainObject(e)) return [];
    switch (e.type) {
      case "response.output_item.added":
      case "response.output_item.done":
        if (isPlainObject(e.item) && CALLER_CALLS.has(e.item.type as string)) calls = true;
        return [];
      case "response.output_text.delta": {
        if (typeof e.delta !== "string") return [answerNotText("response.output_text.delta")];
        const part = partOf(e);
        parts.set(part, (parts.get(part) ?? "") + e.delta);
        return [{ kind: "text", delta: e.delta }];
      }
      case "response.output_text.done": {
        if (typeof e.text !== "string") return [];
        const part = partOf(e);
        const streamed = parts.get(part);
        parts.set(part, e.text);
        if (streamed === undefined) return [{ kind: "text", delta: e.text }];
        return streamed === e.text
          ? []
          : [
              {
                kind: "violation",
                message: "the stream's response.output_text.done restates a text its deltas did not give",
              },
            ];
      }
      case "response.refusal.delta":
        return typeof e.delta === "string" ? [{ kind: "refusal", delta: e.delta }] : [];
      case "response.completed":
        return [calls || holdsCalls(e.response) ? { kind: "ended", read: TOOLS_TURN } : { kind: "end" }];
      case "response.incomplete": {
        // The event says the response is incomplete, whatever status its response object holds.
        const read = responsesAnswer({ ...(isPlainObject(e.response) ? e.response : {}), status: "incomplete" });
        return [{ kind: "ended", read: read.kind === "text" ? { kind: "cut", reason: "incomplete" } : read }];
      }
      case "response.failed":
        return [{ kind: "ended", read: { kind: "none", reason: "response.failed" } }];
      default:
        return [];
    }
  };
}

const answer: AnswerSlot<ResponsesOutputFormat> = {
  format: (schema, { name, description }, strict) => ({
    text: {
      format: { type: "json_schema", name, ...(description !== undefined ? { description } : {}), schema, strict },
    },
  }),
  read: responsesAnswer,
  events: responsesAnswerEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
  probe: (model, maxTokens, format) => ({
    model,
    ...format,
    input: [{ role: "user", content: "Answer in the format given." }],
    max_output_tokens: maxTokens,
    store: false,
  }),
};

// ---- the HTTP exchange --------------------------------------------------------

function requestTool(t: RequestTool, strict = t.strict): JsonObject {
  return { type: "function", ...named(t), parameters: t.parameters, strict };
}

const exchange: Exchange = {
  endpoint: "https://api.openai.com/v1",
  keyVariable: "OPENAI_API_KEY",
  url: (endpoint) => `${endpoint.replace(/\/+$/, "")}/responses`,
  headers: (key) => ({ authorization: `Bearer ${key}` }),
  request: (s, system, user, tools) => ({
    model: s.model,
    instructions: system,
    input: [{ role: "user", content: user }],
    tools: tools.map((t) => requestTool(t)),
    tool_choice: "required",
    parallel_tool_calls: false,
    temperature: s.temperature,
    max_output_tokens: s.maxTokens,
    store: false,
  }),
  repair(first, reply, call, feedback) {
    const output = isPlainObject(reply) ? (reply.output as unknown[]) : [];
    const input = [
      ...(first.input as unknown[]),
      ...output,
      ...responsesResults([{ id: call.id, name: call.name, ok: false, output: feedback }]),
    ];
    return { ...first, input } as JsonObject;
  },
  probe: (model, maxTokens, tools, only) => ({
    model,
    tools: tools.map((t) => requestTool(t, true)),
    tool_choice: only === undefined ? "required" : { type: "function", name: only },
    input: [{ role: "user", content: only === undefined ? "Call one of the tools." : `Call ${only}.` }],
    max_output_tokens: maxTokens,
    store: false,
  }),
  reply(body) {
    if (!isPlainObject(body) || !Array.isArray(body.output)) return undefined;
    return {
      calls: replyCalls(responsesCalls(body as unknown as ResponsesResponseLike)),
      usage: usageOf(body.usage, "input_tokens", "output_tokens"),
    };
  },
};

/** The arguments travel as text. */
function replyCalls(read: ExtractedCalls): ReplyCall[] {
  return read.calls.flatMap((c): ReplyCall[] =>
    c.kind !== "custom" && c.name !== undefined
      ? [{ id: c.id ?? "", name: c.name, arguments: argumentsTextOf(c.arguments) }]
      : [],
  );
}

export const openaiResponses = {
  name: "openai-responses",
  spellings: ["responses"],
  target: "openai",
  tool: (b): OpenAIResponsesTool => ({ type: "function", ...named(b), parameters: b.wire, strict: isStrict(b) }),
  calls: responsesCalls,
  holds: (response) => Array.isArray(response.output),
  results: responsesResults,
  callStreams: responsesCallStreams,
  exchange,
  answer,
} as const satisfies ProviderApiModule<
  "openai-responses",
  OpenAIResponsesTool,
  ResponsesResponseLike,
  ResponsesFunctionCallOutput
>;
