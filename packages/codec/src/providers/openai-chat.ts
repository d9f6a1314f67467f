/**
 * OpenAI Chat Completions (`client.chat.completions.create`): everything
 * strictwire knows of it. Tools are `{ type: "function", function: { name,
 * parameters, strict } }`; calls are choice 0's `message.tool_calls`
 * (the choice whose `index` is 0: with n > 1 the others are alternative
 * replies, whole or streamed),
 * answered by `tool` messages naming `tool_call_id`; a cut is
 * `finish_reason` "length" or "content_filter"; a choice whose `finish_reason`
 * is null is not over, and all its calls are cut off. Structured outputs:
 * `response_format` of type `json_schema`; the answer is choice 0's
 * `message.content`, a refusal its `message.refusal`.
 *
 * Stream chunks: choice 0's `delta.tool_calls[]` with `index`; the first
 * fragment of an index carries `id` and `function.name`, every one may carry
 * `function.arguments` text. Some OpenAI-compatible servers (Ollama, Gemini's
 * compatibility endpoint, SGLang) leave `index` out: such a fragment is told
 * by its `id`, and one with neither continues the call begun last (the
 * calls stream one after another); some give every call of
 * a parallel batch the same index: a fragment naming another id there begins
 * a new call. Some send arguments before the name, some split the name over
 * fragments or repeat it on each: a call opens once its id and name have
 * come and its argument text begins,
 * with the text given before (the name's pieces joined, a repeat read once);
 * one whose id or name never comes opens with what it has when the choice
 * (or the stream) ends. The calls end when the choice has a
 * `finish_reason`; with "length" or "content_filter" the last of them is cut,
 * not ended, and a stream that stops before any `finish_reason` ends none.
 */
import type { CodecError } from "../errors.js";
import { isPlainObject, type JsonObject } from "../json.js";
import { DEFAULT_PARSE_LIMITS } from "../parse/parser.js";
import { Utf8Count } from "../parse/utf8.js";
import type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  CallStreamsOptions,
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
  indexZero,
  isStrict,
  listOf,
  NO_CALLS,
  named,
  notText,
  streams,
  streamViolation,
  stringOr,
  TOOLS_TURN,
  usageOf,
  wholeCalls,
} from "./shared.js";

// ---- shapes -------------------------------------------------------------------

export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: JsonObject;
    readonly strict: boolean;
  };
}

/** An OpenAI Chat Completions response (`client.chat.completions.create`); choice 0 is read. */
export interface ChatCompletionLike {
  readonly choices: readonly {
    readonly index?: unknown;
    readonly finish_reason?: unknown;
    readonly message?: unknown;
  }[];
}

/** `response_format` of a Chat Completions request: the answer held to `schema`. */
export interface ChatOutputFormat {
  readonly response_format: {
    readonly type: "json_schema";
    readonly json_schema: {
      readonly name: string;
      readonly description?: string;
      readonly schema: JsonObject;
      readonly strict: boolean;
    };
  };
}

/** A Chat Completions tool message answering one tool call. */
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

// ---- reading ------------------------------------------------------------------

/**
 * Choice 0 only: with n > 1 the choices are alternative replies, not calls of
 * one turn, and the one that goes back into the conversation is choice 0.
 */
export function chatCalls(completion: ChatCompletionLike): ExtractedCalls {
  return wholeCalls(readChatCalls, completion);
}

function readChatCalls(completion: ChatCompletionLike): ExtractedCalls {
  // Typed as an object, but a stored response is whatever the JSON held (`null`).
  if (!isPlainObject(completion)) return NO_CALLS;
  const choice = indexZero(completion.choices);
  if (choice === undefined) return NO_CALLS;
  const finish = choice.finish_reason;
  const truncation = finish === "length" || finish === "content_filter" ? finish : undefined;
  // A null finish_reason: the choice is not over (the SDK's snapshot of a stream), and its calls end only with it.
  const unfinished = finish === null;
  const message = isPlainObject(choice.message) ? choice.message : {};
  const calls: RawCall[] = [];
  for (const call of listOf(message.tool_calls)) {
    if (!isPlainObject(call)) continue;
    // A custom (free-text) tool call needs an answer too, or the next request is refused.
    const fn = isPlainObject(call.function) ? call.function : isPlainObject(call.custom) ? call.custom : {};
    const custom = call.type === "custom";
    calls.push({
      id: stringOr(call.id),
      name: stringOr(fn.name),
      kind: custom ? "custom" : "function",
      arguments: custom ? fn.input : fn.arguments,
      cutOff: unfinished,
    });
  }
  return { calls, truncation };
}

export function chatResults(calls: readonly AnsweredCall[]): ChatToolMessage[] {
  return calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: c.output }));
}

