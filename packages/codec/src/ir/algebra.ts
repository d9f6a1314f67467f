/**
 * Pure schema algebra for the builder: schema positions (views), the types a
 * schema admits, and the merge of conjuncts into one schema. No state, no
 * target, no refusals: tested alone in algebra.test.ts.
 */
import { pointerJoin } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonType, setOwn } from "../json.js";
import { ANNOTATIONS, SHAPE_KEYWORDS } from "./keywords.js";

/** A schema position: the schema and the source pointers it stands for (a conjunction, after merging). */
export interface View {
  readonly schema: unknown;
  readonly pointers: readonly string[];
  /**
   * After a merge, where each keyword came from (keyword -> pointer of the
   * schema that holds it), so nested unions and refs keep their true locations.
   */
  readonly origins?: ReadonlyMap<string, string>;
  /** After a merge, every source view of each declared property. */
  readonly propertyParts?: ReadonlyMap<string, readonly View[]>;
}

export type Schema = Record<string, unknown>;

export function primary(view: View): string {
  return view.pointers[0] ?? "";
}

/** The pointer of the schema that holds keyword `k` (differs from primary only after a merge). */
export function originOf(view: View, k: string): string {
  return view.origins?.get(k) ?? primary(view);
}

export function hasAny(s: Schema, keys: readonly string[]): boolean {
  for (const k of keys) if (s[k] !== undefined) return true;
  return false;
}

export function hasShape(schema: unknown): boolean {
  if (!isPlainObject(schema)) return schema === false;
  for (const k of Object.keys(schema)) if (SHAPE_KEYWORDS.has(k)) return true;
  return false;
}

export function hasAnnotations(s: Schema): boolean {
  return typeof s.description === "string" || typeof s.title === "string";
}

/** Description (and title) travel with a member: they are how the model knows what to write. */
export function annotationsOf(schema: unknown): JsonObject {
  const out: JsonObject = {};
  if (!isPlainObject(schema)) return out;
  if (typeof schema.description === "string") out.description = schema.description;
  return out;
}

export type TypeName = JsonType | "integer";
export const ALL_TYPES: readonly TypeName[] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** The types a schema admits, from `type`, else from enum/const values, else all. */
export function typeSet(s: Schema): Set<TypeName> {
  let types: Set<TypeName>;
  if (typeof s.type === "string") types = new Set([s.type as TypeName]);
  else if (Array.isArray(s.type)) types = new Set(s.type.filter((t): t is TypeName => typeof t === "string"));
  else types = new Set(ALL_TYPES);
  if (types.has("number")) types.delete("integer");
  const values: unknown[] | undefined = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  if (values !== undefined) {
    const allowed = new Set<TypeName>();
    for (const v of values) {
      if (v === null) allowed.add("null");
      else if (typeof v === "string") allowed.add("string");
      else if (typeof v === "boolean") allowed.add("boolean");
      else if (typeof v === "number") {
        if (types.has("number")) allowed.add("number");
        else if (Number.isInteger(v)) allowed.add(types.has("integer") ? "integer" : "number");
        else allowed.add("number");
      } else if (Array.isArray(v)) allowed.add("array");
      else if (typeof v === "object") allowed.add("object");
    }
    types = new Set([...types].filter((t) => allowed.has(t) || (t === "integer" && allowed.has("number"))));
  }
  return types;
}

export function primitiveJsonTypes(primitives: readonly string[]): JsonType[] {
  const out = new Set<JsonType>();
  for (const p of primitives) out.add(p === "integer" ? "number" : (p as JsonType));
  return [...out];
}

/**
 * Merge plain conjuncts into one schema that can carry every value all of them
 * accept. The merged wire may accept more; the final validation narrows it.
 * Returns undefined when the types have nothing in common.
 */
export function mergeViews(all: readonly View[]): View | undefined {
  // Parts that say nothing (true, {}, annotations only) add nothing to a conjunction.
  const parts = all.filter((p) => !isTrivial(p.schema));
  if (parts.length === 0) return all[0];
  if (parts.length === 1) return parts[0];
  const pointers = parts.flatMap((p) => p.pointers);
  const merged: Schema = {};
  const origins = new Map<string, string>();
  let types: Set<TypeName> | undefined;
  const properties = new Map<string, View[]>();
  const required = new Set<string>();
  const additional: unknown[] = [];
  for (const part of parts) {
    const s = part.schema;
    if (!isPlainObject(s)) return undefined;
    const originOf = (k: string): string => part.origins?.get(k) ?? primary(part);
    if (s.type !== undefined) {
      const t = typeSet({ type: s.type });
      types = types === undefined ? t : intersectTypes(types, t);
    }
    if (isPlainObject(s.properties)) {
      for (const [name, sub] of Object.entries(s.properties)) {
        const list = properties.get(name) ?? [];
        const nested = part.propertyParts?.get(name);
        if (nested) list.push(...nested);
        else list.push({ schema: sub, pointers: [pointerJoin(`${originOf("properties")}/properties`, name)] });
        properties.set(name, list);
      }
    }
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === "string") required.add(r);
    if (s.additionalProperties !== undefined) additional.push(s.additionalProperties);
    for (const [k, v] of Object.entries(s)) {
      if (k === "type" || k === "properties" || k === "required" || k === "additionalProperties") continue;
      // First writer wins for the wire; every part is still enforced by the final validation.
      if (merged[k] === undefined) {
        setOwn(merged, k, v);
        origins.set(k, originOf(k));
      }
    }
  }
  if (types !== undefined) {
    if (types.size === 0) return undefined;
    merged.type = [...types];
  }
  if (properties.size > 0) {
    const props: Schema = {};
    for (const [name, views] of properties)
      setOwn(props, name, views.length === 1 ? views[0]!.schema : { allOf: views.map((v) => v.schema) });
    merged.properties = props;
  }
  if (required.size > 0) merged.required = [...required];
  if (additional.length > 0) {
    merged.additionalProperties = additional.includes(false)
      ? false
      : additional.length === 1
        ? additional[0]
        : { allOf: additional };
  }
  return { schema: merged, pointers, origins, propertyParts: properties };
}

export function isTrivial(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isPlainObject(schema)) return false;
  for (const k of Object.keys(schema)) if (!ANNOTATIONS.has(k)) return false;
  return true;
}

export function intersectTypes(a: Set<TypeName>, b: Set<TypeName>): Set<TypeName> {
  const out = new Set<TypeName>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if (t === "integer" && b.has("number")) out.add("integer");
    else if (t === "number" && b.has("integer")) out.add("integer");
  }
  return out;
}
