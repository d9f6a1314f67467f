/**
 * The `bfcl` input dialect: Berkeley Function Calling Leaderboard parameter
 * schemas made into JSON Schema. Pure: the input is never modified, the result
 * is a fresh value.
 *
 * What it changes, and nothing else (docs/conformance.md keeps the same list):
 * 1. `type` names. BFCL, Java and JavaScript names become JSON Schema types:
 *    dict, HashMap, Hashtable, Map, ... -> object; float, double, ... -> number;
 *    long, int, Integer, short, byte, Bigint, ... -> integer; String, str, char
 *    -> string; Boolean, bool -> boolean; tuple, Array, ArrayList, List, Set,
 *    Queue, Stack, ... -> array; None -> null. Names are matched ignoring case.
 *    Generic forms carry their element types: `X[]`, `List<X>` -> array of X;
 *    `Map<K, V>` -> object whose members are V.
 * 2. `any` and the empty name drop `type`: any JSON value.
 * 3. A name it does not know is left as it is, so compile refuses the schema
 *    (invalid-schema) rather than guess.
 * 4. `enum` values whose JSON types the declared type does not admit (BFCL has
 *    `"type": "boolean", "enum": ["True", "False", "dontcare"]`): the type
 *    becomes the types of the enum values, since the enum is the explicit list.
 * 5. `default` that does not fit the (mapped) type, or is not among the enum
 *    values, is dropped: it is an annotation, and a wrong one misleads.
 * 6. The non-standard `optional` member is dropped; `optional: true` (or
 *    "true") also takes the name out of the parent's `required`.
 * 7. `required` keeps only names declared in `properties` (BFCL lists some that
 *    are not); a non-array `required` is dropped.
 * Arrays without `items` stay so: their elements are any JSON value.
 */

import { cloneJson, isPlainObject, jsonEqual, setOwn } from "../../json.js";
import { keywordSpec, keywordsWhere } from "../keywords.js";

type JsonTypeName = "string" | "integer" | "number" | "boolean" | "object" | "array" | "null";

const SIMPLE: Readonly<Record<string, JsonTypeName>> = {
  string: "string",
  str: "string",
  char: "string",
  character: "string",
  integer: "integer",
  int: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  bigint: "integer",
  biginteger: "integer",
  number: "number",
  float: "number",
  double: "number",
  decimal: "number",
  bigdecimal: "number",
  boolean: "boolean",
  bool: "boolean",
  dict: "object",
  dictionary: "object",
  object: "object",
  map: "object",
  hashmap: "object",
  hashtable: "object",
  treemap: "object",
  linkedhashmap: "object",
  record: "object",
  array: "array",
  list: "array",
  tuple: "array",
  arraylist: "array",
  linkedlist: "array",
  set: "array",
  hashset: "array",
  queue: "array",
  stack: "array",
  vector: "array",
  collection: "array",
  null: "null",
  none: "null",
};

const ANY_NAMES = new Set(["any", ""]);

type Schema = Record<string, unknown>;

/** What one BFCL type name means: a JSON type (with element types for generics), any value, or unknown. */
type Mapped =
  | { readonly kind: "type"; readonly type: JsonTypeName; readonly items?: Schema; readonly members?: Schema }
  | { readonly kind: "any" }
  | { readonly kind: "unknown" };

/** Generic forms are short; a longer name is not worth parsing. */
const MAX_TYPE_NAME = 200;

export function mapTypeName(raw: string): Mapped {
  const name = raw.trim();
  if (ANY_NAMES.has(name.toLowerCase())) return { kind: "any" };
  if (name.length > MAX_TYPE_NAME) return { kind: "unknown" };
  const simple = SIMPLE[name.toLowerCase()];
  if (simple !== undefined) return { kind: "type", type: simple };
  if (name.endsWith("[]")) {
    const element = mapTypeName(name.slice(0, -2));
    if (element.kind === "unknown") return element;
    return { kind: "type", type: "array", items: schemaFor(element) };
  }
  const generic = /^([A-Za-z_][A-Za-z0-9_.]*)\s*<(.*)>$/.exec(name);
  if (generic !== null) {
    const base = SIMPLE[generic[1]!.toLowerCase()];
    const args = splitTypeArguments(generic[2]!);
    if (base === undefined || args === undefined) return { kind: "unknown" };
    const mapped = args.map(mapTypeName);
    if (mapped.some((m) => m.kind === "unknown")) return { kind: "unknown" };
    if (base === "array" && mapped.length === 1) return { kind: "type", type: "array", items: schemaFor(mapped[0]!) };
    if (base === "object" && mapped.length === 2)
      return { kind: "type", type: "object", members: schemaFor(mapped[1]!) };
    return { kind: "unknown" };
  }
  return { kind: "unknown" };
}

/** Split `A, Map<B, C>` at top-level commas; undefined when the brackets do not balance. */
function splitTypeArguments(text: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "<") depth++;
    else if (c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0) return undefined;
  out.push(text.slice(start));
  return out;
}

function schemaFor(mapped: Mapped): Schema {
  if (mapped.kind !== "type") return {};
  const out: Schema = { type: mapped.type };
  if (mapped.items !== undefined) out.items = mapped.items;
  if (mapped.members !== undefined) out.additionalProperties = mapped.members;
  return out;
}