/** A Chat Completions call not opened yet (its id, its name or its argument text to come): what its fragments gave so far. */
interface Pending {
  id: string | undefined;
  name: string | undefined;
  /** The argument text so far, let go once the call is broken (a refused call's text is never read). */
  texts: string[];
  /** The text's code units and its UTF-8 bytes, counted once they could be past the limit. */
  units: number;
  count: Utf8Count;
  /**
   * Why the call is refused once opened: a fragment's `function` or its arguments was no text, an event was lost,
   * or its text grew past the limit before its id and name came.
   */
  broken: CodecError | undefined;
}

/** The longest name held for a call not opened yet: far past any API's (OpenAI, Anthropic and Bedrock take 64 characters). */
const NAME_HELD = 1024;

/** A fragment's arguments that are not text. */
const NOT_TEXT: unique symbol = Symbol("not text");

/** OpenAI Chat Completions stream chunks. */
export function chatCompletionsCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
  options: CallStreamsOptions = {},
): CallStreams<S> {
  const calls = new Calls(open);
  // A call waiting for its id or name holds its text: never more than a codec reads (a stream that never names it).
  const maxBytes = options.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes;
  const tooMuch = (what: string, most: number) =>
    streamViolation(`the stream sent more than ${most} bytes of a call's ${what} before its id and name`);
  /** `text` is held for `waiting`: past the limit, the call is refused and holds no more. */
  const hold = (waiting: Pending, text: string): void => {
    if (waiting.broken !== undefined) return;
    waiting.texts.push(text);
    waiting.units += text.length;
    if (waiting.count.past(waiting.units, text, () => waiting.texts.join("")))
      breakWaiting(waiting, tooMuch("arguments", maxBytes));
  };
  const breakWaiting = (waiting: Pending, error: CodecError): void => {
    waiting.broken ??= error;
    waiting.texts = [];
  };
  // Choice 0's calls by key, in the order they began, ended together when the choice finishes.
  const begun: string[] = [];
  // The calls not opened yet, by key, with what their fragments gave so far.
  const pending = new Map<string, Pending>();
  // The key of each id, and the key whose first fragment came last.
  const keyOfId = new Map<string, string>();
  let lastKey: string | undefined;
  // Per index, the key of the call begun there last (the index's own key until a second id comes).
  const atIndex = new Map<string, string>();
  /** The call of `key`, opened with what it has if it never opened (its choice or the stream ends it now). */
  const opened = (key: string): Call<S> | undefined => {
    const waiting = pending.get(key);
    if (waiting === undefined) return calls.get(key);
    // Neither: nothing to name it by, and no call to report.
    if (waiting.id === undefined && waiting.name === undefined) return undefined;
    // A call with no name names no tool (`unknown-tool`); one with no id is answered by position, as Gemini's are.
    return openWaiting(key, waiting.id ?? "", waiting.name ?? "");
  };
  const openWaiting = (key: string, id: string, name: string): Call<S> | undefined => {
    const waiting = pending.get(key)!;
    pending.delete(key);
    const call = calls.start(key, id, name);
    if (call === undefined) return undefined;
    if (waiting.broken !== undefined) calls.refuse(call, waiting.broken);
    for (const t of waiting.texts) calls.push(call, t);
    return call;
  };
  const read = streams(
    calls,
    (chunk) => {
      let last: Call<S> | undefined;
      for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
        // Choice 0 only, as a whole completion is read: with n > 1 the other choices are alternative replies,
        // whose calls are not this turn's to run.
        if (!isPlainObject(choice) || (typeof choice.index === "number" && choice.index !== 0)) continue;
        const delta = choice.delta;
        const toolCalls = isPlainObject(delta) && Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
        for (const fragment of toolCalls) {
          if (!isPlainObject(fragment)) continue;
          const fn = isPlainObject(fragment.function) ? fragment.function : {};
          const id = typeof fragment.id === "string" ? fragment.id : undefined;
          // An empty name is none (some servers repeat "" on every fragment).
          const name = typeof fn.name === "string" && fn.name !== "" ? fn.name : undefined;
          // No index (some OpenAI-compatible servers): the call its id names, a new one if it names none; with no
          // id, the call the choice began last.
          let key: string | undefined;
          if (typeof fragment.index === "number") {
            // The call begun last at this index; a fragment naming another id begins a new call there (some servers
            // give every call of a parallel batch index 0, each with its own id).
            const at = String(fragment.index);
            key = atIndex.get(at) ?? at;
            const known = calls.get(key)?.id ?? pending.get(key)?.id;
            if (id !== undefined && known !== undefined && known !== id) {
              key = keyOfId.get(id) ?? `#${id}`;
              atIndex.set(at, key);
            }
          } else if (fragment.index == null) {
            key = id === undefined ? lastKey : (keyOfId.get(id) ?? `#${id}`);
          }
          if (key === undefined) continue;
          // A fragment's `function.arguments` is the call's text, or absent (null from some servers); anything else,
          // or a `function` that is no object, would be text lost from the call.
          const given = fragment.function;
          const raw = isPlainObject(given) ? given.arguments : given;
          const text = raw == null ? undefined : typeof raw === "string" && given !== raw ? raw : NOT_TEXT;
          let call = calls.get(key);
          if (call === undefined) {
            // Opened once its id and its name have come and its arguments begin, or when its choice ends: some
            // servers send arguments before the name, some split the name over fragments. The text given before is
            // kept and pushed then, never dropped.
            let waiting = pending.get(key);
            if (waiting === undefined) {
              waiting = {
                id: undefined,
                name: undefined,
                texts: [],
                units: 0,
                count: new Utf8Count(maxBytes),
                broken: undefined,
              };
              pending.set(key, waiting);
              lastKey = key;
              begun.push(key);
            }
            waiting.id ??= id;
            // A piece of the name is appended; the name so far given again is a repeat (servers that send the whole
            // name on every fragment). Opened on its first piece, a call would be read as whichever tool that names.
            if (name !== undefined && name !== waiting.name) {
              // A name that keeps growing is bounded too (in code units: a name is no argument text).
              if ((waiting.name?.length ?? 0) + name.length > NAME_HELD)
                breakWaiting(waiting, tooMuch("name", NAME_HELD));
              else waiting.name = (waiting.name ?? "") + name;
            }
            if (id !== undefined && !keyOfId.has(id)) keyOfId.set(id, key);
            if (text === NOT_TEXT) breakWaiting(waiting, notText("tool_calls fragment's function"));
            else if (text !== undefined) hold(waiting, text);
            if (waiting.id === undefined || waiting.name === undefined || text === undefined || text === "") continue;
            call = openWaiting(key, waiting.id, waiting.name);
            if (call === undefined) continue;
          } else if (name !== undefined && name !== call.name)
            // The name changed once the arguments began: the call cannot be told for sure, so it is never run.
            calls.refuse(
              call,
              streamViolation(`the stream gave call ${call.id} the name "${name}" after "${call.name}"`),
            );
          else if (text === NOT_TEXT) calls.refuse(call, notText("tool_calls fragment's function"));
          else if (text !== undefined) calls.push(call, text);
          last = call;
        }
        if (typeof choice.finish_reason === "string") {
          // A choice's calls come one after another: only the last can be the one a cut (the token
          // limit, a content filter) ended in, and it is cut, never ended.
          const open = begun.flatMap((key) => opened(key) ?? []);
          const cutReason = choice.finish_reason === "length" || choice.finish_reason === "content_filter";
          open.forEach((call, k) => {
            last = (cutReason && k === open.length - 1 ? calls.cut(call) : calls.end(call)) ?? last;
          });
        }
      }
      return last;
    },
    // A call not opened yet may have lost a fragment too.
    (error) => {
      for (const waiting of pending.values()) breakWaiting(waiting, error);
    },
  );
  return {
    event: read.event,
    // The stream is over: a call still waiting for its id or name is opened with what it has, and cut with the rest.
    finish() {
      for (const key of [...pending.keys()]) opened(key);
      read.finish();
    },
    get calls() {
      return read.calls;
    },
  };
}

