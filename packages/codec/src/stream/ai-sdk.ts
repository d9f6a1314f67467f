/**
 * The AI SDK's streamed tool input in the source form (issue 28), with no
 * `ai` import: a transform for `streamText({ experimental_transform })`.
 *
 * How the SDK shows a call being written: the UI message stream concatenates
 * a call's `tool-input-delta` texts and shows `parsePartialJson(text so far)`
 * as the tool part's `input` in state `input-streaming`. With a strict wire
 * that is the wire form. This transform feeds each strictwire call's deltas
 * to its codec's stream decoder and rewrites them, so that the concatenated
 * deltas are always a prefix of the JSON text of the partial source value
 * (its last string, array or object left open, which parsePartialJson
 * closes). A delta is rewritten to what the new partial value's text adds
 * to the text already sent; a delta that adds nothing is dropped.
 *
 * That is honest only while each partial value's text extends the last
 * one's; the decoder's partials grow at their end (a string's prefix, the
 * element or member being written), and members keep the order they were
 * first sent in. When one does not (a value replaced, not grown: a map key
 * written twice, which decode refuses only at the end), nothing
 * more is sent for that call: the UI holds the last partial value until
 * the call ends (the decoded input in state `input-available`, or the
 * SDK's tool error for a call that does not decode).
 * The same holds after an early refusal, which `onRefusal` reports so the
 * caller may abort the request.
 *
 * The other parts pass unchanged: the `tool-call` part's `input` is what the
 * SDK validated through the tool's input schema (`aiSdkTool` decodes there),
 * and the SDK has parsed and started the call before any transform runs.
 * A tool with no codec in `codecs` keeps its deltas as they are.
 *
 * Cost: a push that only grows the string being written (most of them)
 * writes only what it gained; any other change writes the partial value's
 * text again and checks it extends what was sent.
 */
import type { Codec } from "../codec.js";
import type { CodecError } from "../errors.js";
import type { StreamDecoder } from "./types.js";

/** The stream parts the transform reads (the fields ai 6 and ai 7 share); others pass through. */
export type AiSdkStreamPart =
  | {
      readonly type: "tool-input-start";
      readonly id: string;
      readonly toolName: string;
      readonly inputEncoding?: "json" | "text";
    }
  | { readonly type: "tool-input-delta"; readonly id: string; readonly delta: string }
  | { readonly type: "tool-input-end"; readonly id: string }
  | { readonly type: string };

export interface AiSdkRefusal {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The error `decode` gives the whole text: the text so far can no longer decode. */
  readonly error: CodecError;
}

export interface AiSdkStreamOptions {
  /** A call's text can no longer decode (once per call): e.g. abort the request. */
  readonly onRefusal?: (refusal: AiSdkRefusal) => void;
}

/**
 * `streamText({ tools, experimental_transform: aiSdkSourceInput(codecs) })`:
 * the streamed input of each tool in `codecs` shows in the source form.
 */
export function aiSdkSourceInput(
  codecs: Readonly<Record<string, Codec<unknown>>>,
  options: AiSdkStreamOptions = {},
): <P extends AiSdkStreamPart>(sdk: { readonly stopStream: () => void }) => TransformStream<P, P> {
  return <P extends AiSdkStreamPart>() => {
    const calls = new Map<string, SourceInputCall>();
    return new TransformStream<P, P>({
      transform(part, controller) {
        const call = "id" in part && typeof part.id === "string" ? calls.get(part.id) : undefined;
        if (part.type === "tool-input-start" && "toolName" in part && typeof part.toolName === "string") {
          // A call whose deltas are plain text (not JSON) is not a codec's to read.
          if ("inputEncoding" in part && part.inputEncoding === "text") return controller.enqueue(part);
          const codec = Object.hasOwn(codecs, part.toolName) ? codecs[part.toolName] : undefined;
          if (codec !== undefined) calls.set(part.id, new SourceInputCall(part.id, part.toolName, codec, options));
        } else if (part.type === "tool-input-delta" && "delta" in part && call !== undefined) {
          const delta = call.push(part.delta);
          if (delta !== "") controller.enqueue({ ...part, delta });
          return;
        } else if (part.type === "tool-input-end" && call !== undefined) {
          const closing = call.close();
          if (closing !== "") controller.enqueue({ type: "tool-input-delta", id: call.id, delta: closing } as P);
          calls.delete(call.id);
        }
        controller.enqueue(part);
      },
    });
  };
}

/** The string at the end of the text sent: the containers down to it, the key of each step, its value. */
interface Leaf {
  readonly holders: readonly object[];
  readonly keys: readonly (string | number)[];
  value: string;
}

/** One call: its decoder, and the source text sent so far. */
class SourceInputCall {
  private readonly decoder: StreamDecoder<unknown>;
  /** What the deltas sent so far concatenate to: the partial value's text, its last containers open. */
  private sent = "";
  /** The closers that would complete `sent`. */
  private closers = "";
  /** No more deltas: refused, or a partial value that does not extend the text sent. */
  private held = false;
  /** The string being written at the end of the value, when there is one. */
  private leaf: Leaf | undefined;
  /** Each object's member names in the order first sent (JSON.stringify would put integer-like names first). */
  private readonly order = new WeakMap<object, string[]>();

