/**
 * The wire spelt the way the target reads it. Each rewrite accepts exactly the
 * values it did before (or, for an enum the target cannot spell, more: the
 * final validation narrows them), so encode and decode are unchanged.
 * - keywords beside `$ref`, which the targets refuse, move off the reference
 *   (or, where neither wrapping nor inlining suits, are dropped: they are annotations);
 * - where `const` is not understood, a constant becomes a one-value `enum`;
 * - an `enum` with values of types the target cannot list is left to the final validation.
 */
import { isPlainObject, type JsonObject, type JsonValue, jsonTypeOf, setOwn } from "../json.js";
import type { Spelling } from "./profile.js";
import { defName, mapSubschemas, subschemas } from "./walk.js";

/** References followed while inlining one use: definitions that only alias others. */
const MAX_INLINE_HOPS = 64;

export function toSpelling(wire: JsonObject, spelling: Spelling): JsonObject {
  const defs = isPlainObject(wire.$defs) ? (wire.$defs as JsonObject) : {};
  const out = rewrite(wire, { spelling, defs, uses: referenceCounts(wire), inlining: new Set() });
  return spelling.refSiblings === "inline" ? pruneDefs(out) : out;
}

interface Context {
  readonly spelling: Spelling;
  /** The wire's definitions as assembled: what an inlined reference stands for. */
  readonly defs: JsonObject;
  /** References to each definition across the wire. */
  readonly uses: ReadonlyMap<string, number>;
  /** Definitions being written in place: a cycle through them stays a reference. */
  readonly inlining: Set<string>;
}

function rewrite(schema: JsonObject, ctx: Context): JsonObject {
  const inlined = inlineTarget(schema, ctx);
  const own = spellConstants(inlined?.schema ?? withoutRefSiblings(schema, ctx.spelling), ctx.spelling);
  if (inlined !== undefined) ctx.inlining.add(inlined.name);
  const out = mapSubschemas(own, (sub) => rewrite(sub, ctx));
  if (inlined !== undefined) ctx.inlining.delete(inlined.name);
  return out;
}

/** Keywords beside a reference: moved onto a one-branch anyOf, or dropped when they cannot be inlined. */
function withoutRefSiblings(schema: JsonObject, spelling: Spelling): JsonObject {
  if (!hasRefSiblings(schema)) return schema;
  const { $ref, ...siblings } = schema;
  return spelling.refSiblings === "wrap"
    ? { ...siblings, anyOf: [{ $ref: $ref as JsonValue }] }
    : { $ref: $ref as JsonValue };
}

/**
 * For "inline": the definition a described reference stands for, written in
 * place with the description, when this is its only use. A second copy would
 * count its optional and union members twice against per-request caps.
 */
function inlineTarget(schema: JsonObject, ctx: Context): { name: string; schema: JsonObject } | undefined {
  if (ctx.spelling.refSiblings !== "inline" || !hasRefSiblings(schema)) return undefined;
  const { $ref: _ref, ...siblings } = schema;
  let target: JsonValue | undefined = schema;
  let name: string | undefined;
  for (let hops = 0; isPlainObject(target) && typeof target.$ref === "string"; hops++) {
    name = defName(target.$ref);
    const usable = name !== undefined && ctx.uses.get(name) === 1 && hops < MAX_INLINE_HOPS && !ctx.inlining.has(name);
    target = usable && Object.hasOwn(ctx.defs, name!) ? ctx.defs[name!] : undefined;
  }
  if (!isPlainObject(target) || name === undefined) return undefined;
  return { name, schema: { ...(target as JsonObject), ...siblings } };
}

function hasRefSiblings(schema: JsonObject): boolean {
  return typeof schema.$ref === "string" && Object.keys(schema).length > 1;
}

function spellConstants(schema: JsonObject, spelling: Spelling): JsonObject {
  let s = schema;
  if (!spelling.constKeyword && Object.hasOwn(s, "const")) {
    const { const: value, ...rest } = s;
    s = value !== undefined && spellable(value, spelling) ? { ...rest, enum: [value] } : rest;
  }
  if (Array.isArray(s.enum) && !s.enum.every((v) => spellable(v, spelling))) {
    const { enum: _unspellable, ...rest } = s;
    s = rest;
  }
  return s;
}

function spellable(value: JsonValue, spelling: Spelling): boolean {
  const type = jsonTypeOf(value);
  return type !== undefined && spelling.enumTypes.has(type);
}

function referenceCounts(wire: JsonObject): Map<string, number> {
  const counts = new Map<string, number>();
  const work: JsonObject[] = [wire];
  while (work.length > 0) {
    const schema = work.pop()!;
    const name = typeof schema.$ref === "string" ? defName(schema.$ref) : undefined;
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const [sub] of subschemas(schema)) work.push(sub);
  }
  return counts;
}

/** Definitions no reference reaches any more (every use was inlined) are dropped. */
function pruneDefs(wire: JsonObject): JsonObject {
  if (!isPlainObject(wire.$defs)) return wire;
  const defs = wire.$defs as JsonObject;
  const { $defs: _all, ...body } = wire;
  const used = new Set<string>();
  const work: JsonObject[] = [body];
  while (work.length > 0) {
    const schema = work.pop()!;
    const name = typeof schema.$ref === "string" ? defName(schema.$ref) : undefined;
    if (name !== undefined && !used.has(name) && isPlainObject(defs[name])) {
      used.add(name);
      work.push(defs[name] as JsonObject);
    }
    for (const [sub] of subschemas(schema)) work.push(sub);
  }
  const kept: JsonObject = {};
  for (const name of Object.keys(defs)) if (used.has(name)) setOwn(kept, name, defs[name]!);
  return Object.keys(kept).length > 0 ? { ...body, $defs: kept } : body;
}
