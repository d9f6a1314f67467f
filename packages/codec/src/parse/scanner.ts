/**
 * Validating JSON scanner: one iterative pass (no recursion, so nesting can
 * never exhaust the JS stack) that checks RFC 8259 syntax and the strictwire
 * rules: depth, node count, duplicate member names, unsafe numbers and lone
 * surrogates. It builds nothing. Once it accepts a text, native JSON.parse
 * builds the value: the accepted grammar is exactly JSON.parse's minus the
 * inputs rejected here, and native building is faster than building in JS.
 */
import { pointerJoin } from "../errors.js";
import { hex4, isLowSurrogate } from "./chars.js";
import {
  describeAfterValue,
  describeExpectedKey,
  describeExpectedValue,
  describeMissingColon,
  describeNumberError,
  describeStringError,
  describeTrailing,
  duplicateKey,
  emptyInput,
  isValueStart,
  type Problem,
  tooDeep,
  tooManyNodes,
  unsafeNumber,
} from "./describe.js";

/** Where and why the scanner stopped, in the terms of the text it read. */
export interface ScanFailure extends Problem {
  readonly ok: false;
  /** Index into the scanned string, in UTF-16 code units. */
  readonly offset: number;
  /** JSON Pointer to the member or element concerned. */
  readonly path: string;
}

export interface ScanSuccess {
  readonly ok: true;
  /** A number whose value is -0 was seen, so the built value needs normalising. */
  readonly negativeZero: boolean;
}

export interface ScanOptions {
  readonly maxNodes: number;
  readonly maxDepth: number;
  /** The caller knows the text has no lone surrogates, so raw surrogates need no checking. */
  readonly wellFormed: boolean;
  /**
   * Skip looking for raw control characters inside long strings. Only for a
   * caller that lets JSON.parse, which rejects them, check the text after
   * an accepting scan, and scans again without this when either fails.
   */
  readonly trustControls: boolean;
}

const QUOTE = 34;
const COMMA = 44;
const MINUS = 45;
const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;

const ARRAY = 1;
const OBJECT = 2;

/** Objects with up to this many members compare names linearly; bigger ones are checked at once (firstRepeat). */
const LINEAR_NAMES = 12;

/** Strings are scanned char by char up to this length, then by native searches. */
const SHORT_STRING = 16;
/** Raw characters a long string must stop at, besides quotes and backslashes (which indexOf finds faster). */
const CONTROL = /[\u0000-\u001f]/g;
const SURROGATE = /[\ud800-\udfff]/g;
const CONTROL_OR_SURROGATE = /[\u0000-\u001f\ud800-\udfff]/g;

/** A number below 10^15 is a safe integer or not an integer. */
const SAFE_MAGNITUDE = 15;
/** A number below 10^-300 might underflow to zero (the smallest double is about 5e-324). */
const UNDERFLOW_MAGNITUDE = -300;

export function scanJson(s: string, options: ScanOptions): ScanSuccess | ScanFailure {
  return new Scanner(s, options).run();
}

class Scanner {
  private readonly n: number;
  private negativeZero = false;
  /** Set by number() when the failing number was well-formed but unsafe. */
  private unsafe = false;
  /** Set by string() when it met a backslash, so a member name needs decoding. */
  private escaped = false;
  /** Set by member() when it returns -1. */
  private failure: ScanFailure | undefined;
  // Per-depth state; index 1 is the root container. `index` is the current
  // element's index in an array and -1 in an object. A member name is kept as
  // the span of its text, `start` negated (~start) when it has escapes.
  private readonly index: number[] = [0];
  private readonly nameStart: number[] = [0];
  private readonly nameEnd: number[] = [0];
  private readonly namesBase: number[] = [0];
  /**
   * The depths of the open objects past LINEAR_NAMES names, outermost first:
   * their names are checked for a repeat at once (firstRepeat), when the
   * object closes or the scan stops inside it.
   */
  private readonly big: number[] = [];
  private keys = new Float64Array(0);
  /** Name spans of the open objects, innermost last. */
  private readonly namesStart: number[] = [];
  private readonly namesEnd: number[] = [];
  private namesLen = 0;
  /** Cached positions for longString(): the next quote, backslash, and other stop character. */
  private nextQuote = -1;
  private nextBackslash = -1;
  private nextOther = -1;
  private readonly other: RegExp | undefined;

