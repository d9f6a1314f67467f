/**
 * Hostile inputs generated at any size, shared by the reliability tests (which
 * check each is refused with its code, without a throw) and the benchmark's
 * hostile section (which checks the refusal's cost grows linearly with the size).
 */
import type { ErrorCode, ParseLimits } from "@strictwire/codec";

export const MB = 1_000_000;

/** `[[[…]]]` n deep, or only the openers. */
export function arrayBomb(n: number, closed = true): string {
  return "[".repeat(n) + (closed ? "]".repeat(n) : "");
}

/** `{"a":{"a":…1…}}` n deep, or only the openers. */
export function objectBomb(n: number, closed = true): string {
  return '{"a":'.repeat(n) + (closed ? `1${"}".repeat(n)}` : "");
}

/**
 * A flat (not rope) copy of a string, so that timings measure the reader and
 * not V8 flattening a concatenation. Through JSON, so that lone surrogates survive.
 */
export function flat(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

// ---- decode bombs ----

/** The schema decode bombs are decoded under: an any-JSON slot x, and an optional map m of strings. */
export const BOMB_SCHEMA = {
  type: "object",
  properties: { x: {}, m: { type: "object", additionalProperties: { type: "string" } } },
  required: ["x"],
  additionalProperties: false,
} as const;

/** BOMB_SCHEMA's wire text with the any-JSON slot x holding `inner`, and the optional map m absent. */
export const bombArgs = (inner: string): string => `{"x":${inner},"m":{"state":"absent"}}`;

/** Limits that leave each hostile shape to be refused by its hostility, not by its size. */
export const ROOMY_LIMITS: Partial<ParseLimits> = { maxBytes: 32 * MB, maxNodes: 32 * MB, maxDepth: 64 };

const repeatTo = (size: number, unit: string) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

export interface HostileShape {
  readonly name: string;
  /** Its name in the benchmark's JSON output. */
  readonly key: string;
  /** The code decode refuses it with under ROOMY_LIMITS, whatever its size. */
  readonly expect: ErrorCode;
  /** The input at about `size` bytes. */
  make(size: number): string | Uint8Array;
}

/** Shapes whose refusal must cost time linear in their size: each is read to (nearly) its end before refusal. */
export const HOSTILE_SHAPES: readonly HostileShape[] = [
  {
    name: "one long string with a raw control character at its end",
    key: "controlCharacter",
    expect: "invalid-json",
    make: (n) => bombArgs(`"${"a".repeat(n)}\n"`),
  },
  {
    name: "pretty-printed long strings, then garbage after the root",
    key: "trailingGarbage",
    expect: "invalid-json",
    make: (n) => `${bombArgs(`[\n  ${repeatTo(n, `"${"a".repeat(60)}",\n  `)}"end"\n]`)} x`,
  },
  {
    name: "short strings full of escapes, left unterminated",
    key: "escapes",
    expect: "invalid-json",
    make: (n) => `{"x":[${repeatTo(n, '"\\u0041\\n\\"",')}"abc`,
  },
  {
    name: "a wide object whose last member repeats the first",
    key: "wideObject",
    expect: "duplicate-key",
    make: (n) => bombArgs(`{${Array.from({ length: Math.floor(n / 12) }, (_, i) => `"k${i}":0`).join(",")},"k0":1}`),
  },
  {
    name: "escaped member names, the last one a repeat",
    key: "escapedNames",
    expect: "duplicate-key",
    make: (n) =>
      bombArgs(`{${Array.from({ length: Math.floor(n / 20) }, (_, i) => `"\\u006b${i}":0`).join(",")},"k0":1}`),
  },
  {
    name: "twelve-member objects, a repeat in the last",
    key: "smallObjects",
    expect: "duplicate-key",
    make: (n) =>
      bombArgs(
        `[${repeatTo(n, '{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0,"k":0,"l":0},')}{"a":0,"a":0}]`,
      ),
  },
  {
    name: "a single number literal of n digits",
    key: "longNumber",
    expect: "unsafe-number",
    make: (n) => bombArgs("9".repeat(n)),
  },
  {
    name: "towers 60 deep, the last one too deep",
    key: "towers",
    expect: "too-deep",
    make: (n) => bombArgs(`[${repeatTo(n, `${arrayBomb(60)},`)}${arrayBomb(70)}]`),
  },
  {
    name: "surrogate pairs, then a lone surrogate",
    key: "loneSurrogate",
    expect: "invalid-utf8",
    make: (n) => bombArgs(`"${"😀".repeat(Math.floor(n / 4))}\ud800"`),
  },
  {
    name: "whitespace, then garbage",
    key: "whitespace",
    expect: "invalid-json",
    make: (n) => `${bombArgs("1")}${" ".repeat(n)}x`,
  },
  {
    name: "bytes: multibyte text, an invalid byte at the end",
    key: "invalidByte",
    expect: "invalid-utf8",
    make: (n) =>
      new Uint8Array([...Buffer.from(bombArgs(`"${"é".repeat(Math.floor(n / 2))}`)), 0xff, 0x22, 0x7d, 0x7d]),
  },
  {
    name: "any-JSON entries, the last one a repeat",
    key: "anyJsonEntries",
    expect: "duplicate-entry",
    make: (n) =>
      bombArgs(
        `{"entries":[${Array.from({ length: Math.floor(n / 24) }, (_, i) => `{"key":"k${i}","value":0}`).join(",")},{"key":"k0","value":1}]}`,
      ),
  },
  {
    name: "map entries, the last one a repeat",
    key: "mapEntries",
    expect: "duplicate-entry",
    make: (n) =>
      `{"x":null,"m":{"state":"present","value":[${Array.from({ length: Math.floor(n / 26) }, (_, i) => `{"key":"k${i}","value":"v"}`).join(",")},{"key":"k0","value":"w"}]}}`,
  },
];

// ---- a catastrophic pattern ----

/** A string member v whose pattern backtracks exponentially in an engine that backtracks (RE2 does not). */
export const PATTERN_BOMB = "(a+)+$";

/** The wire text of v: n letters a, then one that makes the pattern fail. */
export const patternBombText = (n: number): string => `{"v":"${"a".repeat(n)}!"}`;

// ---- schema bombs ----

/** A closed object whose one required member v has the schema `v`. */
export const obj = (v: unknown) => ({
  type: "object",
  properties: { v },
  required: ["v"],
  additionalProperties: false,
});
export const withDefs = (v: unknown, $defs: Record<string, unknown>) => ({ ...obj(v), $defs });

/** anyOf nested k deep, each level naming the one below twice (shared): a document of 2^k leaves. */
export function nestedAnyOf(k: number): unknown {
  let s: unknown = { type: "string" };
  for (let i = 0; i < k; i++) s = { anyOf: [s, { type: "array", items: s }] };
  return obj(s);
}

/** n levels of `items`. */
export function nestedItems(n: number): unknown {
  let s: unknown = { type: "string" };
  for (let i = 0; i < n; i++) s = { type: "array", items: s };
  return obj(s);
}

/** Definitions d0..d(n-1), each only a reference to the next; d(n) a string. */
export function referenceChain(n: number): unknown {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  $defs[`d${n}`] = { type: "string" };
  return withDefs({ $ref: "#/$defs/d0" }, $defs);
}

/** Definitions d0..d(n-1), each an array of the next; d(n) a string. */
export function arrayChain(n: number): unknown {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = { type: "array", items: { $ref: `#/$defs/d${i + 1}` } };
  $defs[`d${n}`] = { type: "string" };
  return withDefs({ $ref: "#/$defs/d0" }, $defs);
}

/** An enum of n strings. */
export const bigEnum = (n: number): unknown => obj({ enum: Array.from({ length: n }, (_, i) => `v${i}`) });

/** An object of n string properties. */
export function manyProperties(n: number): unknown {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) properties[`p${i}`] = { type: "string" };
  return { type: "object", properties };
}
