/**
 * The argument tokens of a typical call: what the model writes for one call
 * in the source form and on the wire. Two calls are generated from the
 * schema, deterministically (no randomness, so the figures are stable): one
 * with every optional member present, one with the required members only.
 * Each is checked by the codec's own encode (the source contract, then the
 * wire); a schema the small generator cannot satisfy gets no call, and says so.
 */
import { type Bundle, loadBundle } from "@strictwire/codec";
import { isPlainObject, unescapeToken } from "@strictwire/codec/schema";
import type { TokenCounter } from "../tokens.js";

export type CallShape = "all-optional" | "required-only";

export interface CallSize {
  readonly bytes: number;
  readonly tokens: number;
}

export type CallCost =
  | {
      readonly call: CallShape;
      /** The generated call as the source schema has it, and as it travels. */
      readonly value: unknown;
      readonly wireValue: unknown;
      readonly source: CallSize;
      readonly wire: CallSize;
      /** Wire tokens over source tokens, to two decimals. */
      readonly ratio: number;
    }
  | { readonly call: CallShape; readonly source: null; readonly reason: string };

export function typicalCalls(bundle: Bundle, countTokens: TokenCounter): CallCost[] {
  const codec = loadBundle(bundle);
  const shapes: CallShape[] = ["all-optional", "required-only"];
  if (!codec.ok) return shapes.map((call) => ({ call, source: null, reason: codec.error.message }));
  return shapes.map((call) => {
    let lastReason = "the generator found no value for the schema";
    // A union's branches are tried in turn: the first, then the second, ... (the same for every union).
    for (let branch = 0; branch < 4; branch++) {
      const value = generateCall(bundle.source, { optional: call === "all-optional", branch });
      if (value === NONE) continue;
      const encoded = codec.value.encode(value);
      if (!encoded.ok) {
        lastReason = `the generated call does not fit: ${encoded.error.message}`;
        continue;
      }
      const size = (v: unknown): CallSize => {
        const text = JSON.stringify(v);
        return { bytes: Buffer.byteLength(text, "utf8"), tokens: countTokens(text) };
      };
      const source = size(value);
      const wire = size(encoded.value);
      return {
        call,
        value,
        wireValue: encoded.value,
        source,
        wire,
        ratio: Math.round((wire.tokens / Math.max(1, source.tokens)) * 100) / 100,
      };
    }
    return { call, source: null, reason: lastReason };
  });
}

// ---- a small deterministic generator ---------------------------------------

const NONE: unique symbol = Symbol("no value");
type Generated = unknown | typeof NONE;

interface Ctx {
  readonly root: unknown;
  readonly optional: boolean;
  readonly branch: number;
  steps: number;
}

/** Deep in a recursive schema only required members and the fewest items are written. */
const FULL_DEPTH = 6;
const MAX_DEPTH = 32;

const FORMATS: Readonly<Record<string, string>> = {
  "date-time": "2024-05-01T12:30:00Z",
  date: "2024-05-01",
  time: "12:30:00Z",
  duration: "P1D",
  email: "ada@example.com",
  "idn-email": "ada@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/a",
  "uri-reference": "/a",
  iri: "https://example.com/a",
  "iri-reference": "/a",
  "uri-template": "https://example.com/{id}",
  uuid: "3f2c1a9e-8b7d-4c6e-9f01-23456789abcd",
  "json-pointer": "/a",
  "relative-json-pointer": "1/a",
  regex: "^a$",
};

/** Strings tried against a pattern, in order: what simple identifier patterns accept. */
const PATTERN_GUESSES = [
  "example",
  "abc",
  "a",
  "A",
  "ABC",
  "abc123",
  "a_b",
  "a-b",
  "1",
  "123",
  "2024-05-01",
  "x.y",
  "",
];

export function generateCall(schema: unknown, options: { optional: boolean; branch?: number }): Generated {
  const ctx: Ctx = { root: schema, optional: options.optional, branch: options.branch ?? 0, steps: 0 };
  return gen(schema, ctx, 0);
}

function resolve(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined; // a malformed escape names nothing
  }
  if (pointer === "") return root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = unescapeToken(raw);
    node = Array.isArray(node) ? node[Number(token)] : isPlainObject(node) ? node[token] : undefined;
  }
  return node;
}

