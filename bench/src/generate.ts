/**
 * Realistic argument values for a schema, of a chosen size: optional members
 * mostly present, arrays of a few items, strings of words, formats and simple
 * patterns honoured. Values are checked by the caller against the original
 * schema; the generator only has to be right most of the time.
 */

import { canonicalJson, isPlainObject } from "@strictwire/codec/schema";
import type { ValidateFn } from "./baseline.js";
import { random } from "./corpora.js";

class NoValue extends Error {}
const NO = new NoValue("no value");

interface Ctx {
  readonly root: unknown;
  readonly rnd: () => number;
  /** Grows strings and arrays; 0 means minimal. */
  readonly scale: number;
  /** Probability that an optional member is present. */
  readonly optional: number;
  steps: number;
  /** Characters produced so far, and the most allowed (past it, generation gives up). */
  produced: number;
  readonly maxProduced: number;
}

const WORDS = (
  "the quick brown fox jumps over lazy dog report invoice customer order shipment ticket meeting " +
  "summary draft review deploy branch release payment account region update status priority " +
  'Zoë naïve café 東京 emoji 😀 quote "x" tab\tnew\nline'
).split(" ");

const FORMATS: Readonly<Record<string, string>> = {
  "date-time": "2024-05-01T12:30:00Z",
  date: "2024-05-01",
  time: "12:30:00Z",
  duration: "P1DT2H",
  email: "ada.lovelace@example.com",
  "idn-email": "ada@example.com",
  hostname: "api.example.com",
  "idn-hostname": "api.example.com",
  ipv4: "192.168.10.20",
  ipv6: "2001:db8::8a2e:370:7334",
  uri: "https://example.com/docs/page?id=42",
  "uri-reference": "/docs/page?id=42",
  iri: "https://example.com/docs",
  "iri-reference": "/docs",
  "uri-template": "https://example.com/{id}",
  uuid: "3f2c1a9e-8b7d-4c6e-9f01-23456789abcd",
  "json-pointer": "/a/b/0",
  "relative-json-pointer": "1/a",
  regex: "^[a-z]+$",
  byte: "aGVsbG8=",
};

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === "") return root;
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isPlainObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

const pick = <T>(ctx: Ctx, items: readonly T[]): T => items[Math.floor(ctx.rnd() * items.length)]!;

function words(ctx: Ctx, length: number): string {
  let s = "";
  while (s.length < length) s += (s === "" ? "" : " ") + pick(ctx, WORDS);
  ctx.produced += s.length;
  if (ctx.produced > ctx.maxProduced) throw NO;
  return s;
}

function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    if (k === "properties" && isPlainObject(out.properties) && isPlainObject(v))
      out.properties = { ...out.properties, ...v };
    else if (k === "required" && Array.isArray(out.required) && Array.isArray(v))
      out.required = [...new Set([...out.required, ...v])];
    else out[k] = v;
  }
  return out;
}

