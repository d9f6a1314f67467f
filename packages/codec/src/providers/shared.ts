/**
 * What the provider API modules share: reading untrusted values, the calls of
 * one stream by the key an API's events name them with, and the name and
 * strict switch of a tool definition. Nothing here knows any one API.
 */
import { type CodecError, ok, type Result } from "../errors.js";
import { callerAdvice, fail } from "../feedback/format.js";
import { parseError } from "../feedback/parse.js";
import { isPlainObject } from "../json.js";
import { DEFAULT_PARSE_LIMITS, tooLarge } from "../parse/parser.js";
import { Utf8Count } from "../parse/utf8.js";
import type { CompiledTool } from "../targets/profile.js";
import type { AnswerSignal, CallStreams, DeltaSink, ExtractedCalls, ProviderApiModule, ToolOptions } from "./api.js";

/** A response that holds no calls (or is no response: a stored `null`, a number, an array). */
export const NO_CALLS: ExtractedCalls = Object.freeze({ calls: Object.freeze([]), truncation: undefined });

/**
 * A response whose reading threw: none of its calls is given, and `truncation` says why, since a caller that takes
 * "no calls" for "the model is done" would end the turn on a response it never read.
 */
const UNREADABLE_CALLS: ExtractedCalls = Object.freeze({ calls: Object.freeze([]), truncation: "unreadable" });

/**
 * A whole response's calls as `read` gives them; a response whose reading throws (a getter or a proxy in a crafted
 * or wrapped object) holds no call, and says so (`truncation` "unreadable"): any piece of it may be lost, a call or
 * its end, so no call read before the throw is given either.
 */
export function wholeCalls<R>(read: (response: R) => ExtractedCalls, response: R): ExtractedCalls {
  try {
    return read(response);
  } catch {
    return UNREADABLE_CALLS;
  }
}

export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Token usage from the two counts an API names; undefined unless both are numbers. */
export function usageOf(u: unknown, inKey: string, outKey: string): { input: number; output: number } | undefined {
  if (!isPlainObject(u)) return undefined;
  const input = num(u[inKey]);
  const output = num(u[outKey]);
  return input !== undefined && output !== undefined ? { input, output } : undefined;
}

// ---- tool definitions ---------------------------------------------------------

/** A bundle over the target's limits, compiled with `strict: "auto"`, is sent with strict mode off. */
export function isStrict(b: CompiledTool): boolean {
  return b.nonStrict === undefined;
}

export function named(b: { readonly name: string; readonly description?: string }): {
  name: string;
  description?: string;
} {
  return b.description !== undefined ? { name: b.name, description: b.description } : { name: b.name };
}

/**
 * The module's definition of `bundle`, refused (`invalid-options`) when the
 * bundle was compiled for another target: its wire may use what this API
 * does not accept.
 */
export function checkedTool<T>(
  module: ProviderApiModule<string, T>,
  bundle: CompiledTool,
  options: ToolOptions = {},
): Result<T> {
  for (const option of Object.keys(options) as (keyof ToolOptions)[]) {
    if (options[option] !== undefined && !(module.toolOptions ?? []).includes(option)) {
      return fail("invalid-options", "", `the ${module.name} API has no tool option ${option}`);
    }
  }
  const want = module.target;
  // A fine-tuned model's wire is sent through the same APIs.
  const target = bundle.options.target === "openai-finetuned" ? "openai" : bundle.options.target;
  if (target !== want) {
    return fail(
      "invalid-options",
      "",
      `tool ${bundle.name} was compiled for the ${bundle.options.target} target; compile it with target "${want}" for ${module.name}`,
    );
  }
  return ok(module.tool(bundle, options));
}

// ---- stream events --------------------------------------------------------------

interface Call<S extends DeltaSink> {
  id: string;
  name: string;
  sink: S;
  pushed: number;
  ended: boolean;
  cut: boolean;
  refused: boolean;
  /**
   * The text pushed, kept where the API's events can restate it (to compare, never to choose), while the call's
   * end can depend on it: let go once the call is refused, and never past the sink's byte limit (`count`).
   */
  text: string[] | undefined;
  count: Utf8Count | undefined;
}

/** A stream that broke its own protocol for one call: the error every such refusal carries. */
export function streamViolation(message: string): CodecError {
  const feedback = callerAdvice("stream-violation") ?? message;
  return { code: "stream-violation", path: "", message, feedback };
}

