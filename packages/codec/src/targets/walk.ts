/** Where a wire schema holds other schemas, for the passes that read or rewrite it. */
import { pointerToken } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonValue, setOwn, unescapeToken } from "../json.js";
import { keywordSpec, subschemasOf } from "../schema/keywords.js";

const DEFS = "#/$defs/";

/** Each direct subschema with the JSON Pointer steps that lead to it (the keyword registry places them). */
export function subschemas(schema: JsonObject): [JsonObject, string][] {
  const out: [JsonObject, string][] = [];
  for (const entry of subschemasOf(schema)) {
    if (isPlainObject(entry.schema))
      out.push([entry.schema as JsonObject, entry.tokens.map((t) => `/${pointerToken(t)}`).join("")]);
  }
  return out;
}

/** A copy of the schema with `fn` applied to each direct subschema. */
export function mapSubschemas(schema: JsonObject, fn: (sub: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) setOwn(out, key, mapMember(key, value, fn));
  return out;
}

/** One member of a schema with `fn` applied to the subschemas it holds, by the registry's form for the keyword. */
export function mapMember(key: string, value: JsonValue, fn: (sub: JsonObject) => JsonObject): JsonValue {
  const form = keywordSpec(key)?.subschemas;
  if (form === undefined) return value;
  const apply = (sub: JsonValue): JsonValue => (isPlainObject(sub) ? fn(sub as JsonObject) : sub);
  if ((form === "one" || form === "one-or-list") && isPlainObject(value)) return fn(value as JsonObject);
  if ((form === "list" || form === "one-or-list") && Array.isArray(value)) return value.map(apply);
  if ((form === "map" || form === "map-or-names") && isPlainObject(value)) {
    const map: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) setOwn(map, name, apply(sub as JsonValue));
    return map;
  }
  return value;
}

/** The definition a local `#/$defs/name` reference names, or undefined for any other reference. */
export function defName(ref: string): string | undefined {
  if (!ref.startsWith(DEFS)) return undefined;
  const token = ref.slice(DEFS.length);
  if (token.includes("/")) return undefined;
  return unescapeToken(token);
}