/** The `bfcl` adapter: a BFCL parameters schema -> JSON Schema. */
export function bfclToJsonSchema(schema: unknown): unknown {
  // Iterative over an explicit stack: BFCL schemas are small, but an adapter
  // must not be the place a hostile, deep document overflows the stack.
  const root: { value?: unknown } = {};
  const stack: { source: unknown; assign: (v: unknown) => void }[] = [
    { source: schema, assign: (v) => (root.value = v) },
  ];
  while (stack.length > 0) {
    const { source, assign } = stack.pop()!;
    if (!isPlainObject(source)) {
      assign(cloneJson(source));
      continue;
    }
    const out = convertNode(source);
    assign(out);
    const schedule = (child: unknown, put: (v: unknown) => void): void => {
      stack.push({ source: child, assign: put });
    };
    // Where the subschemas are comes from the keyword registry. A one-schema
    // member that is not an object (`false`) stays out, as convertNode leaves it out.
    for (const key of Object.keys(source)) {
      if (!SUBSCHEMA_KEYS.has(key)) continue;
      const form = keywordSpec(key)?.subschemas;
      const child = source[key];
      if ((form === "one" || form === "one-or-list") && isPlainObject(child)) {
        schedule(child, (v) => setOwn(out, key, v));
      } else if ((form === "list" || form === "one-or-list") && Array.isArray(child)) {
        const list: unknown[] = new Array(child.length);
        out[key] = list;
        child.forEach((c, i) => {
          schedule(c, (v) => {
            list[i] = v;
          });
        });
      } else if (form === "map" && isPlainObject(child)) {
        const map: Schema = {};
        out[key] = map;
        for (const name of Object.keys(child)) schedule(child[name], (v) => setOwn(map, name, v));
      }
    }
  }
  return root.value;
}

/** One schema object's own keywords; subschemas are filled in by the caller. */
function convertNode(source: Schema): Schema {
  const out: Schema = {};
  for (const key of Object.keys(source)) {
    if (key === "optional" || key === "default" || key === "required" || key === "type") continue;
    if (SUBSCHEMA_KEYS.has(key)) continue;
    setOwn(out, key, cloneJson(source[key]));
  }

  // 1-3: type names.
  let types: JsonTypeName[] | undefined;
  if (source.type !== undefined) {
    const names = Array.isArray(source.type) ? source.type : [source.type];
    const mapped = names.map((n) => (typeof n === "string" ? mapTypeName(n) : ({ kind: "unknown" } as const)));
    if (mapped.some((m) => m.kind === "unknown")) {
      out.type = cloneJson(source.type);
    } else if (!mapped.some((m) => m.kind === "any")) {
      types = [];
      for (const m of mapped) if (m.kind === "type" && !types.includes(m.type)) types.push(m.type);
      out.type = types.length === 1 ? types[0] : types;
      // Element types from a generic name, unless the schema spells them out.
      for (const m of mapped) {
        if (m.kind !== "type") continue;
        if (m.items !== undefined && source.items === undefined) out.items = m.items;
        if (m.members !== undefined && source.additionalProperties === undefined) out.additionalProperties = m.members;
      }
    }
  }

  // 4: an enum the declared type cannot hold decides the type.
  if (types !== undefined && Array.isArray(source.enum) && source.enum.length > 0) {
    const declared = types;
    if (source.enum.some((v) => !fitsTypes(v, declared))) {
      const implied: JsonTypeName[] = [];
      for (const v of source.enum) {
        const t = jsonTypeName(v, declared);
        if (!implied.includes(t)) implied.push(t);
      }
      types = implied;
      out.type = implied.length === 1 ? implied[0] : implied;
    }
  }

  // 5: a default that contradicts the type or the enum is dropped.
  if (Object.hasOwn(source, "default")) {
    const d = source.default;
    const fitsType = types === undefined || fitsTypes(d, types);
    const fitsEnum = !Array.isArray(source.enum) || source.enum.some((v) => jsonEqual(v, d));
    if (fitsType && fitsEnum) out.default = cloneJson(d);
  }

  // 6-7: required only names declared members, and not those marked optional.
  if (Array.isArray(source.required)) {
    const properties = isPlainObject(source.properties) ? source.properties : {};
    out.required = source.required.filter(
      (name): name is string =>
        typeof name === "string" && Object.hasOwn(properties, name) && !isMarkedOptional(properties[name]),
    );
  }
  return out;
}

/** Keywords whose subschemas bfclToJsonSchema converts on its own stack: the registry's, but `dependencies` (names stay as written). */
const SUBSCHEMA_KEYS: ReadonlySet<string> = new Set(
  keywordsWhere((spec) => spec.subschemas !== undefined && spec.subschemas !== "map-or-names"),
);

function isMarkedOptional(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  const flag = schema.optional;
  return flag === true || (typeof flag === "string" && flag.trim().toLowerCase() === "true");
}

function jsonTypeName(value: unknown, declared: readonly JsonTypeName[]): JsonTypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) && declared.includes("integer") ? "integer" : "number";
    default:
      return "object";
  }
}

function fitsTypes(value: unknown, types: readonly JsonTypeName[]): boolean {
  return types.some((t) => {
    switch (t) {
      case "null":
        return value === null;
      case "array":
        return Array.isArray(value);
      case "object":
        return isPlainObject(value);
      case "integer":
        return typeof value === "number" && Number.isInteger(value);
      case "number":
        return typeof value === "number" && Number.isFinite(value);
      default:
        return typeof value === t;
    }
  });
}
