/**
 * The bounded JSON parser: the trust boundary where raw tool-call argument
 * text written by a model becomes a value.
 *
 * Design: texts of tool-call size take a native-first path (native.ts):
 * JSON.parse builds, then the built value is checked, and anything doubtful
 * goes to the scanner. Bigger texts, and every text the fast path doubts:
 * a fast validating scanner (scanner.ts) checks every rule in one
 * iterative pass without building anything; only text it accepts reaches
 * native JSON.parse, which builds the value (faster than building in JS). The
 * scan leaves one check, raw control characters inside long strings, to
 * JSON.parse, and any failure is re-derived by a full scan so the first
 * problem in the text is the one reported. Results are plain JSON.parse
 * values: ordinary objects whose `__proto__`, `constructor` and `prototype`
 * members are own data properties, with Object.prototype as their prototype.
 *
 * Number spelling is not preserved: `1.0` is 1 and `-0` is 0 (the sign of a
 * zero carries no meaning in tool arguments, and values must round-trip
 * through JSON.stringify, which writes -0 as 0).
 *
 * Offsets count UTF-16 code units for string input and bytes for Uint8Array
 * input, so they index the caller's own text either way.
 */
import { ok, type Result } from "../errors.js";
import { isWellFormed } from "./chars.js";
import type { Problem } from "./describe.js";
import { DEFER, NATIVE_FIRST_UP_TO, parseNative } from "./native.js";
import { type ScanFailure, type ScanOptions, scanJson } from "./scanner.js";
import { firstInvalidUtf8, utf8Length, utf8Offset } from "./utf8.js";

export interface ParseLimits {
  /** UTF-8 bytes of the whole input. */
  readonly maxBytes: number;
  /** Values of every kind: objects, arrays, strings, numbers, booleans, nulls. */
  readonly maxNodes: number;
  /** Nesting of arrays and objects; a root container is depth 1. */
  readonly maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = Object.freeze({ maxBytes: 1_000_000, maxNodes: 20_000, maxDepth: 64 });

/**
 * The deepest a codec may be configured to read. The parser itself is
 * iterative, but the validators and the decode walk recurse once per level.
 */
export const MAX_DEPTH_LIMIT = 512;

/**
 * Above this many characters the scanner checks raw control characters itself
 * instead of leaving them to JSON.parse: a failing JSON.parse has already
 * built the whole value, a copy of the input that is then thrown away.
 */
const TRUST_CONTROLS_UP_TO = 64 * 1024;

// Fatal, and keeping a BOM so that it is rejected rather than silently dropped.
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Why a text was refused: what went wrong (code, message), the rule it
 * broke, where in the value being read (`path`) and in the text (`offset`).
 * It words nothing for the model: `parseError` in feedback/parse.ts makes it
 * a CodecError, once its path is final.
 */
export interface ParseRefusal extends Problem {
  readonly path: string;
  readonly offset?: number;
}

type Refusal = { readonly ok: false; readonly error: ParseRefusal };

/**
 * Parses JSON text under limits. Never throws: every failure is a refusal
 * value (`parseJson`, in parse/json.ts, is this with its refusals worded).
 */
export function parseText(
  input: string | Uint8Array,
  limits: Partial<ParseLimits> = {},
): Result<unknown, ParseRefusal> {
  return parseWith(input, limits, true);
}

/** The scanner alone, for holding the native-first path to its verdicts in tests. */
export function parseTextByScanner(
  input: string | Uint8Array,
  limits: Partial<ParseLimits> = {},
): Result<unknown, ParseRefusal> {
  return parseWith(input, limits, false);
}

function parseWith(
  input: string | Uint8Array,
  limits: Partial<ParseLimits>,
  nativeFirst: boolean,
): Result<unknown, ParseRefusal> {
  try {
    const maxBytes = limits.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes;
    const maxNodes = limits.maxNodes ?? DEFAULT_PARSE_LIMITS.maxNodes;
    const maxDepth = limits.maxDepth ?? DEFAULT_PARSE_LIMITS.maxDepth;
    let text: string;
    if (typeof input === "string") {
      if (exceedsUtf8Bytes(input, maxBytes)) return tooLarge(maxBytes);
      text = input;
    } else if (input instanceof Uint8Array) {
      if (input.byteLength > maxBytes) return tooLarge(maxBytes, input.byteLength);
      const decoded = decodeUtf8(input);
      if (typeof decoded !== "string") return decoded;
      text = decoded;
    } else {
      return failWith(
        { code: "invalid-json", message: "the input is neither a string nor bytes", rule: "send-json" },
        "",
      );
    }
    // Decoded bytes are well-formed by construction; for a string, one native check (free for
    // one-byte strings) spares both paths checking raw surrogates.
    const wellFormed = typeof input !== "string" || isWellFormed(text);
    // Its recursion is bounded by maxDepth, so only within the depth the codec allows.
    if (nativeFirst && text.length <= NATIVE_FIRST_UP_TO && maxDepth <= MAX_DEPTH_LIMIT) {
      const value = parseNative(text, maxNodes, maxDepth, wellFormed);
      if (value !== DEFER) return ok(value);
    }
    const trustControls = text.length <= TRUST_CONTROLS_UP_TO;
    return scanThenBuild(text, { maxNodes, maxDepth, wellFormed, trustControls }, typeof input !== "string");
  } catch (error) {
    // Not reached by any input seen in testing; kept so that nothing a caller passes makes parseJson throw.
    return failWith(
      { code: "invalid-json", message: `the input could not be parsed (${String(error)})`, rule: "send-json" },
      "",
    );
  }
}

/**
 * The fast scan leaves raw control characters inside long strings to
 * JSON.parse. If either fails, a full scan names the first problem in the
 * text, so what is reported never depends on the shortcut.
 */
function scanThenBuild(text: string, options: ScanOptions, bytes: boolean): Result<unknown, ParseRefusal> {
  const fast = scanJson(text, options);
  if (fast.ok) {
    const value = tryJsonParse(text);
    if (value !== FAILED) return ok(fast.negativeZero ? withoutNegativeZero(value) : value);
  }
  const full = scanJson(text, { ...options, trustControls: false });
  if (!full.ok) return scanFailed(full, text, bytes);
  // Unreachable: the full scan accepts only what JSON.parse accepts.
  return failWith({ code: "invalid-json", message: "the input could not be parsed", rule: "send-json" }, "");
}

const FAILED: unique symbol = Symbol("failed");

function tryJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return FAILED;
  }
}