function gen(schema: unknown, ctx: Ctx, depth: number): Generated {
  if (++ctx.steps > 5_000 || depth > MAX_DEPTH) return NONE;
  if (schema === true) return "example";
  if (!isPlainObject(schema)) return NONE;
  if (typeof schema.$ref === "string") {
    const { $ref, ...rest } = schema;
    const target = resolve(ctx.root, $ref);
    return isPlainObject(target) ? gen({ ...target, ...rest }, ctx, depth + 1) : NONE;
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.length > 0 ? schema.enum[0] : NONE;
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    let merged: Record<string, unknown> = rest;
    for (const part of allOf) {
      const p = isPlainObject(part) && typeof part.$ref === "string" ? resolve(ctx.root, part.$ref) : part;
      if (isPlainObject(p)) merged = mergeObjects(merged, p);
    }
    return gen(merged, ctx, depth + 1);
  }
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (branches !== null && branches.length > 0) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    // Deep down, the first branch (usually the leaf of a recursive union).
    const chosen = branches[depth >= FULL_DEPTH ? 0 : ctx.branch % branches.length];
    return gen(isPlainObject(chosen) ? mergeObjects(rest, chosen) : chosen, ctx, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const type = types.find((t) => t !== "null") ?? (types.length > 0 ? "null" : impliedType(schema));
  switch (type) {
    case "dict": // BFCL's type names (its dialect), beside JSON Schema's
    case "object":
      return genObject(schema, ctx, depth);
    case "tuple":
    case "array":
      return genArray(schema, ctx, depth);
    case "string":
      return genString(schema);
    case "integer":
    case "number":
    case "float":
      return genNumber(schema, type === "integer");
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return NONE;
  }
}

function impliedType(schema: Record<string, unknown>): string {
  if (isPlainObject(schema.properties) || Array.isArray(schema.required) || isPlainObject(schema.additionalProperties))
    return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  if (typeof schema.minimum === "number" || typeof schema.maximum === "number") return "number";
  return "string";
}

function mergeObjects(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
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

function genObject(schema: Record<string, unknown>, ctx: Ctx, depth: number): Generated {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const full = ctx.optional && depth < FULL_DEPTH;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(properties)) {
    if (!required.has(name) && !full) continue;
    const v = gen(member, ctx, depth + 1);
    if (v === NONE) {
      if (required.has(name)) return NONE;
      continue;
    }
    out[name] = v;
  }
  const extra = schema.additionalProperties;
  for (const name of required) {
    if (Object.hasOwn(out, name)) continue;
    const v = gen(isPlainObject(extra) ? extra : true, ctx, depth + 1);
    if (v === NONE) return NONE;
    out[name] = v;
  }
  // A map (dynamic members only): one entry in the full call.
  if (full && isPlainObject(extra) && Object.keys(properties).length === 0) {
    const v = gen(extra, ctx, depth + 1);
    if (v !== NONE) out.key = v;
  }
  return out;
}

function genArray(schema: Record<string, unknown>, ctx: Ctx, depth: number): Generated {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : null;
  const out: unknown[] = [];
  if (tuple !== null) {
    for (const item of tuple) {
      const v = gen(item, ctx, depth + 1);
      if (v === NONE) return NONE;
      out.push(v);
    }
    return out;
  }
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const n = Math.max(min, ctx.optional && depth < FULL_DEPTH ? 1 : 0);
  if (n > 16) return NONE;
  const items = schema.items === undefined ? true : schema.items;
  for (let i = 0; i < n; i++) {
    const v = gen(items, ctx, depth + 1);
    if (v === NONE) return NONE;
    out.push(v);
  }
  return out;
}

function genString(schema: Record<string, unknown>): Generated {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fits = (s: string): boolean => [...s].length >= min && [...s].length <= max;
  if (typeof schema.pattern === "string") {
    let re: RegExp;
    try {
      re = new RegExp(schema.pattern, "u");
    } catch {
      return NONE;
    }
    return PATTERN_GUESSES.find((s) => fits(s) && re.test(s)) ?? NONE;
  }
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  let s = "example";
  while ([...s].length < min) s += "x";
  return [...s].slice(0, Math.min(max, Math.max(min, 7))).join("");
}

function genNumber(schema: Record<string, unknown>, integer: boolean): number {
  const num = (k: string): number | undefined => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
  const exMin = num("exclusiveMinimum");
  const exMax = num("exclusiveMaximum");
  // Draft-04 spells exclusive bounds as booleans beside minimum / maximum.
  const nudge = (k: string): number => (schema[k] === true ? 1 : 0);
  const min = num("minimum");
  const max = num("maximum");
  const lo = min !== undefined ? min + nudge("exclusiveMinimum") : exMin !== undefined ? exMin + 1 : undefined;
  const hi = max !== undefined ? max - nudge("exclusiveMaximum") : exMax !== undefined ? exMax - 1 : undefined;
  let v = lo ?? (hi !== undefined ? Math.min(1, hi) : 1);
  const step = num("multipleOf");
  if (step !== undefined && step > 0) v = Math.ceil(v / step) * step;
  return integer ? Math.ceil(v) : v;
}

/** The human form: one line per call, source and wire argument tokens side by side. */
export function renderCalls(
  calls: readonly CallCost[],
  style: { bold(s: string): string; dim(s: string): string },
): string {
  const label: Record<CallShape, string> = { "all-optional": "all optional", "required-only": "required only" };
  const lines = calls.map((c) =>
    c.source === null
      ? `  ${label[c.call].padEnd(14)}${style.dim(`no call generated: ${c.reason}`)}`
      : `  ${label[c.call].padEnd(14)}${String(c.source.tokens).padStart(8)}${String(c.wire.tokens).padStart(8)}   ${style.dim(`×${c.ratio.toFixed(2)} tokens`)}`,
  );
  return [`${style.bold("a typical call")}  source    wire   (argument tokens)`, ...lines].join("\n");
}
