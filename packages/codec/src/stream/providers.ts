/**
 * Provider stream events to per-call delta sequences (issue 28): each tool
 * call a provider streams gets its own sink, fed the call's argument text
 * delta by delta and ended when the provider says the call is complete. The
 * sink is anything with push and end: the incremental parser today, a
 * streaming decoder later.
 *
 * Events are untrusted: anything that is not the expected shape is ignored
 * (returns undefined), never thrown on. A delta for a call that was never
 * opened, or after it ended, is ignored too.
 *
 * Shapes read:
 * - OpenAI Responses: `response.output_item.added` with a `function_call`
 *   item (its `id`, `call_id`, `name`) opens a call; `response.function_call_arguments.delta`
 *   (`item_id`, `delta`) feeds it; `response.function_call_arguments.done`
 *   (`item_id`, `arguments`) ends it. The deltas are the text; `done`'s
 *   `arguments` is pushed only when no delta came.
 * - Chat Completions chunks: `choices[].delta.tool_calls[]` with `index`; the
 *   first fragment of an index carries `id` and `function.name`, every one
 *   may carry `function.arguments` text. A choice's calls end when the choice
 *   has a `finish_reason`, or at finish().
 * - Anthropic Messages: `content_block_start` with a `tool_use` block (`id`,
 *   `name`) at `index` opens a call; `content_block_delta` with an
 *   `input_json_delta` (`partial_json`) feeds it; `content_block_stop` ends
 *   it. A tool_use block streamed with no delta has the input its start
 *   carried (`{}` for no arguments), which is pushed as its text.
 */

/** What receives one call's argument text. */
export interface DeltaSink {
  push(delta: string): unknown;
  end(): unknown;
}

export interface StreamedCall<S extends DeltaSink> {
  /** The provider's call id (Responses: `call_id`; Chat Completions, Anthropic: the tool call's `id`). */
  readonly id: string;
  readonly name: string;
  readonly sink: S;
  /** The text pushed so far, in characters. */
  readonly pushed: number;
  readonly ended: boolean;
}

export interface CallStreams<S extends DeltaSink> {
  /** Reads one stream event; the call it opened, fed or ended, if any. */
  event(event: unknown): StreamedCall<S> | undefined;
  /** The stream is over: ends every call still open. */
  finish(): void;
  /** Every call opened so far, in the order they opened. */
  readonly calls: readonly StreamedCall<S>[];
}

interface Call<S extends DeltaSink> {
  id: string;
  name: string;
  sink: S;
  pushed: number;
  ended: boolean;
}

/** The calls of one stream, by whatever key the provider's events name them with. */
class Calls<S extends DeltaSink> {
  readonly list: Call<S>[] = [];
  private readonly byKey = new Map<string, Call<S>>();

  constructor(private readonly open: (call: { id: string; name: string }) => S) {}

  start(key: string, id: string, name: string): Call<S> | undefined {
    if (this.byKey.has(key)) return undefined;
    const call: Call<S> = { id, name, sink: this.open({ id, name }), pushed: 0, ended: false };
    this.byKey.set(key, call);
    this.list.push(call);
    return call;
  }

  get(key: string): Call<S> | undefined {
    return this.byKey.get(key);
  }

  push(call: Call<S> | undefined, delta: string): Call<S> | undefined {
    if (call === undefined || call.ended) return undefined;
    if (delta.length === 0) return call;
    call.sink.push(delta);
    call.pushed += delta.length;
    return call;
  }

  end(call: Call<S> | undefined): Call<S> | undefined {
    if (call === undefined || call.ended) return call;
    call.ended = true;
    call.sink.end();
    return call;
  }

  finish(): void {
    for (const call of this.list) this.end(call);
  }
}

function streams<S extends DeltaSink>(calls: Calls<S>, read: (e: Record<string, unknown>) => Call<S> | undefined) {
  return {
    event: (event: unknown) => (isRecord(event) ? read(event) : undefined),
    finish: () => calls.finish(),
    get calls() {
      return calls.list;
    },
  } satisfies CallStreams<S>;
}