// ---- structured outputs ---------------------------------------------------------

/**
 * Choice 0 only (as for tool calls). `message.refusal` is the model's refusal
 * (`ChatCompletionMessage.refusal` in the `openai` SDK's types).
 */
function chatAnswer(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a chat completion" };
  const choice = indexZero(response.choices);
  if (choice === undefined) return { kind: "none", reason: "no choice" };
  const message = isPlainObject(choice.message) ? choice.message : {};
  const finish = choice.finish_reason;
  if (typeof message.refusal === "string" && message.refusal !== "")
    return { kind: "refused", message: message.refusal };
  if (finish === "length") return { kind: "cut", reason: "length" };
  if (finish === "content_filter") return { kind: "blocked", reason: "content_filter" };
  // Only "stop" ends the answer, as in a stream: "tool_calls" is the model's turn for tools, null no end at all.
  if (finish !== "stop") {
    return { kind: "none", reason: typeof finish === "string" ? `finish_reason ${finish}` : "no finish_reason" };
  }
  // Some compatible servers end a turn of tool calls with "stop": text beside the calls is not the answer.
  if (listOf(message.tool_calls).length > 0) return TOOLS_TURN;
  if (typeof message.content === "string" && message.content !== "") return { kind: "text", text: message.content };
  return { kind: "none", reason: "no content" };
}

