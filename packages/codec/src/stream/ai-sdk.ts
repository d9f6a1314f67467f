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
 * first sent in. When one does not (a value replaced, not grown, which the
 * decoder's partials never do: a map key given twice is refused early, the
 * first value still shown; kept as a guard), nothing more is sent for that call: the UI holds the last partial value until
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
 * Cost: linear in the text. Each push writes only what the partial value
 * gained; completed parts are never written again. The model's text is read
 * alongside the decoder (quotes, backslashes, the objects open and the
 * strings written in them). A push that stays inside the string being
 * written can only grow that string: what it gained is read from the text,
 * never sliced from the decoder's string (which would copy all of it, once
 * per delta). Any other change walks the open containers of the text sent,
 * each with how much of it is written: the last member is extended and only
 * new members and elements are written. A small object is listed for its
 * new members; a large one (a map being written) is searched by the names
 * the text wrote in the objects open since, so a change costs what it
 * added, not the map's size. A member replaced rather than grown (the guard
 * above) makes the whole text be written and compared.
 */

import type { CodecError } from "../errors.js";
import type { Codec } from "../public-codec.js";
import { streamDecoder } from "./decoder.js";
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

/** What the text sent ends in, below its innermost open container: nothing, a string left open, or a complete scalar. */
type Tail =
  | { readonly kind: "none" }
  | { readonly kind: "string"; value: string }
  | { readonly kind: "scalar"; readonly value: unknown };

/**
 * One open container of the text sent (the spine: each one the last member
 * or element of the one above): how much of it is written. An object's
 * `names` is its entry in `order` (its members in the order written), with
 * the value each one was written with.
 */
type Frame = { readonly container: unknown[]; readonly names: undefined; count: number } | ObjectFrame;

interface ObjectFrame {
  readonly container: Record<string, unknown>;
  readonly names: string[];
  readonly values: unknown[];
  /** Each name's place in `names`. */
  readonly index: Map<string, number>;
}

function indexOf(names: readonly string[]): Map<string, number> {
  return new Map(names.map((name, i) => [name, i]));
}

const NONE: Tail = { kind: "none" };

/** A string of the model's text, as written, and its value once asked for. */
interface WireString {
  readonly raw: string;
  name: string | undefined;
}

/**
 * An object with more members than this is searched for new members by the
 * names the model's text wrote in the objects open (or just closed), not by
 * listing its members: a map being written costs what each entry adds.
 */
const LISTED = 32;

/** One call: its decoder, and the source text sent so far (exported for the benchmark, not by the package). */
export class SourceInputCall {
  private readonly decoder: StreamDecoder<unknown>;
  /** What the deltas sent so far concatenate to: the partial value's text, its last containers open. */
  private sent = "";
  /** No more deltas: refused, or a partial value that does not extend the text sent. */
  private held = false;
  /** The open containers of the text sent, outermost first, and what it ends in. */
  private readonly frames: Frame[] = [];
  private tail: Tail = NONE;
  /** Each object's member names in the order first sent (JSON.stringify would put integer-like names first). */
  private readonly order = new WeakMap<object, string[]>();
  /** Where the model's text so far ends: inside a string, just after a backslash in it. */
  private inString = false;
  private escaped = false;
  /** The string being written, as written (kept only inside an object). */
  private raw = "";
  /** The string being written, decoded: its length, its last unit, an escape begun and not finished. */
  private stringLength = 0;
  private stringLast = "";
  private stringEscape = "";
  /** What the last delta added to the string being written, decoded, and the unit before it. */
  private added = "";
  private before = "";
  /** `added` is the delta as written: no escape in it. */
  private plain = false;
  /** The model's open containers: an object's strings, undefined for an array. */
  private readonly wire: (WireString[] | undefined)[] = [];
  /** The strings of the objects closed since the open containers were last followed. */
  private closedStrings: WireString[] = [];

  constructor(
    readonly id: string,
    private readonly toolName: string,
    codec: Codec<unknown>,
    private readonly options: AiSdkStreamOptions,
    /** The most members an object listed for new ones has (tests search every object with -1). */
    private readonly listedAtMost = LISTED,
  ) {
    this.decoder = streamDecoder(codec);
  }