  constructor(
    readonly id: string,
    private readonly toolName: string,
    codec: Codec<unknown>,
    private readonly options: AiSdkStreamOptions,
  ) {
    this.decoder = codec.streamDecoder();
  }

  /** The delta to send for the model's `delta` ("" for none). */
  push(delta: string): string {
    if (this.held) return "";
    const step = this.decoder.push(delta);
    if (!step.ok) {
      this.held = true;
      this.options.onRefusal?.({ toolCallId: this.id, toolName: this.toolName, error: step.error });
      return "";
    }
    if (!step.changed || step.value === undefined) return "";
    const grown = this.grownLeaf(step.value);
    if (grown !== undefined) {
      this.sent += grown;
      return grown;
    }
    const closers: string[] = [];
    const text = this.write(step.value, closers);
    if (!text.startsWith(this.sent)) {
      this.held = true;
      return "";
    }
    const added = text.slice(this.sent.length);
    this.sent = text;
    this.closers = closers.reverse().join("");
    this.leaf = this.leafOf(step.value);
    return added;
  }

  /**
   * Most pushes only grow the string at the end of the value (the text being
   * written): then only what it gained is written, so a long string costs
   * its length once, not once per delta. undefined when the push did more.
   */
  private grownLeaf(root: unknown): string | undefined {
    const leaf = this.leaf;
    if (leaf === undefined) return undefined;
    let v = root;
    for (const [i, holder] of leaf.holders.entries()) {
      if (v !== holder) return undefined;
      const key = leaf.keys[i];
      if (Array.isArray(holder)) {
        if (key !== holder.length - 1) return undefined;
      } else {
        // Still the last member, and no member added or removed since it was written.
        const names = this.order.get(holder);
        if (names === undefined || names.at(-1) !== key || Object.keys(holder).length !== names.length) {
          return undefined;
        }
      }
      v = (holder as Record<string | number, unknown>)[key as string | number];
    }
    const was = leaf.value;
    if (typeof v !== "string" || v.length <= was.length) return undefined;
    // The decoder's strings grow at their end (its promise, property-tested against decode); the seam is checked.
    const seam = Math.max(0, was.length - 16);
    if (v.slice(seam, was.length) !== was.slice(seam)) return undefined;
    leaf.value = v;
    return JSON.stringify(v.slice(was.length)).slice(1, -1);
  }

  /** The string at the end of the value's last members and elements, with the containers above it. */
  private leafOf(root: unknown): Leaf | undefined {
    const holders: object[] = [];
    const keys: (string | number)[] = [];
    let v = root;
    while (typeof v === "object" && v !== null) {
      const key = Array.isArray(v) ? v.length - 1 : this.order.get(v)?.at(-1);
      if (key === undefined || key === -1) return undefined;
      holders.push(v);
      keys.push(key);
      v = (v as Record<string | number, unknown>)[key];
    }
    return typeof v === "string" ? { holders, keys, value: v } : undefined;
  }

  /** At the call's end: the closers that make the text sent complete JSON ("" when held). */
  close(): string {
    return this.held ? "" : this.closers;
  }

  /** The value's JSON text with its last string, array or object left open (their closers pushed to `closers`). */
  private write(value: unknown, closers: string[]): string {
    if (typeof value === "string") {
      closers.push('"');
      // The decoder never shows half a surrogate pair (test/stream/ai-sdk.test.ts), which would be sent escaped.
      return JSON.stringify(value).slice(0, -1);
    }
    if (Array.isArray(value)) {
      closers.push("]");
      const items = value.map((v, i) => (i === value.length - 1 ? this.write(v, closers) : this.complete(v)));
      return `[${items.join(",")}`;
    }
    if (typeof value === "object" && value !== null) {
      closers.push("}");
      const names = this.names(value as Record<string, unknown>);
      const members = names.map((name, i) => {
        const v = (value as Record<string, unknown>)[name];
        return `${JSON.stringify(name)}:${i === names.length - 1 ? this.write(v, closers) : this.complete(v)}`;
      });
      return `{${members.join(",")}`;
    }
    return JSON.stringify(value) ?? "null";
  }

  private complete(value: unknown): string {
    const closers: string[] = [];
    return this.write(value, closers) + closers.reverse().join("");
  }

  /** The members to write, in the order first written; members holding undefined are left out, as JSON does. */
  private names(object: Record<string, unknown>): string[] {
    const known = this.order.get(object) ?? [];
    const current = Object.keys(object).filter((k) => object[k] !== undefined);
    const present = new Set(current);
    const seen = new Set(known);
    const names = [...known.filter((k) => present.has(k)), ...current.filter((k) => !seen.has(k))];
    this.order.set(object, names);
    return names;
  }
}
