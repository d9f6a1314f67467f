/**
 * Does a schema fit OpenAI's strict subset? Written from the provider's
 * documented rules (the codec's target profile records the same facts with
 * their source: platform.openai.com/docs/guides/structured-outputs):
 * - the root is an object (not anyOf);
 * - every object has additionalProperties: false and lists every property in required;
 * - supported keywords only: type, properties, required, additionalProperties,
 *   items (one schema), anyOf, enum, const, $ref (local), $defs/definitions;
 *   string pattern and format (date-time, time, date, duration, email,
 *   hostname, ipv4, ipv6, uuid); number minimum, maximum, exclusiveMinimum,
 *   exclusiveMaximum, multipleOf; array minItems, maxItems;
 * - every schema says what it is (type, anyOf, $ref, enum or const);
 * - limits: 5,000 properties, 10 levels of object nesting, 1,000 enum values.
 * Annotations (description, title, default, examples, $comment, $schema,
 * $id, deprecated, readOnly, writeOnly) and vendor extensions (x-*) are
 * tolerated: the provider's handling of them is not documented as a refusal.
 * The first violation is reported.
 */
import { isPlainObject } from "@strictwire/codec/schema";

const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "const",
  "$ref",
  "$defs",
  "definitions",
]);
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "$comment",
  "$schema",
  "$id",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const BY_TYPE: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["pattern", "format"]),
  number: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  integer: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  array: new Set(["minItems", "maxItems"]),
};
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

export const STRICT_LIMITS = { maxProperties: 5000, maxNesting: 10, maxEnumValues: 1000 } as const;

export type StrictVerdict = { readonly fits: true } | { readonly fits: false; readonly reason: string };

interface State {
  readonly root: Record<string, unknown>;
  properties: number;
  enumValues: number;
  readonly visiting: Set<unknown>;
}

export function fitsOpenAIStrict(schema: unknown): StrictVerdict {
  if (!isPlainObject(schema)) return { fits: false, reason: "root is not a schema object" };
  if (schema.type !== "object") return { fits: false, reason: "root is not type object" };
  const state: State = { root: schema, properties: 0, enumValues: 0, visiting: new Set() };
  const reason = check(schema, state, 0, "");
  if (reason !== undefined) return { fits: false, reason };
  if (state.properties > STRICT_LIMITS.maxProperties) return { fits: false, reason: "more than 5,000 properties" };
  if (state.enumValues > STRICT_LIMITS.maxEnumValues) return { fits: false, reason: "more than 1,000 enum values" };
  return { fits: true };
}

function resolve(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === "") return root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isPlainObject(node) ? node[token] : Array.isArray(node) ? node[Number(token)] : undefined;
  }
  return node;
}

function check(s: unknown, st: State, nesting: number, at: string): string | undefined {
  if (!isPlainObject(s)) return `${at || "/"}: boolean or non-object schema`;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types) if (typeof t !== "string" || !TYPES.has(t)) return `${at}: unknown type ${JSON.stringify(t)}`;
  const allowed = new Set<string>();
  for (const t of types) for (const k of BY_TYPE[t as string] ?? []) allowed.add(k);
  for (const key of Object.keys(s)) {
    if (STRUCTURE.has(key) || ANNOTATIONS.has(key) || key.startsWith("x-") || allowed.has(key)) continue;
    return `unsupported keyword ${key}`;
  }
  if (types.length === 0 && !("anyOf" in s) && !("$ref" in s) && !("enum" in s) && !("const" in s))
    return "a schema without type (any value)";
  if (typeof s.format === "string" && !FORMATS.has(s.format)) return `unsupported format ${s.format}`;
  if (Array.isArray(s.enum)) st.enumValues += s.enum.length;

  if (typeof s.$ref === "string") {
    const target = resolve(st.root, s.$ref);
    if (target === undefined) return `unresolvable $ref ${s.$ref}`;
    // Recursion is allowed; each definition is checked once where it is defined.
  } else if ("$ref" in s) return "non-string $ref";

  const isObjectType = types.includes("object") || isPlainObject(s.properties);
  let depth = nesting;
  if (isObjectType) {
    depth++;
    if (depth > STRICT_LIMITS.maxNesting) return "more than 10 levels of object nesting";
    if (s.additionalProperties !== false) {
      return isPlainObject(s.additionalProperties) || s.additionalProperties === true
        ? "object with dynamic keys (additionalProperties schema)"
        : "object without additionalProperties: false";
    }
    const props = isPlainObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    for (const k of Object.keys(props)) if (!required.has(k)) return "optional property (not in required)";
    st.properties += Object.keys(props).length;
    for (const [k, v] of Object.entries(props)) {
      const r = check(v, st, depth, `${at}/${k}`);
      if (r !== undefined) return r;
    }
  }
  if ("items" in s) {
    if (Array.isArray(s.items)) return "tuple items (items as an array)";
    const r = check(s.items, st, depth, `${at}/items`);
    if (r !== undefined) return r;
  } else if (types.includes("array")) return "array without items";
  if ("anyOf" in s) {
    if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return "empty anyOf";
    for (const b of s.anyOf) {
      const r = check(b, st, nesting, `${at}/anyOf`);
      if (r !== undefined) return r;
    }
  }
  for (const key of ["$defs", "definitions"]) {
    const defs = s[key];
    if (defs === undefined) continue;
    if (!isPlainObject(defs)) return `${key} is not an object`;
    for (const v of Object.values(defs)) {
      if (st.visiting.has(v)) continue;
      st.visiting.add(v);
      const r = check(v, st, 0, `${at}/${key}`);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}
