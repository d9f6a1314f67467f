/**
 * The incremental bounded JSON parser: tool-call argument text read as the
 * model writes it, in deltas, under the same rules and limits as parseText.
 *
 * What it promises:
 * - Linear work: each delta is read once, from where the last one stopped.
 *   The state is a stack of open containers, the string, number or literal
 *   being read, the node count, the depth and the length (UTF-8 bytes are
 *   counted once the text could exceed the byte limit: the text so far once,
 *   then each delta). Nothing else already read is scanned again.
 * - end() returns exactly what parseText(whole text, limits) returns. When
 *   the pushes read one complete value under every rule, that value is the
 *   live one (no second parse: the rules checked are parseText's); otherwise
 *   the deltas are joined and parseText decides, so every refusal (code, path,
 *   message, rule, offset) is parseText's own.
 * - Early refusal: push() refuses as soon as the text so far cannot begin any
 *   text parseText accepts (an impossible character, a repeated member name,
 *   depth, node or byte limit exceeded, a number that can only be unsafe, a
 *   lone surrogate). Two waits, because the error code depends on what
 *   follows: a raw high surrogate outside a string is refused at the next
 *   character (a lone one is invalid-utf8, a paired one invalid-json), and an
 *   escape \uDCxx..\uDFxx only once its four hex digits are read (a
 *   non-hex digit makes it invalid-json). The refusal is exactly
 *   parseText(text pushed so far), so its code and path are those parseText
 *   gives for every whole text that begins with that text and is within the
 *   byte limit. A refusal is final: later pushes return it again (their text
 *   is still kept, so end() still answers for the whole text).
 * - Limits are refused when exceeded (the value past maxNodes, the container
 *   past maxDepth, the character past maxBytes), not when the room left is
 *   too small for what the text must still write: until then, the code
 *   parseText gives for the whole text is not settled.
 * - Never refuses a prefix of a text parseText accepts.
 *
 * The partial value (push's value, and `value`): one live value, mutated in
 * place (copy it to keep a snapshot); a completed subtree is never rebuilt.
 * - An object holds its complete members, plus the member being written once
 *   its value has started: a string, array or object appears at its first
 *   character; a number, true, false or null only once complete (a number's
 *   digits so far are not a prefix of its value).
 * - An array holds its complete elements plus the one being written, on the
 *   same rule.
 * - A string shows its decoded prefix: escapes appear once complete, a
 *   surrogate pair once both halves are read. The open string is written to
 *   its place at the end of each push (a reader that reads it as openString
 *   may defer that write to when it reads the containers: deferOpenString).
 * - The root is undefined until its value starts (a root number until end()).
 * - Number spelling is not kept, as in parseText: -0 is 0.
 * When the whole text is accepted, every member and element shown is in the
 * final value under the same name or index, every value off the spine equals
 * its final value, and every string shown is a prefix of its final string.
 *
 * For the stream decoder (stream/decoder.ts), which maps only what changed:
 * spine() is the path of the innermost open value, and changedDepth counts
 * the containers, from the root, that stayed open through the last push;
 * every change that push made lies inside the innermost of them (anywhere
 * when it is 0). The decoder holds the parser as a ParserView (below), which
 * is all it reads of it.
 */
import type { Result } from "../errors.js";
import { hexDigit, isHighSurrogate, isLowSurrogate, simpleEscape } from "./chars.js";
import { DEFAULT_PARSE_LIMITS, type ParseLimits, type ParseRefusal, parseText } from "./parser.js";
import { utf8Length } from "./utf8.js";

// What the next character may be.
const VALUE = 0; // a value (after ':' or an array's ',', or at the root)
const VALUE_OR_CLOSE = 1; // a value or ']' (just after '[')
const KEY_OR_CLOSE = 2; // a member name or '}' (just after '{')
const KEY = 3; // a member name (after an object's ',')
const COLON = 4;
const AFTER = 5; // ',' or the closer, after a value inside a container
const STRING = 6;
const ESCAPE = 7; // after a backslash
const UNICODE = 8; // \u and `hexCount` hex digits read
const PAIR = 9; // after an escaped high surrogate: `pairPos` characters of \uDC00-\uDFFF read
const NUMBER = 10;
const LITERAL = 11;
const DONE = 12; // the root value is complete: only whitespace may follow

// Number states: after '-', after a leading 0, integer digits, '.', fraction digits, 'e', exponent sign, exponent digits.
const N_MINUS = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_E = 5;
const N_ESIGN = 6;
const N_EXP = 7;

/** A number below 10^15 is a safe integer or not an integer (as in the scanner). */
const SAFE_MAGNITUDE = 15;

