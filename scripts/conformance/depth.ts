/**
 * Wire depth against source depth (issue 20): for every schema a corpus
 * compiles, the object nesting the source needs and the wire's as sent,
 * counted by one rule: the object schemas on one path down the document, each
 * definition from its own root, as the target check counts the wire. The
 * wire's figure is the codec's own (measureWire, the one the target limits
 * are checked on). The source's follows local references, because the wire
 * carries a non-recursive reference inline: a source nested 3 deep through
 * `$ref`s needs 3 levels on any wire that inlines them.
 *
 * Also counted: sources within OpenAI's limit (10 levels) that compile
 * refuses with target-limit for nesting. Each of those is a schema OpenAI
 * would take as written and strictwire made too deep.
 */
import { isPlainObject } from "@strictwire/codec/schema";
import { subschemasOf } from "../../packages/codec/src/schema/keywords.js";
import { measureWire } from "../../packages/codec/src/targets/measure.js";
import type { Compiled, Tally } from "./harness.js";
import { bump } from "./harness.js";

/** OpenAI's levels of object nesting (the default target). */
export const OPENAI_NESTING = 10;

export interface DepthSummary {
  /** Compiled schemas measured. */
  compiled: number;
  /** Compiled schemas by wire depth minus source depth ("+1", "0", "-1", ...). */
  wireMinusSource: Tally;
  /** Compiled schemas by source depth. */
  sourceDepths: Tally;
  maxSource: number;
  maxWire: number;
  /** Sources within OpenAI's nesting limit refused with target-limit for nesting: held at 0. */
  withinLimitRefusedForNesting: number;
  /** Sources deeper than OpenAI's limit as written (any outcome). */
  sourcesBeyondLimit: number;
  /** Sources too deep to walk (not counted anywhere else). */
  unmeasured: number;
  /** The first few of each kind, for the report. */
  examples: { kind: string; id: string; source: number; wire?: number }[];
}

export function emptyDepth(): DepthSummary {
  return {
    compiled: 0,
    wireMinusSource: {},
    sourceDepths: {},
    maxSource: 0,
    maxWire: 0,
    withinLimitRefusedForNesting: 0,
    sourcesBeyondLimit: 0,
    unmeasured: 0,
    examples: [],
  };
}

const isObjectSchema = (s: Record<string, unknown>): boolean =>
  s.type === "object" || (Array.isArray(s.type) && s.type.includes("object")) || isPlainObject(s.properties);

const DEFINITIONS = new Set(["$defs", "definitions"]);

/**
 * The most object schemas on one path down the source, local references
 * followed (the wire carries a non-recursive reference inline); a reference
 * back into a definition already on the path stops there (the wire keeps a
 * recursive one as a definition, counted from its own root, as is every
 * definition here).
 */
export function sourceDepth(schema: unknown): number {
  if (!isPlainObject(schema)) return 0;
  const memo = new Map<object, number>();
  const active = new Set<object>();
  const roots: Record<string, unknown>[] = [schema];
  const below = (s: Record<string, unknown>): number => {
    const known = memo.get(s);
    if (known !== undefined) return known;
    if (active.has(s)) return 0;
    active.add(s);
    let inner = 0;
    const target = typeof s.$ref === "string" ? resolveLocal(schema, s.$ref) : undefined;
    if (isPlainObject(target)) inner = below(target);
    for (const entry of subschemasOf(s)) {
      if (!isPlainObject(entry.schema)) continue;
      if (DEFINITIONS.has(entry.keyword)) roots.push(entry.schema);
      else inner = Math.max(inner, below(entry.schema));
    }
    active.delete(s);
    const depth = (isObjectSchema(s) ? 1 : 0) + inner;
    memo.set(s, depth);
    return depth;
  };
  let deepest = 0;
  try {
    for (let i = 0; i < roots.length; i++) deepest = Math.max(deepest, below(roots[i]!));
  } catch (error) {
    // A document too deep to walk recursively: its depth is not measured.
    if (error instanceof RangeError) return Number.NaN;
    throw error;
  }
  return deepest;
}

/** A `#/…` pointer into the document; anything else (anchors, other documents) is not followed. */
function resolveLocal(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/") && ref !== "#") return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    if (ref === "#") break;
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    node = Array.isArray(node) ? node[Number(token)] : isPlainObject(node) ? node[token] : undefined;
  }
  return node;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

function example(d: DepthSummary, kind: string, id: string, source: number, wire?: number): void {
  if (d.examples.filter((e) => e.kind === kind).length < 5)
    d.examples.push({ kind, id, source, ...(wire !== undefined ? { wire } : {}) });
}

/** One compile of one source, with the default target (OpenAI). */
export function recordDepth(d: DepthSummary, id: string, source: unknown, compiled: Compiled): void {
  const s = sourceDepth(source);
  if (Number.isNaN(s)) {
    d.unmeasured++;
    return;
  }
  if (s > OPENAI_NESTING) d.sourcesBeyondLimit++;
  if (compiled.kind === "refused") {
    if (s <= OPENAI_NESTING && compiled.code === "target-limit" && /levels of object nesting/.test(compiled.message)) {
      d.withinLimitRefusedForNesting++;
      example(d, "within the limit, refused for nesting", id, s);
    }
    return;
  }
  if (compiled.kind !== "compiled") return;
  const w = measureWire(compiled.codec.bundle.wire).nesting.depth;
  d.compiled++;
  bump(d.wireMinusSource, signed(w - s));
  bump(d.sourceDepths, String(s));
  d.maxSource = Math.max(d.maxSource, s);
  d.maxWire = Math.max(d.maxWire, w);
  if (w - s >= 2) example(d, "wire two or more levels deeper", id, s, w);
}

export function mergeDepth(into: DepthSummary, part: DepthSummary): void {
  into.compiled += part.compiled;
  for (const [k, n] of Object.entries(part.wireMinusSource)) bump(into.wireMinusSource, k, n);
  for (const [k, n] of Object.entries(part.sourceDepths)) bump(into.sourceDepths, k, n);
  into.maxSource = Math.max(into.maxSource, part.maxSource);
  into.maxWire = Math.max(into.maxWire, part.maxWire);
  into.withinLimitRefusedForNesting += part.withinLimitRefusedForNesting;
  into.sourcesBeyondLimit += part.sourcesBeyondLimit;
  into.unmeasured += part.unmeasured;
  for (const e of part.examples) if (into.examples.filter((x) => x.kind === e.kind).length < 5) into.examples.push(e);
}

/** "+1 123, 0 45, -1 2": the distribution in order of the difference. */
export function renderDelta(t: Tally): string {
  const entries = Object.entries(t).sort((a, b) => Number(a[0]) - Number(b[0]));
  return entries.length === 0 ? "-" : entries.map(([k, n]) => `${k}: ${n}`).join(", ");
}