/** OpenAI Responses API stream events. */
export function responsesCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  return streams(calls, (e) => {
    if (e.type === "response.output_item.added") {
      const item = e.item;
      if (!isRecord(item) || item.type !== "function_call") return undefined;
      const { id, call_id: callId, name } = item;
      if (typeof callId !== "string" || typeof name !== "string") return undefined;
      // The argument events name the item by its id (optional in the SDK's type; the call id stands in).
      const call = calls.start(typeof id === "string" ? id : callId, callId, name);
      if (call !== undefined && typeof item.arguments === "string") calls.push(call, item.arguments);
      return call;
    }
    if (typeof e.item_id !== "string") return undefined;
    const call = calls.get(e.item_id);
    if (e.type === "response.function_call_arguments.delta") {
      return typeof e.delta === "string" ? calls.push(call, e.delta) : undefined;
    }
    if (e.type === "response.function_call_arguments.done") {
      if (call !== undefined && call.pushed === 0 && typeof e.arguments === "string") calls.push(call, e.arguments);
      return calls.end(call);
    }
    return undefined;
  });
}

/** OpenAI Chat Completions stream chunks. */
export function chatCompletionsCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  // Each choice's calls, ended together when the choice finishes.
  const byChoice = new Map<number, Call<S>[]>();
  return streams(calls, (chunk) => {
    let last: Call<S> | undefined;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      if (!isRecord(choice)) continue;
      const choiceIndex = typeof choice.index === "number" ? choice.index : 0;
      const delta = choice.delta;
      const toolCalls = isRecord(delta) && Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
      for (const fragment of toolCalls) {
        if (!isRecord(fragment) || typeof fragment.index !== "number") continue;
        const key = `${choiceIndex}:${fragment.index}`;
        const fn = isRecord(fragment.function) ? fragment.function : {};
        let call = calls.get(key);
        if (call === undefined && typeof fragment.id === "string" && typeof fn.name === "string") {
          call = calls.start(key, fragment.id, fn.name);
          if (call !== undefined) byChoice.set(choiceIndex, [...(byChoice.get(choiceIndex) ?? []), call]);
        }
        if (call !== undefined && typeof fn.arguments === "string") calls.push(call, fn.arguments);
        last = call ?? last;
      }
      if (typeof choice.finish_reason === "string") {
        for (const call of byChoice.get(choiceIndex) ?? []) last = calls.end(call) ?? last;
      }
    }
    return last;
  });
}

/** Anthropic Messages stream events. */
export function anthropicCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  // A tool_use block's input at its start, pushed at its stop when no delta came.
  const startInput = new Map<Call<S>, unknown>();
  return streams(calls, (e) => {
    if (typeof e.index !== "number") return undefined;
    const key = String(e.index);
    if (e.type === "content_block_start") {
      const block = e.content_block;
      if (!isRecord(block) || block.type !== "tool_use") return undefined;
      if (typeof block.id !== "string" || typeof block.name !== "string") return undefined;
      const call = calls.start(key, block.id, block.name);
      if (call !== undefined) startInput.set(call, block.input);
      return call;
    }
    const call = calls.get(key);
    if (e.type === "content_block_delta") {
      const delta = e.delta;
      if (!isRecord(delta) || delta.type !== "input_json_delta" || typeof delta.partial_json !== "string") {
        return undefined;
      }
      return calls.push(call, delta.partial_json);
    }
    if (e.type === "content_block_stop") {
      if (call !== undefined && call.pushed === 0) {
        const input = startInput.get(call);
        calls.push(call, inputText(input));
      }
      return calls.end(call);
    }
    return undefined;
  });
}

/** A start block's input as text: `{}` when absent; nothing for what JSON cannot write (a crafted event). */
function inputText(input: unknown): string {
  if (input === undefined) return "{}";
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return "";
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