  constructor(
    private readonly s: string,
    private readonly options: ScanOptions,
  ) {
    this.n = s.length;
    this.other = stopCharacters(options);
    // With nothing else to stop at, the next other stop is the end.
    if (this.other === undefined) this.nextOther = this.n;
  }

  run(): ScanSuccess | ScanFailure {
    const { s, n, index } = this;
    const { maxNodes, maxDepth } = this.options;
    let i = skipWs(s, 0, n);
    let depth = 0;
    let nodes = 0;
    if (i >= n) return this.failAt(i, 0, false, emptyInput(n));

    // Each turn reads one value at i, then consumes separators and closers
    // until the next value is due.
    for (;;) {
      let c = s.charCodeAt(i);
      if (++nodes > maxNodes) {
        const problem = isValueStart(c) ? tooManyNodes(maxNodes) : describeExpectedValue(s, i, this.container(depth));
        return this.failAt(i, depth, true, problem);
      }
      if (c === QUOTE) {
        const end = this.string(i + 1);
        if (end < 0) return this.failAt(~end, depth, true, describeStringError(s, ~end));
        i = end + 1;
      } else if (c === LBRACKET || c === LBRACE) {
        if (++depth > maxDepth) return this.failAt(i, depth - 1, true, tooDeep(maxDepth));
        i = skipWs(s, i + 1, n);
        if (c === LBRACKET) {
          index[depth] = 0;
          if (s.charCodeAt(i) !== RBRACKET) continue;
        } else {
          index[depth] = -1;
          if (s.charCodeAt(i) !== RBRACE) {
            this.openObject(depth);
            i = this.member(i, depth);
            if (i < 0) return this.failure!;
            continue;
          }
        }
        // An empty container: it closes at once.
        i++;
        depth--;
      } else if (c === MINUS || (c >= 48 && c <= 57)) {
        const end = this.number(i);
        if (end < 0) {
          const problem = this.unsafe ? unsafeNumber(s, i, ~end) : describeNumberError(s, i, ~end);
          return this.failAt(this.unsafe ? i : ~end, depth, true, problem);
        }
        i = end;
      } else {
        const end = literalEnd(s, i, c);
        if (end < 0) return this.failAt(i, depth, true, describeExpectedValue(s, i, this.container(depth)));
        i = end;
      }

      for (;;) {
        i = skipWs(s, i, n);
        if (depth === 0) return i < n ? this.failAt(i, 0, false, describeTrailing(s, i)) : this.success();
        c = s.charCodeAt(i);
        const element = index[depth]!;
        if (element >= 0) {
          if (c === COMMA) {
            index[depth] = element + 1;
            i = skipWs(s, i + 1, n);
            break;
          }
          if (c !== RBRACKET) return this.failAt(i, depth, false, describeAfterValue(s, i, ARRAY));
        } else {
          if (c === COMMA) {
            i = this.member(skipWs(s, i + 1, n), depth);
            if (i < 0) return this.failure!;
            break;
          }
          if (c !== RBRACE) return this.failAt(i, depth, false, describeAfterValue(s, i, OBJECT));
          const repeat = this.closeObject(depth);
          if (repeat !== undefined) return repeat;
        }
        i++;
        depth--;
      }
    }
  }

  /** What is open at depth: nothing, an array or an object. */
  private container(depth: number): number {
    if (depth === 0) return 0;
    return this.index[depth]! >= 0 ? ARRAY : OBJECT;
  }

  private success(): ScanSuccess {
    return { ok: true, negativeZero: this.negativeZero };
  }

  /**
   * Reads `"name" :` at i and records the name. Returns the index of the
   * member's value, or -1 with `failure` set.
   */
  private member(i: number, depth: number): number {
    const { s, n } = this;
    if (s.charCodeAt(i) !== QUOTE) return this.fail(i, depth, false, describeExpectedKey(s, i));
    this.escaped = false;
    const end = this.string(i + 1);
    if (end < 0) return this.fail(~end, depth, false, describeStringError(s, ~end));
    const start = this.escaped ? ~(i + 1) : i + 1;
    this.nameStart[depth] = start;
    this.nameEnd[depth] = end;
    if (this.isDuplicate(start, end, depth)) return this.fail(i, depth, true, duplicateKey(this.name(start, end)));
    const colon = skipWs(s, end + 1, n);
    if (s.charCodeAt(colon) !== COLON) return this.fail(colon, depth, true, describeMissingColon(s, colon));
    return skipWs(s, colon + 1, n);
  }

