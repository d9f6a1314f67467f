/**
 * The parser's fast path for the texts tool calls are made of (up to
 * NATIVE_FIRST_UP_TO characters): native JSON.parse builds the value first,
 * then one walk over what it built checks every strictwire rule the scanner
 * checks (depth, node count, unsafe numbers, lone surrogates, -0) and a
 * native character count finds duplicate member names.
 *
 * It only ever answers "accepted, here is the value" or DEFER. On DEFER the
 * caller runs the scanner, which decides and words every failure, so a
 * rejected text is reported exactly as if this path did not exist. Accepting
 * is safe because each check below is the scanner's rule restated on the
 * built value (see the notes at each one); a property test holds the two
 * paths to the same verdict and value.
 *
 * Why a size cap: JSON.parse builds before anything is checked, so a hostile
 * text under the cap costs a bounded transient allocation (a few MB at
 * most), while bigger texts keep the scanner's guarantee that a refusal
 * allocates nothing.
 */
import { isWellFormed } from "./chars.js";

/** Texts up to this many UTF-16 code units take the native path. */
export const NATIVE_FIRST_UP_TO = 64 * 1024;

export const DEFER: unique symbol = Symbol("strictwire.defer");

/** The walk's state; the generated decoder (decode/) carries the same one. */
export interface Walk {
  readonly maxNodes: number;
  readonly maxDepth: number;
  /** A string may hold a lone surrogate, so strings need checking. */
  readonly checkStrings: boolean;
  nodes: number;
  members: number;
}

/**
 * What the generated decoder starts from: JSON.parse's value of a text the
 * native path may take; undefined where the scanner must decide. The caller
 * checks size first. The decoder then checks every string it reads for lone
 * surrogates (`checkStrings`), which is O(1) for the one-byte strings most
 * are, instead of a scan of the whole text here.
 *
 * Why that is the same check: with no surrogate written as an escape, a
 * parsed string holds a lone surrogate exactly where the text did (raw ones
 * outside strings fail JSON.parse), and the member names the decoder reads
 * are the plan's own. Any other name fails the decoder's member count. Where
 * the text escapes a surrogate (an escape may pair with a raw neighbour), or
 * the plan itself names something with a lone surrogate (`textCheck`), the
 * whole text is checked first, as the scanner would.
 */
export function parsedForWalk(text: string, textCheck: boolean): { root: unknown; checkStrings: true } | undefined {
  if (text.length > NATIVE_FIRST_UP_TO) return undefined;
  const escaped = text.indexOf("\\u") !== -1 && ESCAPED_SURROGATE.test(text);
  if ((escaped || textCheck) && !isWellFormed(text)) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { root, checkStrings: true };
}

/** Whether a plan names anything with a lone surrogate (JSON.stringify escapes exactly those). */
export function namesLoneSurrogate(plan: unknown): boolean {
  return /\\u[dD][89a-fA-F]/.test(JSON.stringify(plan));
}

/** The native walk's checks on one value at container depth `depth`, counted into `walk` (-0 made 0 inside containers). */
export function checkWithin(value: unknown, depth: number, walk: Walk): boolean {
  if (typeof value === "object" && value !== null) return container(value, depth, walk);
  return scalar(value, walk) !== DEFER;
}

/**
 * Whether `text` wrote exactly `members` members (see noDuplicateNames). The
 * generated decoder passes the members it read: that many found, and no more
 * written, means no name repeated and no member it did not read.
 */