  /** The delta to send for the model's `delta` ("" for none). */
  push(delta: string): string {
    if (this.held) return "";
    // The decoder first: lex reads only text it accepted (an escape JSON has not would break decodeSegment).
    const step = this.decoder.push(delta);
    if (!step.ok) {
      this.held = true;
      this.options.onRefusal?.({ toolCallId: this.id, toolName: this.toolName, error: step.error });
      return "";
    }
    const insideString = this.plainInString(delta) || this.lex(delta);
    if (!step.changed || step.value === undefined) return "";
    const grown = insideString ? this.grownString(step.value) : undefined;
    if (grown !== undefined) {
      this.sent += grown;
      return grown;
    }
    const added = this.extend(step.value) ?? this.rewrite(step.value);
    this.sent += added;
    // Kept until a push that changed the value is followed (a decoder may show a change a push late).
    this.closedStrings.length = 0;
    return added;
  }

  /** At the call's end: the closers that make the text sent complete JSON ("" when held). */
  close(): string {
    return this.held ? "" : this.closeBelow(-1);
  }

  /**
   * Most deltas only add plain characters to the string being written (no
   * quote, no backslash, no escape pending): what lex would find, read with
   * two native searches. False (nothing read) for any other delta.
   */
  private plainInString(delta: string): boolean {
    if (!this.inString || this.escaped || this.stringEscape !== "" || delta.length === 0) return false;
    if (delta.indexOf('"') !== -1 || delta.indexOf("\\") !== -1) return false;
    if (this.wire[this.wire.length - 1] !== undefined) this.raw += delta;
    this.before = this.stringLast;
    this.added = delta;
    this.plain = true;
    this.stringLength += delta.length;
    this.stringLast = delta[delta.length - 1]!;
    return true;
  }

  /**
   * Reads `delta` as the model's text for what it may have changed: whether
   * it stays inside the string the text so far ends in (no closing quote:
   * then the wire changed in that string only, and the partial value at most
   * in the string the text sent ends in), and the strings written in the
   * objects still open or closed since (the names a member shown now can
   * have: a member's name, a map entry's key). Escapes are followed, so a
   * quote after a backslash is no end; a string's characters are found with
   * indexOf, only the text between strings is read one by one.
   */
  private lex(delta: string): boolean {
    const started = this.inString;
    let closed = false;
    let quote = -1;
    let slash = -1;
    const n = delta.length;
    let from = 0;
    for (let i = 0; i < n; ) {
      if (!this.inString) {
        const c = delta.charCodeAt(i++);
        if (c === 0x22) {
          this.inString = true;
          this.raw = "";
          this.stringLength = 0;
          this.stringLast = "";
          this.stringEscape = "";
          from = i;
        } else if (c === 0x7b) this.wire.push([]);
        else if (c === 0x5b) this.wire.push(undefined);
        else if (c === 0x7d || c === 0x5d) {
          const strings = this.wire.pop();
          if (strings !== undefined) this.closedStrings.push(...strings);
        }
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        i++;
        continue;
      }
      if (quote < i) {
        const at = delta.indexOf('"', i);
        quote = at === -1 ? n : at;
      }
      if (slash < i) {
        const at = delta.indexOf("\\", i);
        slash = at === -1 ? n : at;
      }
      if (slash < quote) {
        this.escaped = true;
        i = slash + 1;
      } else if (quote < n) {
        this.inString = false;
        closed = true;
        // Kept only in an object (a name or a member's value); an array's strings name nothing.
        this.wire.at(-1)?.push({ raw: this.raw + delta.slice(from, quote), name: undefined });
        i = quote + 1;
      } else break;
    }
    const inside = started && !closed;
    if (this.inString) {
      const segment = from === 0 ? delta : delta.slice(from);
      if (this.wire.at(-1) !== undefined) this.raw += segment;
      const before = this.stringLast;
      const decoded = this.decodeSegment(segment);
      if (inside) {
        this.before = before;
        this.added = decoded;
      }
    }
    return inside;
  }

  /**
   * The units `segment` (the string being written, as written) adds to it,
   * an escape cut at its end kept for the next delta; length and last unit
   * kept. JSON.parse only for a segment with an escape.
   */
  private decodeSegment(segment: string): string {
    const text = this.stringEscape + segment;
    this.stringEscape = "";
    let decoded = text;
    let at = text.indexOf("\\");
    this.plain = at === -1;
    if (at !== -1) {
      let cut = text.length;
      while (at !== -1) {
        const end = at + (text[at + 1] === "u" ? 6 : 2);
        if (end > text.length) {
          cut = at;
          break;
        }
        at = text.indexOf("\\", end);
      }
      this.stringEscape = text.slice(cut);
      decoded = JSON.parse(`"${text.slice(0, cut)}"`) as string;
    }
    this.stringLength += decoded.length;
    if (decoded.length > 0) this.stringLast = decoded[decoded.length - 1]!;
    return decoded;
  }