/**
 * A delta event addressed to an open call whose text is not text: the call
 * cannot be read whole, so it is refused rather than decoded without a piece
 * (a text missing a piece can still be JSON that decodes: a path cut short).
 */
export function notText(what: string): CodecError {
  return streamViolation(`the stream sent a ${what} that carries no argument text`);
}

/** How many characters of a provider's words an error shows (answer/answer.ts clips them to this). */
export const WORDS_SHOWN = 300;

/**
 * A streamed refusal's words so far, with `more`: kept to what an error shows, and one character past it (which
 * says the words went on), so a stream that keeps refusing never grows them without bound.
 */
export function keptWords(words: string, more: string): string {
  return words.length > WORDS_SHOWN ? words : (words + more).slice(0, WORDS_SHOWN + 1);
}

/** Why a whole response's answer is read as none: one of its text blocks carries no text. */
export const TEXT_LOST = "a text block of the answer carries no text";

/**
 * Why a response that calls the caller's tools beside its text has no answer: some APIs end a turn of calls with
 * the word that ends an answer (Responses "completed", Gemini "STOP", Chat "stop" from compatible servers).
 */
export const TOOLS_TURN = {
  kind: "none",
  reason: "the response calls tools: the answer comes after their results",
} as const;

/** An answer's text delta that carries no text: the answer would lack a piece, so it is never decoded. */
export function answerNotText(what: string): AnswerSignal {
  return { kind: "violation", message: `the stream sent a ${what} that carries no answer text` };
}

/**
 * Choice or candidate 0 of a list of alternative replies: the one whose `index` is 0, or the first when it gives
 * none (proto3 JSON leaves a 0 out; the SDKs read `[0]`). A list out of order, or a stream chunk of another
 * alternative alone, is never read as 0; two that both claim it are none (either is a guess).
 */
export function indexZero(list: unknown): Record<string, unknown> | undefined {
  const items = listOf(list);
  let found: Record<string, unknown> | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isPlainObject(item)) continue;
    const index = item.index;
    if (index !== 0 && (index != null || i !== 0)) continue;
    if (found !== undefined) return undefined;
    found = item;
  }
  return found;
}

/** The calls of one stream, by whatever key the provider's events name them with. */
export class Calls<S extends DeltaSink> {
  readonly list: Call<S>[] = [];
  private readonly byKey = new Map<string, Call<S>>();
  private readonly byId = new Map<string, Call<S>>();
  /** Set while a sink runs: an exception then is the sink's (a bug), never an unreadable event. */
  inSink = false;

  /** `keepText`: the API restates a call's text at its end, so the text is kept to compare. */
  constructor(
    private readonly open: (call: { id: string; name: string }) => S,
    private readonly keepText = false,
  ) {}

  /**
   * Opens a call under `key`. A call id given twice (a tool result answers by
   * id, so two calls under one id cannot both be answered) refuses the later
   * call, and the earlier too while it is open; so does a key given twice (a
   * block index, an item id), since the events that follow name both alike.
   */
  start(key: string, id: string, name: string): Call<S> | undefined {
    const taken = this.byKey.get(key);
    if (taken !== undefined) {
      const error = streamViolation(`the stream opened a second call where call ${JSON.stringify(taken.id)} was`);
      if (!taken.ended) this.refuse(taken, error);
      // The later call is reported, refused, under a key no event names: the stream's end cuts it.
      return this.refuse(this.start(`${key}\u0000${this.list.length}`, id, name), error);
    }
    const call: Call<S> = {
      id,
      name,
      sink: this.sinkOf(id, name),
      pushed: 0,
      ended: false,
      cut: false,
      refused: false,
      text: undefined,
      count: undefined,
    };
    if (this.keepText) {
      call.text = [];
      call.count = new Utf8Count(call.sink.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes);
    }
    this.byKey.set(key, call);
    this.list.push(call);
    // An empty id (Gemini's older calls have none) names no call: they are answered by position.
    const earlier = id === "" ? undefined : this.byId.get(id);
    if (earlier !== undefined) {
      const error = streamViolation(`the stream gave the call id ${JSON.stringify(id)} to two calls`);
      // An earlier call already ended was given as it was; one still open is refused with this one.
      if (!earlier.ended) this.refuse(earlier, error);
      this.refuse(call, error);
    } else if (id !== "") this.byId.set(id, call);
    return call;
  }

  private sinkOf(id: string, name: string): S {
    this.inSink = true;
    const sink = this.open({ id, name });
    this.inSink = false;
    return sink;
  }