  /** The decoded member name of a span (start negated when it has escapes). */
  private name(start: number, end: number): string {
    if (start >= 0) return this.s.slice(start, end);
    // The name is validated, so JSON.parse only decodes its escapes; unless a
    // scan trusting controls let a raw one through, and then that scan's
    // verdict is discarded anyway (see ScanOptions.trustControls).
    const quoted = this.s.slice(~start - 1, end + 1);
    try {
      return JSON.parse(quoted) as string;
    } catch {
      return quoted;
    }
  }

  private openObject(depth: number): void {
    this.namesBase[depth] = this.namesLen;
  }

  /** Closes the object at depth; in a big one, a repeated name is the scan's failure. */
  private closeObject(depth: number): ScanFailure | undefined {
    const base = this.namesBase[depth]!;
    let repeat: ScanFailure | undefined;
    if (this.big.at(-1) === depth) {
      this.big.pop();
      const at = this.repeatIn(base, this.namesLen);
      // An outer object's repeat was written before this object began: the first problem is its.
      if (at >= 0) repeat = this.bigRepeat(depth) ?? this.repeatAt(depth, at);
    }
    this.namesLen = base;
    return repeat;
  }

  /**
   * Records a member name of the object at depth; true if it was already
   * there. Small objects compare names as they come (spans of the text,
   * allocating nothing; names with escapes decoded). A big object's names are
   * checked at once (closeObject, failAt): a hash table as large as the
   * object, read at random, costs more per name once it outgrows the
   * processor's caches (350,000 names in a Set took 8 to 14 times as long as
   * 87,000), while sorting keeps to sequential passes.
   */
  private isDuplicate(start: number, end: number, depth: number): boolean {
    const base = this.namesBase[depth]!;
    const len = this.namesLen++;
    this.namesStart[len] = start;
    this.namesEnd[len] = end;
    if (len - base === LINEAR_NAMES) this.big.push(depth);
    if (len - base > LINEAR_NAMES) return false;
    for (let k = base; k < len; k++) if (this.sameName(k, len)) return true;
    return false;
  }

  /**
   * The first repeated name of an open big object, as the failure the scan
   * would have stopped at: the outermost one's first (an outer object's names
   * were all written before what is open inside it).
   */
  private bigRepeat(depth: number): ScanFailure | undefined {
    for (const d of this.big) {
      // Its names run to the next open object's first (the objects open inside it put theirs after its).
      let to = this.namesLen;
      for (let e = depth; e > d; e--) if (this.index[e] === -1) to = this.namesBase[e]!;
      const at = this.repeatIn(this.namesBase[d]!, to);
      if (at >= 0) return this.repeatAt(d, at);
    }
    return undefined;
  }

  /** The first of the names from..to whose name an earlier one has, or -1. */
  private repeatIn(from: number, to: number): number {
    if (this.keys.length < to - from) this.keys = new Float64Array(2 * (to - from));
    return firstRepeat(
      from,
      to,
      this.keys,
      (k) => {
        const name = this.name(this.namesStart[k]!, this.namesEnd[k]!);
        let h = 0x811c9dc5;
        for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
        return h >>> 1;
      },
      (k) => this.name(this.namesStart[k]!, this.namesEnd[k]!),
    );
  }

  /** A repeat reported as member() reports one: at the name's opening quote, the path ending in the name. */
  private repeatAt(depth: number, k: number): ScanFailure {
    const start = this.namesStart[k]!;
    const name = this.name(start, this.namesEnd[k]!);
    return {
      ok: false,
      ...duplicateKey(name),
      offset: (start < 0 ? ~start : start) - 1,
      path: pointerJoin(this.pathTo(depth - 1), name),
    };
  }

  /** Whether the names recorded at a and b are one. */
  private sameName(a: number, b: number): boolean {
    const aStart = this.namesStart[a]!;
    const bStart = this.namesStart[b]!;
    const length = this.namesEnd[a]! - aStart;
    if (aStart >= 0 && bStart >= 0)
      return this.namesEnd[b]! - bStart === length && sameText(this.s, aStart, bStart, length);
    return this.name(aStart, this.namesEnd[a]!) === this.name(bStart, this.namesEnd[b]!);
  }