/** Strings up to this length are made flat by V8 at each append (ConsString::kMinLength is 13). */
const FLAT_FROM = 12;
/** The open string's length at which grow() first makes it flat (then at each doubling). */
const FLAT_GROWN = 1024;
/** Where closeString puts a string's number conversion (which makes it flat): read by no one, exported so that the write is kept. */
export let flatSink = 0;
/** The text pushed is kept as flat chunks of about this many characters (see `chunks`). */
const CHUNK = 4096;
/** Past this many characters, a delta's plain run is found by a native search: cheaper than a loop. */
const LONG_RUN = 32;
/** What stops a string's plain run: a quote, a backslash, a control character, a surrogate. */
const STOP = /["\\\u0000-\u001f\ud800-\udfff]/g;

const REFUSED = -1;
/** The code of the refusal depends on the next character (see the module comment). */
const PENDING = -2;

interface Literal {
  readonly text: string;
  readonly value: unknown;
}

const TRUE: Literal = { text: "true", value: true };
const FALSE: Literal = { text: "false", value: false };
const NULL: Literal = { text: "null", value: null };

export type PartialResult = Result<unknown, ParseRefusal>;

/**
 * What the last push did to the partial value:
 * - "nothing": placed no value (whitespace, punctuation, member names, a
 *   number or literal not yet complete, containers closed): the value shown
 *   is as it was (the spine may be shorter);
 * - "string": only grew the string value being written (nothing else placed,
 *   opened or closed: the spine is the same);
 * - "placed": anything else.
 */
export type Pushed = "nothing" | "string" | "placed";

/**
 * Where the text ends:
 * - "string", "number", "boolean", "null": inside a value of that JSON type
 *   (a string's escapes included; a number or literal is known from its first
 *   character); a string's decoded prefix is `openString`;
 * - "name": inside a member name, its decoded prefix in `openString`;
 *   "name-escape": inside an escape in a member name;
 * - "named": after a complete member name, before its value's first
 *   character: the name is the innermost step, stepAt(openCount - 1);
 * - "name-due": after an object's comma, before the next name's quote;
 * - "completed": just after a value complete in the innermost container
 *   (a scalar, or a container just closed): its step is stepAt(openCount - 1);
 * - "between": anywhere else (before the root value, just after '[' or '{',
 *   after an array's comma, after the root value).
 */
export type Reading =
  | "string"
  | "number"
  | "boolean"
  | "null"
  | "name"
  | "name-escape"
  | "named"
  | "name-due"
  | "completed"
  | "between";

/**
 * The incremental parser as the stream decoder reads it: the text, what the
 * last push did, the spine (the open containers and the steps through them),
 * and the value being read. The decoder holds the parser as this, not as the
 * class. Every read is a field or a few comparisons and makes nothing: the
 * decoder reads after every push.
 */
export interface ParserView {
  /** Reads a delta: the partial value (the live root, see the module comment), or the refusal (final). */
  push(delta: string): PartialResult;
  /** Exactly parseText(the whole text pushed). */
  end(): Result<unknown, ParseRefusal>;
  /** The text pushed so far, refused pushes included. */
  text(): string;
  /** How many members the text has written so far, over all objects (with its object, it tells a name being written). */
  readonly membersRead: number;

  /** What the last push did to the partial value. */
  readonly pushed: Pushed;
  /** Containers from the root that stayed open through the last push: its changes lie inside the innermost of them. */
  readonly changedDepth: number;

  /** How many containers are open, from the root. */
  readonly openCount: number;
  /** The open container `i` levels below the root (0: the root), for `i` below openCount. */
  openAt(i: number): object;
  /** The members named so far in open container `i` (below openCount), if an object. */
  membersAt(i: number): number;
  /** spine()'s length: openCount, less one unless a string, number or literal value is being read. */
  readonly spineLength: number;
  /**
   * The step in open container `i` (below openCount): spine()[i] below
   * spineLength; in the innermost container otherwise, the member named
   * ("named") or the value just completed ("completed").
   */
  stepAt(i: number): string | number;

  /** Where the text ends: inside which value, or between which. */
  readonly reading: Reading;
  /** Whether the text ends inside a string, a value or a member name (reading is "string", "name" or "name-escape"). */
  readonly inString: boolean;
  /** The string being read (a value or a member name), decoded so far. */
  readonly openString: string;
  /**
   * What the string being read gained since it began or since the last call,
   * tracked from a call with `track` true until one with false: a reader that
   * compares the string as it grows reads this, not the rope (reading a rope
   * makes it flat, which costs its whole length at every push).
   */
  takeAppended(track: boolean): string;
  /** A short suffix that finishes the value being written, the open containers left open (see the class). */
  openValueEnd(): string | undefined;
  /**
   * Ends the number being read in a container as the comma or closer about
   * to be pushed will, reading nothing: the number placed, `reading`
   * "completed", `pushed` "placed". False (and nothing done) where no number
   * is being read there or it cannot end here (that push will refuse).
   */
  endNumber(): boolean;
  /**
   * From now on, a push that only grows a string value in a container does
   * not write it to its place (openString has it): the reader calls
   * settleOpenString() before it reads the containers.
   */
  deferOpenString(): void;
  /** Writes the open string value to its place if a push deferred it (see deferOpenString). */
  settleOpenString(): void;
}

export class IncrementalParser implements ParserView {
  private readonly limits: Partial<ParseLimits>;
  private readonly maxBytes: number;
  private readonly maxNodes: number;
  private readonly maxDepth: number;

  /**
   * The text pushed so far: flat chunks, then the latest deltas concatenated
   * (a rope), made flat and moved to the chunks once CHUNK long. A rope keeps
   * a node of about 32 bytes per delta alive until it is read (one-character
   * deltas: 32 bytes a character for the whole stream, which the collector
   * copies and the stream pays for); a flat chunk keeps its characters only.
   */
  private chunks: string[] = [];
  private written = "";
  private bytes = 0;
  private lastWasHigh = false;
  private refusal: { readonly ok: false; readonly error: ParseRefusal } | undefined;
  /** A raw surrogate outside a string ended the last push: refused at the next character. */
  private refuseNext = false;

  private mode = VALUE;
  private nodes = 0;
  private depth = 0;
  private lowest = 0;
  private root: unknown = undefined;
  // Open containers, index 1 the root; `keys` holds an object's current member name.
  private readonly containers: (unknown[] | Record<string, unknown>)[] = [[]];
  private readonly arrays: boolean[] = [false];
  private readonly keys: string[] = [""];
  /** Members an open object has so far: the first one needs no check for a repeated name. */
  private readonly members: number[] = [0];

  // The string being read: decoded so far; a key or a value; a raw high surrogate held back.
  private str = "";
  /** While `trackAppended` is set, what was appended to the string being read since it began or since `takeAppended` (see there). */
  private appended = "";
  private trackAppended = false;
  private inKey = false;
  /** Member names read (each once per object: a repeated one is refused). */
  private namesRead = 0;
  private heldHigh = "";
  private hex = 0;
  private hexCount = 0;
  private pairHigh = 0;
  private pairPos = 0;
  private pairLow = 0;

  // The number being read.
  private num = "";
  private numState = N_MINUS;
  private intDigits = 0;
  /** The integer digits' value while they are at most SAFE_MAGNITUDE: such an integer needs no Number(text). */
  private intValue = 0;
  private negative = false;
  /** Whether `num` holds the number's text so far; until then the text is its sign and intValue. */
  private spelled = false;
  private exponent = 0;
  private negativeExponent = false;
  private nonZeroMantissa = false;

  // The literal being read and how many of its characters are read.
  private literal = TRUE;
  private literalPos = 0;

  constructor(limits: Partial<ParseLimits> = {}) {
    this.limits = limits;
    this.maxBytes = limits.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes;
    this.maxNodes = limits.maxNodes ?? DEFAULT_PARSE_LIMITS.maxNodes;
    this.maxDepth = limits.maxDepth ?? DEFAULT_PARSE_LIMITS.maxDepth;
  }

  /** The partial value so far (see the module comment), or the refusal. */
  push(delta: string): PartialResult {
    this.written += delta;
    if (this.written.length >= CHUNK) this.keepChunk();
    const n = delta.length;
    this.did = n === 0 ? "nothing" : "placed";
    if (this.refusal !== undefined) return this.refusal;
    if (n === 0) return this.partial();
    this.chars += n;
    if (this.chars * 3 > this.maxBytes && this.overLimit(delta)) return this.refuse();
    this.lowest = this.depth;
    let start = 0;
    if (this.mode === STRING && this.heldHigh === "") {
      // Most deltas inside a string are plain text: appended whole, no dispatch per character.
      start = plainEnd(delta, 0, n);
      if (start === n) {
        this.grow(delta);
        if (this.inKey) {
          this.did = "nothing";
        } else {
          this.did = "string";
          if (this.deferring && this.depth > 0) {
            this.placements++;
            this.stale = true;
          } else this.placeOpenString();
        }
        return this.partial();
      }
      if (start > 0) this.grow(delta.slice(0, start));
    }
    const growing = this.inOpenValueString();
    const placed = this.placements;
    if (this.read(delta, start) === REFUSED) return this.refuse();
    const open = this.inOpenValueString();
    this.did = placed !== this.placements ? "placed" : !open ? "nothing" : growing ? "string" : "placed";
    if (open) {
      if (this.placedString) this.placeOpenString();
      else this.place(this.str);
    }
    return this.partial();
  }

  /** The ok result, made again only when the root changes (a root string grows; anything else is placed once). */
  private partial(): PartialResult {
    if (this.okResult.value !== this.root) this.okResult = { ok: true, value: this.root };
    return this.okResult;
  }

  private okResult: { readonly ok: true; readonly value: unknown } = { ok: true, value: undefined };

  /**
   * Exactly parseText(the whole text pushed). When the pushes read a complete
   * value under every rule, that value is the live one (the checks above are
   * parseText's, value for value); anything else is parseText's to word.
   */
  end(): Result<unknown, ParseRefusal> {
    if (this.refusal === undefined && !this.refuseNext && this.heldHigh === "") {
      if (this.mode === DONE) return { ok: true, value: this.root };
      // A root number ends with the text.
      const state = this.numState;
      const complete = state === N_ZERO || state === N_INT || state === N_FRAC || state === N_EXP;
      const value = this.mode === NUMBER && this.depth === 0 && complete ? Number(this.numberText()) : Number.NaN;
      if (isSafe(value)) return { ok: true, value: value === 0 ? 0 : value };
    }
    return parseText(this.text(), this.limits);
  }

  /** The rope of the latest deltas made flat (V8 flattens a string it converts to a number) and kept as a chunk. */
  private keepChunk(): void {
    flatSink = (this.written as unknown as number) | 0;
    this.chunks.push(this.written);
    this.written = "";
  }

  /** How many members the text has written so far, over all objects. */
  get membersRead(): number {
    return this.namesRead;
  }

  /** The text pushed so far, refused pushes included. */
  text(): string {
    if (this.chunks.length === 0) return this.written;
    // Joined once per read (end(), a refusal): later reads of the same text cost nothing more.
    const text = this.chunks.join("") + this.written;
    this.chunks = [text];
    this.written = "";
    return text;
  }

  /**
   * Whether the text is now over the byte limit, asked only once it could be
   * (a UTF-16 code unit is at most 3 bytes): the text so far is counted once,
   * with utf8Length, then each later delta here.
   */
  private overLimit(delta: string): boolean {
    if (!this.counting) {
      this.counting = true;
      const text = this.text();
      this.bytes = utf8Length(text);
      this.lastWasHigh = isHighSurrogate(text.charCodeAt(text.length - 1));
      return this.bytes > this.maxBytes;
    }
    return this.countBytes(delta) > this.maxBytes;
  }

  private chars = 0;
  private counting = false;

  /**
   * UTF-8 bytes so far, as utf8Length counts them (a lone surrogate is
   * a 3-byte replacement character), pairs split between deltas included.
   * Counted here, carrying a high surrogate split from its pair across deltas.
   */
  private countBytes(delta: string): number {
    let bytes = this.bytes;
    let high = this.lastWasHigh;
    for (let i = 0; i < delta.length; i++) {
      const c = delta.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xdc00 && c <= 0xdfff && high) bytes += 1;
      else bytes += 3;
      high = c >= 0xd800 && c <= 0xdbff;
    }
    this.lastWasHigh = high;
    this.bytes = bytes;
    return bytes;
  }

  /** The partial value so far; mutated in place by later pushes. */
  get value(): unknown {
    return this.root;
  }

  /** What the last push did to the partial value (see Pushed). */
  get pushed(): Pushed {
    return this.did;
  }

  private did: Pushed = "nothing";

  takeAppended(track: boolean): string {
    this.trackAppended = track;
    const added = this.appended;
    this.appended = "";
    return added;
  }

  private grow(added: string): void {
    const str = this.str + added;
    this.str = str;
    if (this.trackAppended) this.appended += added;
    // Appended delta by delta, the open string is a rope (a node per delta, all alive while it is open) that the
    // collector copies and marks again as it grows. Made flat each time its length doubles: each character is copied
    // about twice, and the rope left is at most half the string.
    if (str.length >= this.flatAt) {
      flatSink = (str as unknown as number) | 0;
      this.flatAt = str.length * 2;
    }
  }

  /** The open string's length at which grow() next makes it flat. */
  private flatAt = FLAT_GROWN;

  /** The string being read, a value (as placed: a field read, not a load at its place) or a member name, decoded so far. */
  get openString(): string {
    return this.str;
  }

  /** Values placed so far (a growing string counts at each push). */
  private placements = 0;

  /** Containers from the root that stayed open through the last push (see the module comment). */
  get changedDepth(): number {
    return this.lowest;
  }

  /**
   * Path from the root to the innermost open value: the open containers, and
   * the string, number or literal being read, if any.
   */
  spine(): (string | number)[] {
    const path: (string | number)[] = [];
    const scalar = this.mode >= STRING && this.mode <= LITERAL && !this.inKey;
    for (let d = 1; d <= this.depth; d++) {
      if (d === this.depth && !scalar) break;
      if (this.arrays[d]) {
        const length = (this.containers[d] as unknown[]).length;
        // A number or literal is placed only once complete, so it is the element after the last.
        const placed = d < this.depth || this.mode <= PAIR;
        path.push(placed ? length - 1 : length);
      } else {
        path.push(this.keys[d]!);
      }
    }
    return path;
  }

  /** How many containers are open: the spine's containers, from the root. */
  get openCount(): number {
    return this.depth;
  }

  /** The open container `i` levels below the root (0: the root), for `i` below openCount. */
  membersAt(i: number): number {
    return this.members[i + 1] ?? 0;
  }

  openAt(i: number): object {
    return this.containers[i + 1]!;
  }

  /** spine()'s length: openCount, less one unless a string, number or literal value is being read. */
  get spineLength(): number {
    const scalar = this.mode >= STRING && this.mode <= LITERAL && !this.inKey;
    return this.depth === 0 ? 0 : scalar ? this.depth : this.depth - 1;
  }

  /** spine()[i], without making the path (in the innermost container, see ParserView). */
  stepAt(i: number): string | number {
    const d = i + 1;
    if (!this.arrays[d]) return this.keys[d]!;
    const length = (this.containers[d] as unknown[]).length;
    // A number or literal is placed only once complete, so it is the element after the last.
    return d < this.depth || this.mode <= PAIR ? length - 1 : length;
  }

  get inString(): boolean {
    return this.mode >= STRING && this.mode <= PAIR;
  }

  /** Where the text ends (see Reading). */
  get reading(): Reading {
    const mode = this.mode;
    if (mode >= STRING && mode <= PAIR) return !this.inKey ? "string" : mode === STRING ? "name" : "name-escape";
    switch (mode) {
      case NUMBER:
        return "number";
      case LITERAL:
        return this.literal === NULL ? "null" : "boolean";
      case AFTER:
        return "completed";
      case KEY:
        return "name-due";
      case COLON:
        return "named";
      case VALUE:
        // After a colon (in an object), or after an array's comma or at the root.
        return this.depth > 0 && !this.arrays[this.depth] ? "named" : "between";
      default:
        return "between";
    }
  }

  /**
   * A short suffix that finishes the value being written, the open
   * containers left open: the open string, number or literal finished, a
   * member name (or a member with no value yet) given the value null.
   * Undefined where no suffix is plain: inside an escape, after a comma,
   * before the root value, after a refusal.
   */
  openValueEnd(): string | undefined {
    if (this.refusal !== undefined || this.refuseNext || this.heldHigh !== "") return undefined;
    switch (this.mode) {
      case STRING:
        return this.inKey ? '":null' : '"';
      case NUMBER:
        return this.numState === N_MINUS ||
          this.numState === N_DOT ||
          this.numState === N_E ||
          this.numState === N_ESIGN
          ? "0"
          : "";
      case LITERAL:
        return this.literal.text.slice(this.literalPos);
      case COLON:
        return ":null";
      case VALUE:
        return this.depth === 0 ? undefined : "null";
      case VALUE_OR_CLOSE:
      case KEY_OR_CLOSE:
      case AFTER:
      case DONE:
        return "";
      default:
        return undefined;
    }
  }

  private refuse(): { readonly ok: false; readonly error: ParseRefusal } {
    const result = parseText(this.text(), this.limits);
    // Unreachable: the states above refuse only texts with no valid completion.
    if (result.ok) throw new Error("the incremental parser refused a text parseText accepts");
    this.refusal = result;
    return result;
  }

  private inOpenValueString(): boolean {
    return this.mode >= STRING && this.mode <= PAIR && !this.inKey;
  }

  /** Reads one delta from start; REFUSED, PENDING or its length. */
  private read(d: string, start: number): number {
    const n = d.length;
    let i = start;
    if (this.refuseNext) return REFUSED;
    if (this.heldHigh !== "") {
      if (!isLowSurrogate(d.charCodeAt(0))) return REFUSED;
      this.grow(this.heldHigh + d[0]);
      this.heldHigh = "";
      i = 1;
    }
    while (i < n) {
      const c = d.charCodeAt(i);
      switch (this.mode) {
        case STRING: {
          i = this.stringRun(d, i);
          if (i < 0) return i;
          break;
        }
        case AFTER: {
          if (isWs(c)) {
            i++;
            break;
          }
          const array = this.arrays[this.depth]!;
          if (c === 44) {
            this.mode = array ? VALUE : KEY;
            i++;
          } else if (c === (array ? 93 : 125)) {
            this.close();
            i++;
          } else {
            return this.impossible(d, i);
          }
          break;
        }
        case VALUE:
        case VALUE_OR_CLOSE: {
          if (isWs(c)) {
            i++;
            break;
          }
          if (c === 93 && this.mode === VALUE_OR_CLOSE) {
            this.close();
            i++;
            break;
          }
          const next = this.startValue(d, i, c);
          if (next < 0) return next;
          i = next;
          break;
        }
        case KEY_OR_CLOSE:
        case KEY: {
          if (isWs(c)) {
            i++;
          } else if (c === 34) {
            this.mode = STRING;
            this.inKey = true;
            this.str = "";
            this.flatAt = FLAT_GROWN;
            this.appended = "";
            i++;
          } else if (c === 125 && this.mode === KEY_OR_CLOSE) {
            this.close();
            i++;
          } else {
            return this.impossible(d, i);
          }
          break;
        }
        case COLON: {
          if (isWs(c)) i++;
          else if (c === 58) {
            this.mode = VALUE;
            i++;
          } else return this.impossible(d, i);
          break;
        }
        case NUMBER: {
          const next = this.numberRun(d, i);
          if (next < 0) return next;
          i = next;
          break;
        }
        case ESCAPE: {
          if (c === 117) {
            this.mode = UNICODE;
            this.hex = 0;
            this.hexCount = 0;
          } else {
            const decoded = simpleEscape(c);
            if (decoded === undefined) return REFUSED;
            this.grow(decoded);
            this.mode = STRING;
          }
          i++;
          break;
        }
        case UNICODE: {
          const v = hexDigit(c);
          if (v < 0) return REFUSED;
          this.hex = this.hex * 16 + v;
          i++;
          if (++this.hexCount < 4) break;
          const u = this.hex;
          if (u >= 0xdc00 && u <= 0xdfff) return REFUSED;
          if (u >= 0xd800 && u <= 0xdbff) {
            this.mode = PAIR;
            this.pairHigh = u;
            this.pairPos = 0;
            this.pairLow = 0;
          } else {
            this.grow(String.fromCharCode(u));
            this.mode = STRING;
          }
          break;
        }
        case PAIR: {
          // \uDC00-\uDFFF, checked digit by digit: the text is impossible at the first one that cannot lead there.
          const pos = this.pairPos;
          const v = hexDigit(c);
          const fits =
            pos === 0 ? c === 92 : pos === 1 ? c === 117 : pos === 2 ? v === 13 : pos === 3 ? v >= 12 : v >= 0;
          if (!fits) return REFUSED;
          if (pos >= 2) this.pairLow = this.pairLow * 16 + v;
          i++;
          if (++this.pairPos < 6) break;
          this.grow(String.fromCharCode(this.pairHigh, this.pairLow));
          this.mode = STRING;
          break;
        }
        case LITERAL: {
          const { text, value } = this.literal;
          if (c !== text.charCodeAt(this.literalPos)) return REFUSED;
          i++;
          if (++this.literalPos === text.length) {
            this.place(value);
            this.completed();
          }
          break;
        }
        default: {
          // DONE
          if (!isWs(c)) return this.impossible(d, i);
          i++;
        }
      }
    }
    return n;
  }

  /** A character no text can continue with; a raw high surrogate ending the delta waits for the next character. */
  private impossible(d: string, i: number): number {
    if (i === d.length - 1 && isHighSurrogate(d.charCodeAt(i))) {
      this.refuseNext = true;
      return PENDING;
    }
    return REFUSED;
  }

  /** A value starts at i with c. Returns the index after what it read. */
  private startValue(d: string, i: number, c: number): number {
    const literal = c === 116 ? TRUE : c === 102 ? FALSE : c === 110 ? NULL : undefined;
    const valueStart = c === 34 || c === 91 || c === 123 || c === 45 || (c >= 48 && c <= 57) || literal !== undefined;
    if (!valueStart) return this.impossible(d, i);
    if (++this.nodes > this.maxNodes) return REFUSED;
    if (c === 34) {
      this.mode = STRING;
      this.inKey = false;
      this.str = "";
      this.flatAt = FLAT_GROWN;
      this.appended = "";
      // Placed at the end of the push if still open, once: a string that closes in it is placed complete.
      return i + 1;
    }
    if (c === 91 || c === 123) {
      if (this.depth + 1 > this.maxDepth) return REFUSED;
      const array = c === 91;
      const container: unknown[] | Record<string, unknown> = array ? [] : {};
      this.place(container);
      const depth = ++this.depth;
      this.containers[depth] = container;
      this.arrays[depth] = array;
      this.keys[depth] = "";
      this.members[depth] = 0;
      this.mode = array ? VALUE_OR_CLOSE : KEY_OR_CLOSE;
      return i + 1;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      this.mode = NUMBER;
      this.num = "";
      this.spelled = false;
      this.negative = c === 45;
      this.numState = N_MINUS;
      this.intDigits = 0;
      this.intValue = 0;
      this.exponent = 0;
      this.negativeExponent = false;
      this.nonZeroMantissa = false;
      return c === 45 ? this.numberAfter(d, i) : this.numberRun(d, i);
    }
    this.mode = LITERAL;
    this.literal = literal!;
    this.literalPos = 1;
    return i + 1;
  }

  /** Consumes the '-' at i. */
  private numberAfter(d: string, i: number): number {
    return this.numberRun(d, i + 1);
  }

  /** The number's text so far. */
  private numberText(): string {
    return this.spelled ? this.num : this.impliedText(this.numState);
  }

  /** The text of a number not spelled yet: a sign and an integer of at most SAFE_MAGNITUDE digits. */
  private impliedText(state: number): string {
    return (this.negative ? "-" : "") + (state === N_MINUS ? "" : String(this.intValue));
  }

  /** From here on the number is spelled out: its text so far is written from its value. */
  private spell(state: number): void {
    this.num = this.impliedText(state);
    this.spelled = true;
  }

  /** Reads number characters from i; completes the number at the first character that is not one. */
  private numberRun(d: string, i: number): number {
    const n = d.length;
    let start = i;
    let state = this.numState;
    for (; i < n; i++) {
      const c = d.charCodeAt(i);
      const digit = c >= 48 && c <= 57;
      if (state === N_INT || state === N_FRAC) {
        if (digit) {
          if (c !== 48) this.nonZeroMantissa = true;
          if (state === N_INT) {
            if (this.intDigits === SAFE_MAGNITUDE && !this.spelled) {
              this.spell(state);
              start = i;
            }
            this.intDigits++;
            this.intValue = this.intValue * 10 + c - 48;
          }
          continue;
        }
        if (c === 46 ? state === N_INT : c === 101 || c === 69) {
          if (!this.spelled) {
            this.spell(state);
            start = i;
          }
          state = c === 46 ? N_DOT : N_E;
        } else break;
      } else if (state === N_EXP) {
        if (!digit) break;
        if (this.exponent < 100_000) this.exponent = this.exponent * 10 + c - 48;
        // More digits of a positive exponent only make the number bigger: unsafe now is unsafe for good.
        if (!this.negativeExponent && this.nonZeroMantissa && this.intDigits + this.exponent > SAFE_MAGNITUDE) {
          if (!isSafe(Number(this.num + d.slice(start, i + 1)))) return REFUSED;
        }
      } else if (state === N_MINUS) {
        if (!digit) return REFUSED;
        state = c === 48 ? N_ZERO : N_INT;
        if (c !== 48) {
          this.nonZeroMantissa = true;
          this.intDigits = 1;
          this.intValue = c - 48;
        }
      } else if (state === N_ZERO) {
        if (digit) return REFUSED;
        if (c === 46 || c === 101 || c === 69) {
          this.spell(state);
          start = i;
          state = c === 46 ? N_DOT : N_E;
        } else break;
      } else if (state === N_DOT) {
        if (!digit) return REFUSED;
        if (c !== 48) this.nonZeroMantissa = true;
        state = N_FRAC;
      } else if (state === N_E) {
        if (c === 43 || c === 45) {
          this.negativeExponent = c === 45;
          state = N_ESIGN;
        } else if (digit) {
          state = N_EXP;
          i--;
        } else return REFUSED;
      } else {
        // N_ESIGN
        if (!digit) return REFUSED;
        state = N_EXP;
        i--;
      }
    }
    this.numState = state;
    if (this.spelled) this.num += d.slice(start, i);
    if (i === n) return n;
    // The character at i ends the number; it is read again in the state after a value.
    if (state === N_MINUS || state === N_DOT || state === N_E || state === N_ESIGN) return REFUSED;
    const integer = (state === N_INT && this.intDigits <= SAFE_MAGNITUDE) || state === N_ZERO;
    // Integers of up to 15 digits are exact as read (and safe); -0 is 0, as in parseText.
    const value = integer ? (this.negative ? -this.intValue : this.intValue) : Number(this.num);
    if (!isSafe(value)) return REFUSED;
    this.place(value === 0 ? 0 : value);
    this.completed();
    return i;
  }

  /** Reads string characters from i up to a quote, backslash or something to check. */
  private stringRun(d: string, i: number): number {
    const n = d.length;
    let j = i;
    let c = 0;
    for (;;) {
      j = plainEnd(d, j, n);
      if (j === n) break;
      c = d.charCodeAt(j);
      if (c < 0xd800 || c > 0xdbff || j + 1 >= n) break;
      // A raw high surrogate must be followed by a low one.
      if (!isLowSurrogate(d.charCodeAt(j + 1))) return REFUSED;
      j += 2;
    }
    if (j > i) this.grow(d.slice(i, j));
    if (j === n) return n;
    if (c === 34) return this.closeString() ? j + 1 : REFUSED;
    if (c === 92) {
      this.mode = ESCAPE;
      return j + 1;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      // The last character of the delta: its pair may come with the next one.
      this.heldHigh = d[j]!;
      return n;
    }
    return REFUSED;
  }

  /** False for a member name the object already has. */
  private closeString(): boolean {
    if (!this.inKey) {
      // Appended delta by delta, the string is a rope: made flat once here (V8 flattens a string it converts
      // to a number), so that its readers (the decoder, the contract's checks, a display) do not each walk it.
      if (this.str.length > FLAT_FROM) flatSink = (this.str as unknown as number) | 0;
      this.place(this.str);
      this.str = "";
      this.flatAt = FLAT_GROWN;
      this.completed();
      return true;
    }
    this.inKey = false;
    const key = this.str;
    this.str = "";
    this.flatAt = FLAT_GROWN;
    const depth = this.depth;
    // Every earlier member's value is complete, so it is in the live object.
    if (this.members[depth]!++ > 0 && Object.hasOwn(this.containers[depth]!, key)) return false;
    this.namesRead++;
    this.keys[depth] = key;
    this.mode = COLON;
    return true;
  }

  /** Puts a value in its place: the root, the array's last element, or the object's current member. */
  private place(value: unknown): void {
    this.placements++;
    this.stale = false;
    const depth = this.depth;
    if (depth === 0) {
      this.root = value;
      return;
    }
    const container = this.containers[depth]!;
    if (this.arrays[depth]) {
      const array = container as unknown[];
      // A string grows in place; anything else is a new element.
      if (this.placedString) array[array.length - 1] = value;
      else array.push(value);
    } else {
      const key = this.keys[depth]!;
      // Own data property even for "__proto__", as JSON.parse makes it.
      if (key === "__proto__" && !Object.hasOwn(container, key)) {
        Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        (container as Record<string, unknown>)[key] = value;
      }
    }
    this.placedString = typeof value === "string";
  }

  private placedString = false;

  /** Whether a push that only grows a string value in a container leaves its place as it was (deferOpenString). */
  private deferring = false;
  /** The open string value's place holds less than openString (a push deferred it). */
  private stale = false;

  deferOpenString(): void {
    this.deferring = true;
  }

  settleOpenString(): void {
    if (!this.stale) return;
    this.stale = false;
    // Still open (anything else a push read wrote it or its successor to its place).
    const depth = this.depth;
    if (this.arrays[depth]) {
      const array = this.containers[depth] as unknown[];
      array[array.length - 1] = this.str;
    } else {
      (this.containers[depth] as Record<string, unknown>)[this.keys[depth]!] = this.str;
    }
  }

  /** Writes the open string value to its place, where place() first put it. */
  private placeOpenString(): void {
    this.placements++;
    this.stale = false;
    const depth = this.depth;
    if (depth === 0) {
      this.root = this.str;
    } else if (this.arrays[depth]) {
      const array = this.containers[depth] as unknown[];
      array[array.length - 1] = this.str;
    } else {
      // Already an own data member (even "__proto__"), so a plain write sets it.
      (this.containers[depth] as Record<string, unknown>)[this.keys[depth]!] = this.str;
    }
  }

  endNumber(): boolean {
    if (this.mode !== NUMBER || this.depth === 0 || this.refusal !== undefined) return false;
    const s = this.numState;
    if (s === N_MINUS || s === N_DOT || s === N_E || s === N_ESIGN) return false;
    this.lowest = this.depth;
    // numberRun ends the number at a character that cannot continue it, without reading that character.
    if (this.numberRun(",", 0) === REFUSED) return false;
    this.did = "placed";
    return true;
  }

  /** A value is complete: what may follow depends on what holds it. */
  private completed(): void {
    this.placedString = false;
    this.mode = this.depth === 0 ? DONE : AFTER;
  }

  private close(): void {
    this.depth--;
    if (this.depth < this.lowest) this.lowest = this.depth;
    this.completed();
  }
}

/** Parses a whole text through the incremental parser, split into the given deltas (tests and the benchmark). */
export function parseInDeltas(
  deltas: readonly string[],
  limits: Partial<ParseLimits> = {},
): Result<unknown, ParseRefusal> {
  const parser = new IncrementalParser(limits);
  for (const delta of deltas) {
    const result = parser.push(delta);
    if (!result.ok) return parser.end();
  }
  return parser.end();
}

/** The index of the first character from i that a string cannot take as it is (quote, backslash, control, surrogate), or n. */
function plainEnd(d: string, i: number, n: number): number {
  if (n - i > LONG_RUN) {
    STOP.lastIndex = i;
    return STOP.test(d) ? STOP.lastIndex - 1 : n;
  }
  for (; i < n; i++) {
    const c = d.charCodeAt(i);
    if (c <= 92 ? c === 34 || c === 92 || c < 0x20 : c >= 0xd800 && c <= 0xdfff) return i;
  }
  return n;
}

/** False for NaN too. */
function isSafe(value: number): boolean {
  return Math.abs(value) <= Number.MAX_SAFE_INTEGER;
}

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