/** Decided without scanning when the length alone settles it: a UTF-16 code unit is 1 to 3 UTF-8 bytes. */
export function exceedsUtf8Bytes(s: string, maxBytes: number): boolean {
  if (s.length > maxBytes) return true;
  return s.length * 3 > maxBytes && utf8Length(s) > maxBytes;
}

function decodeUtf8(bytes: Uint8Array): string | Refusal {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    const offset = Math.max(0, firstInvalidUtf8(bytes));
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    const problem: Problem = {
      code: "invalid-utf8",
      message: `the input is not valid UTF-8 (byte 0x${byte} at offset ${offset})`,
      rule: "utf8",
    };
    return failWith(problem, "", offset);
  }
}

/** The refusal of a text past `maxBytes` (its size given for bytes, whose length is known without counting). */
export function tooLarge(maxBytes: number, size?: number): Refusal {
  const actual = size === undefined ? "" : ` (${size} bytes)`;
  const problem: Problem = {
    code: "input-too-large",
    message: `the input is larger than the limit of ${maxBytes} bytes${actual}`,
    rule: "within-bytes",
    limit: maxBytes,
  };
  return failWith(problem, "");
}

function scanFailed(scan: ScanFailure, text: string, bytes: boolean): Refusal {
  return failWith(scan, scan.path, bytes ? utf8Offset(text, scan.offset) : scan.offset);
}

function failWith(problem: Problem, path: string, offset?: number): Refusal {
  const { code, message, rule, limit } = problem;
  const refused = limit === undefined ? { code, message, rule } : { code, message, rule, limit };
  return { ok: false, error: offset === undefined ? { ...refused, path } : { ...refused, path, offset } };
}

/** Replaces every -0 in a freshly parsed value by 0, iteratively (depth is only bounded by the caller's limits). */
function withoutNegativeZero(root: unknown): unknown {
  if (Object.is(root, -0)) return 0;
  const pending: object[] = [];
  if (typeof root === "object" && root !== null) pending.push(root);
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      // Assignment is safe for a "__proto__" key: it is an own data property here, so [[Set]] never reaches the accessor.
      if (Object.is(v, -0)) record[key] = 0;
      else if (typeof v === "object" && v !== null) pending.push(v);
    }
  }
  return root;
}