  /**
   * A push inside the string being written: only that string can have
   * changed, so if the string the text sent ends in grew, it is that one,
   * and what it gained is what the delta added (read from the model's text:
   * slicing the decoder's string would copy all of it, once per delta). A
   * long string costs its length once. undefined if it did not grow there.
   */
  private grownString(root: unknown): string | undefined {
    const tail = this.tail;
    if (tail.kind !== "string") return undefined;
    const frame = this.frames.at(-1);
    let v: unknown;
    if (frame === undefined) v = root;
    else if (frame.names === undefined) v = frame.container[frame.count - 1];
    else v = frame.container[frame.names.at(-1)!];
    const was = tail.value.length;
    if (typeof v !== "string" || v.length <= was) return undefined;
    // The string's units up to `stringLength` are `before` + `added` at its end; the decoder shows all but a half pair.
    const end = this.stringLength;
    if (v.length > end) return undefined;
    let gained = this.added;
    if (was !== end - gained.length || v.length !== end) {
      const all = this.before + this.added;
      const base = end - all.length;
      if (was < base) return undefined;
      gained = all.slice(was - base, v.length - base);
    }
    tail.value = v;
    if (frame?.names !== undefined) frame.values[frame.values.length - 1] = v;
    // A delta with no escape is its own JSON text: no quote (it would end the
    // string), no control character or lone surrogate (the parser took it).
    return gained === this.added && this.plain ? gained : JSON.stringify(gained).slice(1, -1);
  }

  /**
   * What the new partial value's text adds to the text sent, from the open
   * containers: each one's written members are checked unchanged (a member
   * replaced rather than grown gives undefined: the whole text is compared
   * then), the last one extended in
   * place, and only new members and elements written. Completed parts are
   * never written again; an object's members are listed once per push.
   */
  private extend(root: unknown): string | undefined {
    if (this.sent === "") return this.open(root);
    if (this.frames.length === 0) return this.grow(root);
    return root === this.frames[0]!.container ? this.extendFrame(0) : undefined;
  }

  private extendFrame(d: number): string | undefined {
    const frame = this.frames[d]!;
    if (frame.names === undefined) {
      const array = frame.container;
      const n = array.length;
      // The decoder changes an array at its last element only, and adds after it.
      if (n < frame.count) return undefined;
      let out = "";
      if (frame.count > 0) {
        const grown = this.extendLast(d, array[frame.count - 1]);
        if (grown === undefined) return undefined;
        out = grown;
      }
      if (n === frame.count) return out;
      out += this.closeBelow(d);
      for (let i = frame.count; i < n; i++) {
        out += `${i > 0 ? "," : ""}${i < n - 1 ? this.complete(array[i]) : this.open(array[i])}`;
      }
      frame.count = n;
      return out;
    }
    const { container: object, names, values, index } = frame;
    const last = names.length - 1;
    const fresh = last < this.listedAtMost ? this.listed(frame) : this.searched(frame);
    if (fresh === undefined) return undefined;
    let out = "";
    if (last >= 0) {
      const v = object[names[last]!];
      const grown = this.extendLast(d, v);
      if (grown === undefined) return undefined;
      values[last] = v;
      out = grown;
    }
    if (fresh.length === 0) return out;
    out += this.closeBelow(d);
    for (const [j, key] of fresh.entries()) {
      const v = object[key];
      index.set(key, names.length);
      names.push(key);
      values.push(v);
      out += `${names.length > 1 ? "," : ""}${JSON.stringify(key)}:${j < fresh.length - 1 ? this.complete(v) : this.open(v)}`;
    }
    return out;
  }

  /**
   * A small object's new members, by listing them (in Object.keys order, as
   * JSON.stringify would write them); undefined if a member written before
   * the last one changed.
   */
  private listed(frame: ObjectFrame): string[] | undefined {
    const { container: object, names, values, index } = frame;
    for (let i = 0; i < names.length - 1; i++) if (object[names[i]!] !== values[i]) return undefined;
    const keys = Object.keys(object);
    const fresh: string[] = [];
    if (keys.length !== names.length) {
      for (const key of keys) if (!index.has(key) && object[key] !== undefined) fresh.push(key);
    }
    return fresh;
  }