export function namesOnce(text: string, root: object, members: number): boolean {
  return noDuplicateNames(text, root, members);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** `\uD800` to `\uDFFF` written as an escape (an escaped backslash before it only makes this conservative). */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
/** `\u003a` (a colon) written as an escape, not preceded by an escaped backslash. */
const ESCAPED_COLON = /(?<!\\)(?:\\\\)*\\u003[aA]/g;

// Node 20 has String.prototype.isWellFormed; the ES2023 lib does not declare it.

/**
 * The value of a text the scanner would accept, or DEFER. `wellFormed`: the
 * text has no raw lone surrogates.
 */
export function parseNative(text: string, maxNodes: number, maxDepth: number, wellFormed: boolean): unknown {
  // A raw lone surrogate in the text may pair up with an escaped one in the value: the scanner decides.
  if (!wellFormed) return DEFER;
  let root: unknown;
  try {
    // Same grammar as the scanner: RFC 8259, no BOM, no raw control characters in strings.
    root = JSON.parse(text);
  } catch {
    return DEFER;
  }
  const walk: Walk = {
    maxNodes,
    maxDepth,
    // With no raw lone surrogate in the text, only an escape can make one.
    checkStrings: text.indexOf("\\u") !== -1 && ESCAPED_SURROGATE.test(text),
    nodes: 1,
    members: 0,
  };
  if (typeof root !== "object" || root === null) return scalar(root, walk);
  if (!container(root, 1, walk)) return DEFER;
  return noDuplicateNames(text, root, walk.members) ? root : DEFER;
}

function scalar(value: unknown, walk: Walk): unknown {
  if (typeof value === "number") {
    // The scanner refuses a number whose value is beyond ±2^53-1 (Infinity included) and reads -0 as 0.
    if (!(value <= MAX_SAFE && value >= -MAX_SAFE)) return DEFER;
    return value === 0 ? 0 : value;
  }
  if (walk.checkStrings && typeof value === "string" && !isWellFormed(value)) return DEFER;
  return value;
}

/**
 * Checks one array or object and everything in it. Recursion is bounded:
 * it stops descending past maxDepth, which MAX_DEPTH_LIMIT keeps small.
 */
function container(node: object, depth: number, walk: Walk): boolean {
  // Depth as the scanner counts it: the root container is depth 1.
  if (depth > walk.maxDepth) return false;
  if (Array.isArray(node)) {
    const n = node.length;
    // Nodes as the scanner counts them: every value, containers included.
    walk.nodes += n;
    if (walk.nodes > walk.maxNodes) return false;
    for (let i = 0; i < n; i++) {
      const v: unknown = node[i];
      if (typeof v === "object") {
        if (v !== null && !container(v, depth + 1, walk)) return false;
      } else if (typeof v === "number") {
        if (!(v <= MAX_SAFE && v >= -MAX_SAFE)) return false;
        if (v === 0) node[i] = 0;
      } else if (walk.checkStrings && typeof v === "string" && !isWellFormed(v)) return false;
    }
    return true;
  }
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  const n = keys.length;
  walk.nodes += n;
  walk.members += n;
  if (walk.nodes > walk.maxNodes) return false;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    if (walk.checkStrings && !isWellFormed(k)) return false;
    const v = record[k];
    if (typeof v === "object") {
      if (v !== null && !container(v, depth + 1, walk)) return false;
    } else if (typeof v === "number") {
      if (!(v <= MAX_SAFE && v >= -MAX_SAFE)) return false;
      // An own data property (JSON.parse made it), so even "__proto__" is assigned, not the accessor.
      if (v === 0) record[k] = 0;
    } else if (walk.checkStrings && typeof v === "string" && !isWellFormed(v)) return false;
  }
  return true;
}

/**
 * JSON.parse keeps the last of repeated names, so duplicates show as fewer
 * members than the text wrote. Every ':' in the text is a member's separator
 * or sits inside a string, so the text wrote
 *   (colons in the text) - (raw colons inside its strings)
 * members. When the text has exactly as many colons as the value has
 * members, no name repeated; otherwise the colons inside the parsed strings
 * (less those that were written as \u003a) settle it. With a duplicate, the
 * dropped member's strings are not counted, which can only make the text
 * look like it wrote more members: still a refusal, worded by the scanner.
 * So the count found is at most the value's members, which are at most the
 * members written, which are at most the count the text gives: equality of
 * the two ends makes all equal.
 */
function noDuplicateNames(text: string, root: object, members: number): boolean {
  const textColons = count(text, ":");
  if (textColons === members) return true;
  let escapedColons = 0;
  if (text.indexOf("\\u003") !== -1) escapedColons = text.match(ESCAPED_COLON)?.length ?? 0;
  return textColons - (colonsInStrings(root) - escapedColons) === members;
}

function count(s: string, c: string): number {
  let n = 0;
  for (let i = s.indexOf(c); i !== -1; i = s.indexOf(c, i + 1)) n++;
  return n;
}

/** Colons in every string of a checked value, member names included (its depth is already bounded). */
function colonsInStrings(node: object): number {
  let n = 0;
  if (Array.isArray(node)) {
    for (const v of node) {
      if (typeof v === "string") n += count(v, ":");
      else if (typeof v === "object" && v !== null) n += colonsInStrings(v);
    }
    return n;
  }
  const record = node as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    n += count(k, ":");
    const v = record[k];
    if (typeof v === "string") n += count(v, ":");
    else if (typeof v === "object" && v !== null) n += colonsInStrings(v);
  }
  return n;
}
