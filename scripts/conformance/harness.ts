/**
 * What every corpus does with the codec: compile, round-trip, ask the
 * validator. Expected failures come back as values; an exception thrown by
 * the codec is a bug, so it is caught here, per case, and returned as a crash.
 */
import { type Codec, type CompileOptions, compileCodec } from "@strictwire/codec";

export interface Crash {
  readonly stage: "compile" | "encode" | "decode" | "validate";
  readonly message: string;
  readonly stack?: string;
}

export type Compiled =
  | {
      readonly kind: "compiled";
      readonly codec: Codec;
      /**
       * Plan entries whose reason says the position travels as any JSON value. `cause` is set on
       * the entry that says why (the keyword the wire could not carry); the others are that
       * position's remaining constraints, relaxed with it.
       */
      readonly anyFallbacks: readonly { readonly path: string; readonly keyword: string; readonly cause?: string }[];
      readonly ms: number;
    }
  | { readonly kind: "refused"; readonly code: string; readonly path: string; readonly message: string; ms: number }
  | { readonly kind: "crashed"; readonly crash: Crash; readonly ms: number };

/** The marker compile writes into a relaxed constraint's reason when a position lost its wire structure. */
export const ANY_FALLBACK_MARK = "travels as any JSON value";

export function tryCompile(schema: unknown, options: CompileOptions): Compiled {
  const start = performance.now();
  try {
    const r = compileCodec(schema, options);
    const ms = performance.now() - start;
    if (!r.ok) return { kind: "refused", code: r.error.code, path: r.error.path, message: r.error.message, ms };
    const anyFallbacks = r.value.bundle.plan.relaxed
      .filter((x) => x.reason.includes(ANY_FALLBACK_MARK))
      .map((x) => {
        const cause = x.reason.slice(0, x.reason.indexOf(ANY_FALLBACK_MARK)).replace(/[:\s]+$/, "");
        return { path: x.path, keyword: x.keyword, ...(cause !== "" ? { cause } : {}) };
      });
    return { kind: "compiled", codec: r.value, anyFallbacks, ms };
  } catch (error) {
    return { kind: "crashed", crash: crashOf("compile", error), ms: performance.now() - start };
  }
}

export type RoundTrip =
  | { readonly kind: "round-tripped" }
  /** encode refused the value. */
  | { readonly kind: "refused"; readonly code: string; readonly message: string }
  /** encode accepted, decode of its own output refused. */
  | { readonly kind: "decode-refused"; readonly code: string; readonly message: string; readonly wire: string }
  /** decode accepted, but the value differs from the one encoded. */
  | { readonly kind: "mismatch"; readonly decoded: unknown; readonly wire: string }
  | { readonly kind: "crashed"; readonly crash: Crash };

/** decode(JSON.stringify(encode(x))) must give x back exactly (member presence included, key order ignored). */
export function roundTrip(codec: Codec, value: unknown): RoundTrip {
  let wire: string;
  try {
    const encoded = codec.encode(value);
    if (!encoded.ok) return { kind: "refused", code: encoded.error.code, message: encoded.error.message };
    wire = JSON.stringify(encoded.value);
  } catch (error) {
    return { kind: "crashed", crash: crashOf("encode", error) };
  }
  try {
    const decoded = codec.decode(wire);
    if (!decoded.ok) return { kind: "decode-refused", code: decoded.error.code, message: decoded.error.message, wire };
    return sameJson(decoded.value, value)
      ? { kind: "round-tripped" }
      : { kind: "mismatch", decoded: decoded.value, wire };
  } catch (error) {
    return { kind: "crashed", crash: crashOf("decode", error) };
  }
}

export type Encoded =
  | { readonly kind: "accepted" }
  | { readonly kind: "refused"; readonly code: string }
  | { readonly kind: "crashed"; readonly crash: Crash };

/** encode alone: what an invalid instance must be refused by. */
export function tryEncode(codec: Codec, value: unknown): Encoded {
  try {
    const r = codec.encode(value);
    return r.ok ? { kind: "accepted" } : { kind: "refused", code: r.error.code };
  } catch (error) {
    return { kind: "crashed", crash: crashOf("encode", error) };
  }
}

/** The codec's own verdict on the original schema (its ajv, its settings). */
export function verdict(codec: Codec, value: unknown): boolean | Crash {
  try {
    return codec.validate(value).ok;
  } catch (error) {
    return crashOf("validate", error);
  }
}

export function isCrash(x: unknown): x is Crash {
  return typeof x === "object" && x !== null && "stage" in x;
}

function crashOf(stage: Crash["stage"], error: unknown): Crash {
  if (error instanceof Error) return { stage, message: `${error.name}: ${error.message}`, ...stackOf(error) };
  return { stage, message: String(error) };
}

function stackOf(error: Error): { stack?: string } {
  return error.stack === undefined ? {} : { stack: error.stack.split("\n").slice(0, 8).join("\n") };
}

/**
 * Strict structural equality of JSON values, written here rather than taken
 * from the codec so the check does not share the code it checks. Own members
 * only, same member sets, key order ignored; numbers compare by value.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Deterministic JSON text (keys sorted), for de-duplication. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** A tool name compile accepts: what BFCL itself does for OpenAI (dots and other characters -> "_"). */
export function toolName(name: unknown): string {
  const s = typeof name === "string" ? name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) : "";
  return s === "" ? "tool" : s;
}

/** Counters keyed by a name. */
export type Tally = Record<string, number>;

export function bump(t: Tally, key: string, n = 1): void {
  t[key] = (t[key] ?? 0) + n;
}

/** Keep the first `limit` examples of each kind. */
export class Examples<T> {
  private readonly byKind = new Map<string, T[]>();
  constructor(private readonly limit: number) {}
  add(kind: string, example: T): void {
    let list = this.byKind.get(kind);
    if (list === undefined) {
      list = [];
      this.byKind.set(kind, list);
    }
    if (list.length < this.limit) list.push(example);
  }
  toJSON(): Record<string, T[]> {
    return Object.fromEntries([...this.byKind].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** A short excerpt of a value for reports. */
export function excerpt(value: unknown, max = 200): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