  /**
   * A large object's new members, found by the names the model's text wrote
   * in the objects still open or closed by this delta: a member shown now is
   * named by one of them (a declared member's name, a map entry's key), and
   * a member written before changes only through one (a map key written
   * twice). undefined if one changed; two or more new ones are put in
   * Object.keys order by listing.
   */
  private searched(frame: ObjectFrame): string[] | undefined {
    const { container: object, names, values, index } = frame;
    const last = names.length - 1;
    const fresh: string[] = [];
    const visit = (strings: readonly WireString[] | undefined): boolean => {
      for (const s of strings ?? []) {
        s.name ??= JSON.parse(`"${s.raw}"`) as string;
        const at = index.get(s.name);
        if (at === undefined) {
          if (Object.hasOwn(object, s.name) && object[s.name] !== undefined && !fresh.includes(s.name)) {
            fresh.push(s.name);
          }
        } else if (at !== last && object[s.name] !== values[at]) return false;
      }
      return true;
    };
    for (const strings of this.wire) if (!visit(strings)) return undefined;
    if (!visit(this.closedStrings)) return undefined;
    if (fresh.length < 2) return fresh;
    const found = new Set(fresh);
    return Object.keys(object).filter((key) => found.has(key));
  }

  /** The last member or element of frame `d`, now `v`: the open container below extended, or the tail grown. */
  private extendLast(d: number, v: unknown): string | undefined {
    const below = this.frames[d + 1];
    if (below !== undefined) return v === below.container ? this.extendFrame(d + 1) : undefined;
    return this.grow(v);
  }

  /** The tail, now `v`: what a string gained, "" for the same scalar; undefined for any other change. */
  private grow(v: unknown): string | undefined {
    const tail = this.tail;
    if (tail.kind === "scalar") return v === tail.value ? "" : undefined;
    if (tail.kind !== "string" || typeof v !== "string" || !v.startsWith(tail.value)) return undefined;
    const added = v.length > tail.value.length ? JSON.stringify(v.slice(tail.value.length)).slice(1, -1) : "";
    tail.value = v;
    return added;
  }

  /** The closers of the tail and of the open containers below frame `d`, which are then complete. */
  private closeBelow(d: number): string {
    let out = this.tail.kind === "string" ? '"' : "";
    for (let i = this.frames.length - 1; i > d; i--) out += this.frames[i]!.names === undefined ? "]" : "}";
    this.frames.length = d + 1;
    this.tail = NONE;
    return out;
  }

  /** `value`'s text with its last string, array or object left open, as the new end of the text sent. */
  private open(value: unknown): string {
    if (typeof value === "string") {
      this.tail = { kind: "string", value };
      // The decoder never shows half a surrogate pair (test/stream/ai-sdk.test.ts), which would be sent escaped.
      return JSON.stringify(value).slice(0, -1);
    }
    if (Array.isArray(value)) {
      this.frames.push({ container: value, names: undefined, count: value.length });
      this.tail = NONE;
      const n = value.length;
      let out = "[";
      for (let i = 0; i < n; i++)
        out += `${i > 0 ? "," : ""}${i < n - 1 ? this.complete(value[i]) : this.open(value[i])}`;
      return out;
    }
    if (typeof value === "object" && value !== null) {
      const object = value as Record<string, unknown>;
      const names = this.names(object);
      const values = names.map((name) => object[name]);
      this.frames.push({ container: object, names, values, index: indexOf(names) });
      this.tail = NONE;
      let out = "{";
      for (const [i, name] of names.entries()) {
        const v = values[i];
        out += `${i > 0 ? "," : ""}${JSON.stringify(name)}:${i < names.length - 1 ? this.complete(v) : this.open(v)}`;
      }
      return out;
    }
    this.tail = { kind: "scalar", value };
    return JSON.stringify(value) ?? "null";
  }

  /**
   * A partial value that extend could not follow (a member replaced, not
   * grown): its whole text, sent on if it extends the text sent, else the
   * call is held. Rare: a valid call never gets here.
   */
  private rewrite(value: unknown): string {
    const text = this.write(value, []);
    if (!text.startsWith(this.sent)) {
      this.held = true;
      return "";
    }
    this.frames.length = 0;
    this.tail = NONE;
    let v = value;
    for (;;) {
      if (Array.isArray(v)) {
        this.frames.push({ container: v, names: undefined, count: v.length });
        if (v.length === 0) break;
        v = v[v.length - 1];
      } else if (typeof v === "object" && v !== null) {
        const object = v as Record<string, unknown>;
        const names = this.order.get(object)!;
        this.frames.push({ container: object, names, values: names.map((n) => object[n]), index: indexOf(names) });
        if (names.length === 0) break;
        v = object[names.at(-1)!];
      } else {
        this.tail = typeof v === "string" ? { kind: "string", value: v } : { kind: "scalar", value: v };
        break;
      }
    }
    return text.slice(this.sent.length);
  }

  /** The value's JSON text with its last string, array or object left open (their closers pushed to `closers`). */
  private write(value: unknown, closers: string[]): string {
    if (typeof value === "string") {
      closers.push('"');
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

  /** A value's whole JSON text (written once, when it is added complete). */
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