  /** Scans a string body from i (just after the quote). Returns the closing quote's index, or ~offset of the fault. */
  private string(i: number): number {
    const { s, n } = this;
    // Short strings (most names and many values) are cheapest char by char.
    const stop = Math.min(i + SHORT_STRING, n);
    for (; i < stop; i++) {
      const c = s.charCodeAt(i);
      // Ordered so that a lowercase letter costs two comparisons.
      if (c <= BACKSLASH ? c === QUOTE || c === BACKSLASH || c < 0x20 : c >= 0xd800 && c <= 0xdfff) {
        if (c === QUOTE) return i;
        const next = this.special(i, c);
        if (next < 0) return next;
        i = next - 1;
      }
    }
    return i < n ? this.longString(i) : ~n;
  }

  /**
   * The rest of a long string: native searches jump to the next quote,
   * backslash and other stop character. Each position is cached (nothing to
   * find lies between its search start and it, and i only grows), so the
   * searches cost linear time over the whole text.
   */
  private longString(i: number): number {
    const { s, n } = this;
    for (;;) {
      let quote = this.nextQuote;
      if (quote < i) this.nextQuote = quote = indexOrEnd(s.indexOf('"', i), n);
      let backslash = this.nextBackslash;
      if (backslash < i) this.nextBackslash = backslash = indexOrEnd(s.indexOf("\\", i), n);
      let other = this.nextOther;
      if (other < i) this.nextOther = other = this.searchOther(i);
      const stop = Math.min(backslash, other);
      if (quote < stop) return quote;
      if (stop >= n) return ~n;
      i = this.special(stop, s.charCodeAt(stop));
      if (i < 0) return i;
    }
  }

  private searchOther(i: number): number {
    const other = this.other!;
    other.lastIndex = i;
    return other.test(this.s) ? other.lastIndex - 1 : this.n;
  }

  /** Handles a backslash, control character or surrogate at i inside a string: the index after it, or ~i. */
  private special(i: number, c: number): number {
    if (c === BACKSLASH) {
      this.escaped = true;
      return escapeEnd(this.s, i);
    }
    // A raw surrogate must be a high one followed by a low one.
    if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(this.s.charCodeAt(i + 1))) return i + 2;
    return ~i;
  }

  /** Scans a number at start. Returns its end, or ~offset of the fault (and sets `unsafe` for an unsafe value). */
  private number(start: number): number {
    const s = this.s;
    let i = start;
    let c = s.charCodeAt(i);
    const negative = c === MINUS;
    if (negative) c = s.charCodeAt(++i);
    const intStart = i;
    if (c === 48) {
      c = s.charCodeAt(++i);
      if (isDigit(c)) return ~i;
    } else if (c >= 49 && c <= 57) {
      do c = s.charCodeAt(++i);
      while (isDigit(c));
    } else {
      return ~i;
    }
    const intZero = s.charCodeAt(intStart) === 48;
    // The value is below 10^magnitude.
    let magnitude = intZero ? 0 : i - intStart;
    if (c === 46) {
      c = s.charCodeAt(++i);
      if (!isDigit(c)) return ~i;
      do c = s.charCodeAt(++i);
      while (isDigit(c));
    }
    if (c === 101 || c === 69) {
      c = s.charCodeAt(++i);
      const negativeExponent = c === MINUS;
      if (c === 43 || c === MINUS) c = s.charCodeAt(++i);
      if (!isDigit(c)) return ~i;
      let exponent = 0;
      do {
        // Capped: beyond this the magnitude test below has its answer anyway.
        if (exponent < 100_000) exponent = exponent * 10 + c - 48;
        c = s.charCodeAt(++i);
      } while (isDigit(c));
      magnitude += negativeExponent ? -exponent : exponent;
    }
    // Only numbers that might be unsafe, or a negative zero (written so, or a
    // negative underflow), are materialised; the -0 is noted for normalising.
    if (magnitude > SAFE_MAGNITUDE || (negative && (intZero || magnitude < UNDERFLOW_MAGNITUDE))) {
      const value = Number(s.slice(start, i));
      if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) {
        this.unsafe = true;
        return ~i;
      }
      if (value === 0 && negative) this.negativeZero = true;
    }
    return i;
  }

  private fail(offset: number, depth: number, includeTop: boolean, problem: Problem): -1 {
    this.failure = this.failAt(offset, depth, includeTop, problem);
    return -1;
  }

  private failAt(offset: number, depth: number, includeTop: boolean, problem: Problem): ScanFailure {
    // A repeated name of a big object was written before the point of this failure.
    if (this.big.length > 0) {
      const repeat = this.bigRepeat(depth);
      if (repeat !== undefined) return repeat;
    }
    return { ok: false, ...problem, offset, path: this.pathTo(includeTop ? depth : depth - 1) };
  }

  /** JSON Pointer to the element or member being read at each level up to depth. */
  private pathTo(depth: number): string {
    let path = "";
    for (let d = 1; d <= depth; d++) {
      const element = this.index[d]!;
      path =
        element >= 0
          ? `${path}/${element}`
          : pointerJoin(path, this.name(this.nameStart[d] ?? 0, this.nameEnd[d] ?? 0));
    }
    return path;
  }
}