function gen(schema: unknown, ctx: Ctx, depth: number): unknown {
  if (++ctx.steps > 20_000 || ctx.produced > ctx.maxProduced) throw NO;
  if (schema === true || schema === undefined) return words(ctx, 12);
  if (schema === false || !isPlainObject(schema)) throw NO;
  if (depth > 24) throw NO;
  const minimal = depth > 8;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(ctx.root, schema.$ref);
    if (target === undefined) throw NO;
    const { $ref: _ref, ...rest } = schema;
    return gen(isPlainObject(target) ? merge(target, rest) : target, ctx, depth + 1);
  }
  if ("const" in schema) return structuredClone(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return structuredClone(pick(ctx, schema.enum));
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    let merged: Record<string, unknown> = rest;
    for (const part of allOf) {
      const resolved = isPlainObject(part) && typeof part.$ref === "string" ? resolveRef(ctx.root, part.$ref) : part;
      if (isPlainObject(resolved)) merged = merge(merged, resolved);
    }
    return gen(merged, ctx, depth + 1);
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (alternatives !== null && alternatives.length > 0) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    // Deep in a recursive structure, the first branches first (usually the leaves); otherwise any order.
    const order = alternatives.map((_, i) => i);
    if (!minimal) order.sort(() => ctx.rnd() - 0.5);
    else order.sort((a, b) => JSON.stringify(alternatives[a]).length - JSON.stringify(alternatives[b]).length);
    for (const i of order) {
      const branch = alternatives[i];
      try {
        return gen(isPlainObject(branch) ? merge(rest, branch) : branch, ctx, depth + 1);
      } catch (e) {
        if (!(e instanceof NoValue)) throw e;
      }
    }
    throw NO;
  }
  let type = schema.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== "null");
    type = nonNull.length > 0 ? pick(ctx, nonNull) : "null";
  }
  if (type === undefined) {
    if (
      isPlainObject(schema.properties) ||
      isPlainObject(schema.additionalProperties) ||
      Array.isArray(schema.required)
    )
      type = "object";
    else if (schema.items !== undefined || schema.prefixItems !== undefined) type = "array";
    else if (schema.format !== undefined || schema.pattern !== undefined || schema.minLength !== undefined)
      type = "string";
    else if (schema.minimum !== undefined || schema.maximum !== undefined) type = "number";
    else type = "string";
  }
  switch (type) {
    case "object":
      return genObject(schema, ctx, depth, minimal);
    case "array":
      return genArray(schema, ctx, depth, minimal);
    case "string":
      return genString(schema, ctx);
    case "integer":
      return genNumber(schema, ctx, true);
    case "number":
      return genNumber(schema, ctx, false);
    case "boolean":
      return ctx.rnd() < 0.5;
    case "null":
      return null;
    default:
      throw NO;
  }
}

function genObject(schema: Record<string, unknown>, ctx: Ctx, depth: number, minimal: boolean): unknown {
  const props = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    const wanted = required.has(key) || (!minimal && ctx.rnd() < ctx.optional);
    if (!wanted) continue;
    try {
      out[key] = gen(props[key], ctx, depth + 1);
    } catch (e) {
      if (!(e instanceof NoValue) || required.has(key)) throw e;
    }
  }
  const extra = schema.additionalProperties;
  for (const key of required) {
    if (!Object.hasOwn(out, key)) out[key] = gen(isPlainObject(extra) ? extra : true, ctx, depth + 1);
  }
  const open = extra === undefined || extra === true || isPlainObject(extra);
  const patterns = isPlainObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  if (!minimal && patterns.length > 0) {
    for (const [pattern, sub] of patterns) {
      const key = patternString(pattern, ctx, 12);
      if (key !== undefined && !Object.hasOwn(out, key)) out[key] = gen(sub, ctx, depth + 1);
    }
  } else if (!minimal && open && (isPlainObject(extra) || Object.keys(props).length === 0)) {
    const n = Math.max(1, Math.round(ctx.scale * 1.5));
    for (let i = 0; i < n; i++) out[`${pick(ctx, ["item", "key", "name", "env"])}_${i}`] = gen(extra, ctx, depth + 1);
  }
  const min = typeof schema.minProperties === "number" ? schema.minProperties : 0;
  for (let i = 0; Object.keys(out).length < min && open && i < 1000; i++)
    out[`extra_${i}`] = gen(extra, ctx, depth + 1);
  return out;
}

function genArray(schema: Record<string, unknown>, ctx: Ctx, depth: number, minimal: boolean): unknown {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : null;
  if (tuple !== null) return tuple.map((s) => gen(s, ctx, depth + 1));
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
  const wanted = minimal ? min : Math.round(1 + ctx.scale * 1.5 + ctx.rnd() * ctx.scale);
  const n = Math.min(max, Math.max(min, wanted));
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 4 + 8; tries++) {
    const v = gen(schema.items, ctx, depth + 1);
    if (schema.uniqueItems === true) {
      const k = canonicalJson(v);
      if (seen.has(k)) continue;
      seen.add(k);
    }
    out.push(v);
  }
  if (out.length < min) throw NO;
  return out;
}

