/** Where a wire schema holds other schemas, for the passes that read or rewrite it. */
import { pointerToken } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonValue, setOwn } from "../json.js";

/** Members whose value is one schema. */
const ONE = new Set(["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"]);
/** Members whose value is a list of schemas. */
const LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Members whose value maps names to schemas. */
const MAP = new Set(["properties", "$defs", "patternProperties"]);

const DEFS = "#/$defs/";

/** Each direct subschema with the JSON Pointer steps that lead to it. */
export function subschemas(schema: JsonObject): [JsonObject, string][] {
  const out: [JsonObject, string][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.has(key) && isPlainObject(value)) out.push([value as JsonObject, `/${key}`]);
    else if (LIST.has(key) && Array.isArray(value)) {
      value.forEach((sub, i) => {
        if (isPlainObject(sub)) out.push([sub as JsonObject, `/${key}/${i}`]);
      });
    } else if (MAP.has(key) && isPlainObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        if (isPlainObject(sub)) out.push([sub as JsonObject, `/${key}/${pointerToken(name)}`]);
      }
    }
  }
  return out;
}

/** A copy of the schema with `fn` applied to each direct subschema. */
export function mapSubschemas(schema: JsonObject, fn: (sub: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    let mapped: JsonValue = value;
    if (ONE.has(key) && isPlainObject(value)) mapped = fn(value as JsonObject);
    else if (LIST.has(key) && Array.isArray(value)) {
      mapped = value.map((sub) => (isPlainObject(sub) ? fn(sub as JsonObject) : sub));
    } else if (MAP.has(key) && isPlainObject(value)) {
      const map: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) {
        setOwn(map, name, isPlainObject(sub) ? fn(sub as JsonObject) : (sub as JsonValue));
      }
      mapped = map;
    }
    setOwn(out, key, mapped);
  }
  return out;
}

/** The definition a local `#/$defs/name` reference names, or undefined for any other reference. */
export function defName(ref: string): string | undefined {
  if (!ref.startsWith(DEFS)) return undefined;
  const token = ref.slice(DEFS.length);
  if (token.includes("/")) return undefined;
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