  get(key: string): Call<S> | undefined {
    return this.byKey.get(key);
  }

  push(call: Call<S> | undefined, delta: string): Call<S> | undefined {
    if (call === undefined || call.ended) return undefined;
    if (delta.length === 0 || call.refused) return call;
    this.inSink = true;
    call.sink.push(delta);
    this.inSink = false;
    call.pushed += delta.length;
    if (call.text !== undefined) this.keep(call, delta);
    return call;
  }

  /**
   * Keeps `delta` with the call's text, while the text can still decide its end: not once the sink refused it
   * (its end is that refusal), nor past the sink's byte limit, where the call is refused as decode refuses such a
   * text (a sink that reads past it cannot be held to the arguments restated: it is never a call to act on).
   */
  private keep(call: Call<S>, delta: string): void {
    if (call.sink.refused === true) {
      call.text = undefined;
      return;
    }
    call.text!.push(delta);
    if (!call.count!.past(call.pushed, delta, () => this.textOf(call)!)) return;
    call.text = undefined;
    const max = call.sink.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes;
    this.refuse(call, parseError(tooLarge(max).error));
  }

  /** The text pushed so far, where it is kept (undefined once let go: the call's end no longer depends on it). */
  textOf(call: Call<S>): string | undefined {
    if (call.text === undefined) return undefined;
    const whole = call.text.join("");
    call.text = [whole];
    return whole;
  }

  /** The stream broke its protocol for `call`: it is refused, and its end can only say so. */
  refuse(call: Call<S> | undefined, error: CodecError): Call<S> | undefined {
    if (call === undefined || call.refused) return call;
    call.refused = true;
    call.text = undefined;
    this.inSink = true;
    call.sink.refuse?.(error);
    this.inSink = false;
    return call;
  }

  /** The provider ended the call. */
  end(call: Call<S> | undefined): Call<S> | undefined {
    if (call === undefined || call.ended) return call;
    call.ended = true;
    this.inSink = true;
    call.sink.end();
    this.inSink = false;
    return call;
  }

  /** The call will get no more text, but the provider did not end it (a cut, a stream over). */
  cut(call: Call<S> | undefined): Call<S> | undefined {
    if (call === undefined || call.ended) return call;
    call.ended = true;
    call.cut = true;
    this.inSink = true;
    call.sink.cut?.();
    this.inSink = false;
    return call;
  }

  /** The stream is over: a call still open was never ended by the provider. */
  finish(): void {
    for (const call of this.list) this.cut(call);
  }
}

export type { Call };

/** Why the calls open when an event could not be read are refused. */
export const UNREADABLE = streamViolation(
  "the stream sent an event that could not be read (a property that throws): a call open then may lack a piece",
);

/**
 * The reader of one stream: each event that is a JSON object goes to `read`; anything else is ignored. An event
 * whose reading throws (a getter or proxy in a crafted event) may have carried a piece of any open call, so every
 * open call is refused (`unreadable` also hears it, for the calls a reader holds before opening them).
 */
export function streams<S extends DeltaSink>(
  calls: Calls<S>,
  read: (e: Record<string, unknown>) => Call<S> | undefined,
  unreadable?: (error: CodecError) => void,
): CallStreams<S> {
  return {
    event: (event: unknown) => {
      if (!isPlainObject(event)) return undefined;
      // try/catch costs nothing on the common path; the event is read once, by `read`.
      try {
        return read(event);
      } catch (thrown) {
        if (calls.inSink) {
          calls.inSink = false;
          throw thrown;
        }
        unreadable?.(UNREADABLE);
        let last: Call<S> | undefined;
        for (const call of calls.list) if (!call.ended) last = calls.refuse(call, UNREADABLE) ?? last;
        return last;
      }
    },
    finish: () => calls.finish(),
    get calls() {
      return calls.list;
    },
  } satisfies CallStreams<S>;
}

/**
 * A text API's call arguments as the text a reply is scored as: text as it came, "" when absent, any other value as
 * its JSON text (the dispatcher decodes an object as its JSON text too). `String()` gave "[object Object]", and threw
 * on an object whose `toString` is no function (`{"toString": 5}` from the network).
 */
export function argumentsTextOf(args: unknown): string {
  if (typeof args === "string") return args;
  return args == null ? "" : inputText(args);
}

/** An input object as text: `{}` when absent; nothing for what JSON cannot write (a crafted event, nesting past the stack). */
export function inputText(input: unknown): string {
  if (input === undefined) return "{}";
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return "";
  }
}