function genString(schema: Record<string, unknown>, ctx: Ctx): string {
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (typeof schema.pattern === "string") {
    const s = patternString(schema.pattern, ctx, Math.max(minLength, 8));
    if (s === undefined) throw NO;
    return s;
  }
  if (typeof schema.format === "string" && FORMATS[schema.format] !== undefined) return FORMATS[schema.format]!;
  const target = Math.round(6 + ctx.scale * 10 * (0.5 + ctx.rnd()));
  const length = Math.min(maxLength, Math.max(minLength, target));
  let s = words(ctx, length);
  if (s.length > length) s = [...s].slice(0, length).join("");
  while ([...s].length < minLength) s += "x";
  return s;
}

function genNumber(schema: Record<string, unknown>, ctx: Ctx, integer: boolean): number {
  const num = (k: string): number | undefined => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
  const exMin = num("exclusiveMinimum");
  const exMax = num("exclusiveMaximum");
  let lo = num("minimum") ?? (exMin !== undefined ? exMin + (integer ? 1 : 0.01) : undefined);
  let hi = num("maximum") ?? (exMax !== undefined ? exMax - (integer ? 1 : 0.01) : undefined);
  lo ??= hi !== undefined ? Math.min(0, hi - 100) : 0;
  hi ??= lo + 1000;
  const step = num("multipleOf");
  let v = lo + ctx.rnd() * (hi - lo);
  if (step !== undefined && step > 0) v = Math.ceil(lo / step) * step + Math.floor((hi - lo) / step / 2) * step;
  else if (integer) v = Math.round(v);
  else v = Math.round(v * 100) / 100;
  if (integer) v = Math.round(v);
  return Math.min(hi, Math.max(lo, v));
}

// ---------------------------------------------------------------------------
// A small regular-expression generator for the simple patterns tool schemas use.

interface Rx {
  readonly src: string;
  i: number;
}

function patternString(pattern: string, ctx: Ctx, length: number): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      const rx: Rx = { src: pattern, i: 0 };
      const s = alternation(rx, ctx, length);
      if (re.test(s)) return s;
    } catch {
      break;
    }
  }
  for (const c of ["abc", "a", "A", "abc123", "ABC_1", "2024-05-01", "12345", "a-b", "x.y", "ab_cd", "", "A1b2C3"]) {
    if (re.test(c)) return c;
  }
  return undefined;
}

function alternation(rx: Rx, ctx: Ctx, length: number): string {
  const branches: string[] = [sequence(rx, ctx, length)];
  while (rx.src[rx.i] === "|") {
    rx.i++;
    branches.push(sequence(rx, ctx, length));
  }
  return pick(ctx, branches);
}

function sequence(rx: Rx, ctx: Ctx, length: number): string {
  let out = "";
  while (rx.i < rx.src.length && rx.src[rx.i] !== "|" && rx.src[rx.i] !== ")") {
    const c = rx.src[rx.i]!;
    if (c === "^" || c === "$") {
      rx.i++;
      continue;
    }
    const atom = parseAtom(rx, ctx, length);
    const [min, max] = quantifier(rx);
    const spread = Math.min(max, Math.max(min, Math.min(min + 1 + Math.floor(ctx.rnd() * 3), min + length)));
    for (let k = 0; k < spread; k++) out += atom();
  }
  return out;
}

function parseAtom(rx: Rx, ctx: Ctx, length: number): () => string {
  const c = rx.src[rx.i++]!;
  if (c === "(") {
    if (rx.src.startsWith("?:", rx.i)) rx.i += 2;
    else if (rx.src[rx.i] === "?") throw NO;
    const start = rx.i;
    alternation(rx, ctx, length);
    const end = rx.i;
    if (rx.src[rx.i] !== ")") throw NO;
    rx.i++;
    const body = rx.src.slice(start, end);
    return () => alternation({ src: body, i: 0 }, ctx, length);
  }
  if (c === "[") {
    const chars = characterClass(rx);
    return () => pick(ctx, chars);
  }
  if (c === "\\") {
    const chars = escapeClass(rx.src[rx.i++]!);
    return () => pick(ctx, chars);
  }
  if (c === ".") return () => pick(ctx, ["a", "b", "c", "1"]);
  return () => c;
}

const DIGITS = [..."0123456789"];
const WORD = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"];

function escapeClass(e: string): string[] {
  if (e === "d") return DIGITS;
  if (e === "w") return WORD;
  if (e === "s") return [" "];
  if (e === "D" || e === "W" || e === "S" || e === "b" || e === "B" || e === "p" || e === "u") throw NO;
  return [e];
}

