/**
 * Factored form: a subschema that occurs more than once in the wire schema is
 * written once under $defs and referenced, greedily by characters saved. The
 * wire values and the decoder are unchanged: only the schema text shrinks.
 */
import { canonicalJson, cloneJson, isPlainObject, type JsonObject, type JsonValue, setOwn } from "../json.js";

import { keywordSpec } from "../schema/keywords.js";

/** How a member holds schemas, from the keyword registry: one, a list, a map, or none. */
function formOf(key: string): "one" | "list" | "map" | undefined {
  const form = keywordSpec(key)?.subschemas;
  if (form === "one-or-list") return "one"; // the wire writes `items` as one schema (2020-12)
  if (form === "map-or-names") return "map";
  return form;
}

const PREFIX = "sw_f";
const MAX_ROUNDS = 256;
/** Characters of {"$ref":"#/$defs/sw_fNN"}. */
const REF_COST = 28;

export function factorWire(wire: JsonObject): JsonObject {
  let schema = cloneJson(wire);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const best = bestCandidate(schema);
    if (best === undefined) break;
    const name = freshName(schema, round);
    schema = replaceAll(schema, best, { $ref: `#/$defs/${name}` }) as JsonObject;
    const defs = (isPlainObject(schema.$defs) ? schema.$defs : {}) as JsonObject;
    defs[name] = JSON.parse(best) as JsonValue;
    schema.$defs = defs;
  }
  return schema;
}

function freshName(schema: JsonObject, round: number): string {
  const defs = isPlainObject(schema.$defs) ? schema.$defs : {};
  let name = `${PREFIX}${round}`;
  for (let i = 2; Object.hasOwn(defs, name); i++) name = `${PREFIX}${round}_${i}`;
  return name;
}

interface Interned {
  readonly node: JsonObject;
  count: number;
}

/**
 * The canonical text of the repeated subschema whose hoisting saves the most.
 * Subschemas are hash-consed bottom-up (a node's key names its children by
 * id), so a round costs time linear in the schema.
 */
function bestCandidate(schema: JsonObject): string | undefined {
  const table = new Map<string, number>();
  const entries: Interned[] = [];

  const intern = (node: JsonObject, counted: boolean): number => {
    const parts: string[] = [];
    for (const key of Object.keys(node).sort()) {
      const value = node[key] as JsonValue;
      let part: string;
      const form = formOf(key);
      if (form === "one" && isPlainObject(value)) part = `#${intern(value as JsonObject, true)}`;
      else if (form === "list" && Array.isArray(value)) {
        part = value.map((v) => (isPlainObject(v) ? `#${intern(v as JsonObject, true)}` : canonicalJson(v))).join(",");
      } else if (form === "map" && isPlainObject(value)) {
        // A definition's body is already shared; what is inside it may still repeat.
        part = Object.keys(value)
          .sort()
          .map(
            (k) =>
              `${JSON.stringify(k)}:${isPlainObject(value[k]) ? `#${intern(value[k] as JsonObject, key !== "$defs")}` : canonicalJson(value[k])}`,
          )
          .join(",");
      } else part = canonicalJson(value);
      parts.push(`${JSON.stringify(key)}=${part}`);
    }
    const key = parts.join(";");
    let id = table.get(key);
    if (id === undefined) {
      id = entries.length;
      table.set(key, id);
      entries.push({ node, count: 0 });
    }
    const isBareRef = "$ref" in node && Object.keys(node).length === 1;
    if (counted && !isBareRef) entries[id]!.count++;
    return id;
  };
  intern(schema, false);

  let best: string | undefined;
  let bestSaving = 0;
  for (const entry of entries) {
    if (entry.count < 2) continue;
    const text = canonicalJson(entry.node);
    const saving = (entry.count - 1) * text.length - entry.count * REF_COST - 12;
    if (saving > bestSaving) {
      bestSaving = saving;
      best = text;
    }
  }
  return best;
}

function replaceAll(node: JsonValue, text: string, ref: JsonObject): JsonValue {
  if (!isPlainObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    const form = formOf(key);
    if (form === "one") out[key] = swap(value as JsonValue, text, ref);
    else if (form === "list" && Array.isArray(value)) out[key] = value.map((v) => swap(v as JsonValue, text, ref));
    else if (form === "map" && isPlainObject(value)) {
      const m: JsonObject = {};
      for (const [k, v] of Object.entries(value)) {
        setOwn(m, k, key === "$defs" ? replaceAll(v as JsonValue, text, ref) : swap(v as JsonValue, text, ref));
      }
      out[key] = m;
    } else out[key] = value as JsonValue;
  }
  return out;
}

function swap(node: JsonValue, text: string, ref: JsonObject): JsonValue {
  if (isPlainObject(node) && canonicalJson(node) === text) return { ...ref };
  return replaceAll(node, text, ref);
}