/** Choice 0's `delta.content` and `delta.refusal`; its `finish_reason` "stop" ends the answer. */
function chatAnswerEvents(): (event: unknown) => readonly AnswerSignal[] {
  let calls = false;
  return (chunk) => {
    if (!isPlainObject(chunk)) return [];
    const out: AnswerSignal[] = [];
    for (const choice of listOf(chunk.choices)) {
      if (!isPlainObject(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
      const delta = isPlainObject(choice.delta) ? choice.delta : {};
      if (typeof delta.content === "string") out.push({ kind: "text", delta: delta.content });
      // Null (a chunk with no text) is common; anything else would be text lost from the answer.
      else if (delta.content != null) out.push(answerNotText("delta.content"));
      if (typeof delta.refusal === "string") out.push({ kind: "refusal", delta: delta.refusal });
      if (listOf(delta.tool_calls).length > 0) calls = true;
      const finish = choice.finish_reason;
      if (finish === "stop") out.push(calls ? { kind: "ended", read: TOOLS_TURN } : { kind: "end" });
      else if (finish === "length") out.push({ kind: "ended", read: { kind: "cut", reason: "length" } });
      else if (finish === "content_filter") {
        out.push({ kind: "ended", read: { kind: "blocked", reason: "content_filter" } });
      } else if (typeof finish === "string") {
        out.push({ kind: "ended", read: { kind: "none", reason: `finish_reason ${finish}` } });
      }
    }
    return out;
  };
}

const answer: AnswerSlot<ChatOutputFormat> = {
  format: (schema, { name, description }, strict) => ({
    response_format: {
      type: "json_schema",
      json_schema: { name, ...(description !== undefined ? { description } : {}), schema, strict },
    },
  }),
  read: chatAnswer,
  events: chatAnswerEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
  probe: (model, maxTokens, format) => ({
    model,
    ...format,
    messages: [{ role: "user", content: "Answer in the format given." }],
    max_completion_tokens: maxTokens,
  }),
};

// ---- the HTTP exchange --------------------------------------------------------

function requestTool(t: RequestTool, strict = t.strict): JsonObject {
  return { type: "function", function: { ...named(t), parameters: t.parameters, strict } };
}

const exchange: Exchange = {
  endpoint: "https://api.openai.com/v1",
  keyVariable: "OPENAI_API_KEY",
  url: (endpoint) => `${endpoint.replace(/\/+$/, "")}/chat/completions`,
  headers: (key) => ({ authorization: `Bearer ${key}` }),
  request: (s, system, user, tools) => ({
    model: s.model,
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    tools: tools.map((t) => requestTool(t)),
    tool_choice: "required",
    parallel_tool_calls: false,
    temperature: s.temperature,
    max_completion_tokens: s.maxTokens,
  }),
  repair(first, reply, call, feedback) {
    const choice = isPlainObject(reply) ? indexZero(reply.choices) : undefined;
    const messages = [
      ...(first.messages as unknown[]),
      choice?.message,
      ...chatResults([{ id: call.id, name: call.name, ok: false, output: feedback }]),
    ];
    return { ...first, messages } as JsonObject;
  },
  probe: (model, maxTokens, tools, only) => ({
    model,
    tools: tools.map((t) => requestTool(t, true)),
    tool_choice: only === undefined ? "required" : { type: "function", function: { name: only } },
    messages: [{ role: "user", content: only === undefined ? "Call one of the tools." : `Call ${only}.` }],
    max_completion_tokens: maxTokens,
  }),
  reply(body) {
    if (!isPlainObject(body)) return undefined;
    const choice = indexZero(body.choices);
    if (choice === undefined || !isPlainObject(choice.message)) return undefined;
    const read = chatCalls(body as unknown as ChatCompletionLike);
    // A custom (free-text) tool call carries no `function`: not a call of a declared function.
    const calls = read.calls.flatMap((c): ReplyCall[] =>
      c.kind !== "custom" && c.name !== undefined
        ? [{ id: c.id ?? "", name: c.name, arguments: argumentsTextOf(c.arguments) }]
        : [],
    );
    return { calls, usage: usageOf(body.usage, "prompt_tokens", "completion_tokens") };
  },
};

export const openaiChat = {
  name: "openai-chat",
  spellings: ["chat-completions", "chat"],
  target: "openai",
  tool: (b): OpenAIChatTool => ({
    type: "function",
    function: { ...named(b), parameters: b.wire, strict: isStrict(b) },
  }),
  calls: chatCalls,
  holds: (response) => Array.isArray(response.choices),
  results: chatResults,
  callStreams: chatCompletionsCallStreams,
  exchange,
  answer,
} as const satisfies ProviderApiModule<"openai-chat", OpenAIChatTool, ChatCompletionLike, ChatToolMessage>;