function characterClass(rx: Rx): string[] {
  const negated = rx.src[rx.i] === "^";
  if (negated) rx.i++;
  const chars: string[] = [];
  let first = true;
  while (rx.i < rx.src.length && (rx.src[rx.i] !== "]" || first)) {
    first = false;
    let c = rx.src[rx.i++]!;
    if (c === "\\") {
      chars.push(...escapeClass(rx.src[rx.i++]!));
      continue;
    }
    if (rx.src[rx.i] === "-" && rx.src[rx.i + 1] !== "]" && rx.i + 1 < rx.src.length) {
      const to = rx.src[rx.i + 1]!;
      rx.i += 2;
      for (let code = c.codePointAt(0)!; code <= to.codePointAt(0)! && chars.length < 200; code++)
        chars.push(String.fromCodePoint(code));
      continue;
    }
    if (c === "[") c = "[";
    chars.push(c);
  }
  rx.i++;
  if (negated) {
    const out = WORD.filter((ch) => !chars.includes(ch));
    if (out.length === 0) throw NO;
    return out;
  }
  if (chars.length === 0) throw NO;
  return chars;
}

function quantifier(rx: Rx): [number, number] {
  const c = rx.src[rx.i];
  let q: [number, number] = [1, 1];
  if (c === "?") q = [0, 1];
  else if (c === "*") q = [0, 6];
  else if (c === "+") q = [1, 6];
  else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(rx.src.slice(rx.i));
    if (m === null) return q;
    rx.i += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? min + 6 : Number(m[3]);
    if (rx.src[rx.i] === "?") rx.i++;
    return [min, max];
  } else return q;
  rx.i++;
  if (rx.src[rx.i] === "?") rx.i++;
  return q;
}

// ---------------------------------------------------------------------------

export interface GenerateOptions {
  readonly seed?: number;
  readonly scale?: number;
  readonly optional?: number;
  /** Give up past this many characters of generated text. */
  readonly maxChars?: number;
}

/** One value for the schema, or undefined when the generator cannot produce one. */
export function generateValue(schema: unknown, options: GenerateOptions = {}): unknown {
  const ctx: Ctx = {
    root: schema,
    rnd: random(options.seed ?? 1),
    scale: options.scale ?? 1,
    optional: options.optional ?? 0.8,
    steps: 0,
    produced: 0,
    maxProduced: options.maxChars ?? 1_000_000,
  };
  try {
    return gen(schema, ctx, 0);
  } catch (e) {
    if (e instanceof NoValue || e instanceof RangeError) return undefined;
    throw e;
  }
}

/**
 * A value the validator accepts whose JSON text is within [minBytes, maxBytes],
 * as near the middle as the schema allows; otherwise the largest valid value
 * found (callers report sizes). Undefined when nothing valid was generated.
 */
export function generateSized(
  schema: unknown,
  validate: ValidateFn,
  minBytes: number,
  maxBytes: number,
  seed = 1,
): unknown {
  let best: { value: unknown; size: number } | undefined;
  const target = (minBytes + maxBytes) / 2;
  const better = (size: number): boolean => {
    if (best === undefined) return size <= maxBytes * 4;
    const inRange = size >= minBytes && size <= maxBytes;
    const bestIn = best.size >= minBytes && best.size <= maxBytes;
    if (inRange) return !bestIn || Math.abs(size - target) < Math.abs(best.size - target);
    return !bestIn && size <= maxBytes && size > best.size;
  };
  for (const optional of [0.85, 1]) {
    for (const scale of [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64]) {
      let grew = false;
      for (let s = 0; s < 3; s++) {
        const v = generateValue(schema, {
          seed: seed * 1000 + s + Math.round(scale * 7),
          scale,
          optional,
          maxChars: maxBytes * 2,
        });
        if (v === undefined || !validate(v)) continue;
        const size = Buffer.byteLength(JSON.stringify(v));
        if (better(size)) best = { value: v, size };
        grew = size >= minBytes;
        break;
      }
      if (grew) break;
    }
    if (best !== undefined && best.size >= minBytes && best.size <= maxBytes) return best.value;
  }
  return best?.value;
}