/**
 * The first index in from..to whose name an earlier one has, or -1: each
 * index a key (the top bits of its `hash` (31 bits), then its place, in one
 * double's 53 exact bits: the whole hash up to 2^22 names), the keys sorted,
 * and only names of one hash compared, through a Set (`nameOf`), so that
 * hashes an adversary made collide cost no more than names that differ.
 * `scratch` holds at least to - from keys.
 */
export function firstRepeat(
  from: number,
  to: number,
  scratch: Float64Array,
  hash: (k: number) => number,
  nameOf: (k: number) => string,
): number {
  const n = to - from;
  const placeBits = Math.max(1, Math.ceil(Math.log2(n)));
  const span = 2 ** placeBits;
  const keys = scratch.subarray(0, n);
  for (let k = 0; k < n; k++) keys[k] = (hash(from + k) >>> Math.max(0, placeBits - 22)) * span + k;
  keys.sort();
  let first = n;
  for (let a = 0, b = 1; a < n; a = b++) {
    const group = Math.floor(keys[a]! / span);
    while (b < n && Math.floor(keys[b]! / span) === group) b++;
    if (b - a === 1) continue;
    // Places ascend within a hash: the first whose name an earlier one has.
    const seen = new Set<string>();
    for (let k = a; k < b; k++) {
      const name = nameOf(from + (keys[k]! % span));
      if (seen.has(name)) {
        first = Math.min(first, keys[k]! % span);
        break;
      }
      seen.add(name);
    }
  }
  return first === n ? -1 : from + first;
}

function skipWs(s: string, i: number, n: number): number {
  // Most JSON from models is compact: one comparison settles it.
  if (s.charCodeAt(i) > 32) return i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
  }
  return n;
}

/** What a long string must stop at besides quotes and backslashes, given what the caller vouches for. */
function stopCharacters({ wellFormed, trustControls }: ScanOptions): RegExp | undefined {
  if (wellFormed) return trustControls ? undefined : CONTROL;
  return trustControls ? SURROGATE : CONTROL_OR_SURROGATE;
}

function indexOrEnd(found: number, n: number): number {
  return found < 0 ? n : found;
}

/** Whether the length chars at a and at b are the same. */
function sameText(s: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** End of `true`, `false` or `null` at i, or -1. */
function literalEnd(s: string, i: number, c: number): number {
  if (c === 116)
    return s.charCodeAt(i + 1) === 114 && s.charCodeAt(i + 2) === 117 && s.charCodeAt(i + 3) === 101 ? i + 4 : -1;
  if (c === 110)
    return s.charCodeAt(i + 1) === 117 && s.charCodeAt(i + 2) === 108 && s.charCodeAt(i + 3) === 108 ? i + 4 : -1;
  if (c === 102) {
    const ok = s.charCodeAt(i + 1) === 97 && s.charCodeAt(i + 2) === 108 && s.charCodeAt(i + 3) === 115;
    return ok && s.charCodeAt(i + 4) === 101 ? i + 5 : -1;
  }
  return -1;
}

/**
 * End of the escape sequence whose backslash is at i, or ~i. An escaped high
 * surrogate must be followed at once by an escaped low one; anything else would
 * decode to a lone surrogate.
 */
function escapeEnd(s: string, i: number): number {
  const c = s.charCodeAt(i + 1);
  if (c !== 117) {
    const simple = c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116;
    return simple ? i + 2 : ~i;
  }
  const u = hex4(s, i + 2);
  if (u < 0) return ~i;
  if (u < 0xd800 || u > 0xdfff) return i + 6;
  if (u <= 0xdbff && s.charCodeAt(i + 6) === BACKSLASH && s.charCodeAt(i + 7) === 117) {
    if (isLowSurrogate(hex4(s, i + 8))) return i + 12;
  }
  return ~i;
}
