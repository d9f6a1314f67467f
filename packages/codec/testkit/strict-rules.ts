/**
 * Each provider's documented strict subset, checked on a wire schema
 * independently of the codec's own limit code: the codec's target sweep and
 * the MCP proxy's tests hold every emitted wire schema to these.
 */
import type { TargetName } from "@strictwire/codec";
import { canonical } from "./same.js";

type Json = Record<string, unknown>;

// ---- walking a wire schema ------------------------------------------------

const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "$defs", "patternProperties"];

interface Visit {
  readonly schema: Json;
  readonly at: string;
  /** Object schemas from the root (or from the definition's root) down to this one, inclusive. */
  readonly depth: number;
}

function visits(wire: Json): Visit[] {
  const out: Visit[] = [];
  const walk = (schema: Json, at: string, outer: number): void => {
    const depth = isObject(schema) ? outer + 1 : outer;
    out.push({ schema, at, depth });
    for (const key of ONE) if (isRecord(schema[key])) walk(schema[key] as Json, `${at}/${key}`, depth);
    for (const key of LIST) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      for (const [i, s] of list.entries()) if (isRecord(s)) walk(s, `${at}/${key}/${i}`, depth);
    }
    for (const key of MAP) {
      const map = schema[key];
      if (!isRecord(map)) continue;
      for (const [name, s] of Object.entries(map)) {
        if (isRecord(s)) walk(s, `${at}/${key}/${name}`, key === "$defs" ? 0 : depth);
      }
    }
  };
  walk(wire, "", 0);
  return out;
}

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isObject = (s: Json): boolean =>
  s.type === "object" || (Array.isArray(s.type) && s.type.includes("object")) || isRecord(s.properties);

/** Definitions each definition refers to, for finding cycles. */
function refGraph(wire: Json): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const defs = isRecord(wire.$defs) ? wire.$defs : {};
  for (const [name, def] of Object.entries(defs)) {
    const refs = new Set<string>();
    for (const v of visits(def as Json)) if (typeof v.schema.$ref === "string") refs.add(v.schema.$ref.slice(8));
    graph.set(name, refs);
  }
  return graph;
}

function hasCycle(graph: Map<string, Set<string>>): boolean {
  const state = new Map<string, "open" | "done">();
  const visit = (name: string): boolean => {
    if (state.get(name) === "open") return true;
    if (state.get(name) === "done") return false;
    state.set(name, "open");
    for (const next of graph.get(name) ?? []) if (visit(next)) return true;
    state.set(name, "done");
    return false;
  };
  return [...graph.keys()].some(visit);
}

// ---- what each provider documents -----------------------------------------

export type Checker = (wire: Json) => string[];

/** Problems shared by every target: closed objects, local references that stand alone and resolve. */
function common(wire: Json, v: Visit): string[] {
  const problems: string[] = [];
  const s = v.schema;
  if (isObject(s) && s.additionalProperties !== false) problems.push(`${v.at}: object not closed`);
  if (typeof s.$ref === "string") {
    if (Object.keys(s).length > 1) problems.push(`${v.at}: keywords beside $ref`);
    const name = s.$ref.startsWith("#/$defs/") ? s.$ref.slice(8) : undefined;
    if (name === undefined || !isRecord(wire.$defs) || !Object.hasOwn(wire.$defs, name)) {
      problems.push(`${v.at}: $ref ${s.$ref} does not resolve locally`);
    }
  }
  if (s.$defs !== undefined && v.at !== "") problems.push(`${v.at}: $defs below the root`);
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types) {
    if (!["string", "number", "integer", "boolean", "object", "array", "null"].includes(t as string)) {
      problems.push(`${v.at}: type ${String(t)}`);
    }
  }
  return problems;
}

function keywords(v: Visit, allowed: ReadonlySet<string>): string[] {
  return Object.keys(v.schema)
    .filter((k) => !allowed.has(k))
    .map((k) => `${v.at}: keyword ${k}`);
}

const OPENAI_KEYWORDS = new Set([
  ...["type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "$ref", "$defs"],
  ...["description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  ...["multipleOf", "minItems", "maxItems"],
]);
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** A subschema as it stands, or the definition a local reference names (a few hops followed). */
function resolve(wire: Json, schema: Json): Json {
  let s = schema;
  for (let hops = 0; typeof s.$ref === "string" && hops < 16; hops++) {
    const defs = isRecord(wire.$defs) ? wire.$defs : {};
    const name = s.$ref.startsWith("#/$defs/") ? s.$ref.slice(8) : undefined;
    const next = name !== undefined && Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (!isRecord(next)) return s;
    s = next;
  }
  return s;
}

/** The object schemas an anyOf offers, looking through references and nested anyOf (the choice is one choice). */
function objectBranches(wire: Json, branches: readonly unknown[], seen: Set<Json> = new Set()): Json[] {
  const out: Json[] = [];
  for (const b of branches) {
    if (!isRecord(b)) continue;
    const s = resolve(wire, b);
    if (seen.has(s)) continue;
    seen.add(s);
    if (isRecord(s.properties) && Object.keys(s.properties).length > 0) out.push(s);
    else if (Array.isArray(s.anyOf)) out.push(...objectBranches(wire, s.anyOf, seen));
  }
  return out;
}

/** The value a member is held to, when it is held to one (const, or an enum of one value). */
function constantOf(wire: Json, schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const s = resolve(wire, schema);
  if (s.const !== undefined) return canonical(s.const);
  if (Array.isArray(s.enum) && s.enum.length === 1) return canonical(s.enum[0]);
  return undefined;
}

/**
 * OpenAI's undocumented first-key rule, as its error text states it ("Objects provided via 'anyOf'
 * must not share identical first keys"), with one write-up's reading that the first entry of
 * `required` counts too: two object branches whose first members share a name must be told apart
 * there by a constant that differs (presence tags: `state` is "absent" in one, "present" in the other).
 */
export function firstKeyProblems(wire: Json): string[] {
  const problems: string[] = [];
  for (const v of visits(wire)) {
    if (!Array.isArray(v.schema.anyOf)) continue;
    const objects = objectBranches(wire, v.schema.anyOf);
    const firsts = objects.map((o) => {
      const names = new Set<string>([Object.keys(o.properties as Json)[0]!]);
      if (Array.isArray(o.required) && typeof o.required[0] === "string") names.add(o.required[0]);
      return names;
    });
    for (let i = 0; i < objects.length; i++) {
      for (let j = i + 1; j < objects.length; j++) {
        for (const name of firsts[i]!) {
          if (!firsts[j]!.has(name)) continue;
          const a = constantOf(wire, (objects[i]!.properties as Json)[name]);
          const b = constantOf(wire, (objects[j]!.properties as Json)[name]);
          if (a === undefined || b === undefined || a === b)
            problems.push(`${v.at}: anyOf object branches ${i} and ${j} share the first key ${name}`);
        }
      }
    }
  }
  return problems;
}

const checkOpenAI: Checker = (wire) => {
  const problems: string[] = [...firstKeyProblems(wire)];
  if (wire.type !== "object" || wire.anyOf !== undefined) problems.push("root is not a plain object");
  let properties = 0;
  let chars = 0;
  let enumValues = 0;
  for (const v of visits(wire)) {
    const s = v.schema;
    problems.push(...common(wire, v), ...keywords(v, OPENAI_KEYWORDS));
    if (isRecord(s.properties)) {
      const names = Object.keys(s.properties);
      properties += names.length;
      chars += names.reduce((n, name) => n + name.length, 0);
      const required = Array.isArray(s.required) ? s.required : [];
      if (canonical([...required].sort()) !== canonical([...names].sort())) {
        problems.push(`${v.at}: not every property required`);
      }
    }
    if (isRecord(s.$defs)) chars += Object.keys(s.$defs).reduce((n, name) => n + name.length, 0);
    if (Array.isArray(s.enum)) {
      enumValues += s.enum.length;
      const text = s.enum.reduce((n: number, e) => n + (typeof e === "string" ? e : JSON.stringify(e)).length, 0);
      chars += text;
      if (s.enum.length > 250 && s.enum.every((e) => typeof e === "string") && text > 15_000) {
        problems.push(`${v.at}: large string enum of ${text} characters`);
      }
    }
    if (s.const !== undefined) chars += (typeof s.const === "string" ? s.const : JSON.stringify(s.const)).length;
    if (s.format !== undefined && !OPENAI_FORMATS.has(s.format as string)) problems.push(`${v.at}: format ${s.format}`);
    if (v.depth > 10) problems.push(`${v.at}: ${v.depth} levels of object nesting`);
  }
  if (properties > 5000) problems.push(`${properties} object properties`);
  if (chars > 120_000) problems.push(`${chars} characters of names and values`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values`);
  return problems;
};

/** Listed as unsupported on fine-tuned models; exclusive bounds go with minimum and maximum. */
const FINETUNED_REFUSED = new Set([
  ...["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "multipleOf", "patternProperties"],
  ...["minItems", "maxItems", "exclusiveMinimum", "exclusiveMaximum"],
]);

const checkOpenAIFinetuned: Checker = (wire) => [
  ...checkOpenAI(wire),
  ...visits(wire).flatMap((v) =>
    Object.keys(v.schema)
      .filter((k) => FINETUNED_REFUSED.has(k))
      .map((k) => `${v.at}: keyword ${k} (fine-tuned)`),
  ),
];

const ANTHROPIC_KEYWORDS = new Set([
  ...["type", "properties", "required", "additionalProperties", "items", "minItems", "anyOf", "allOf", "enum"],
  // const and pattern: Anthropic's SDKs do not send them (the Python one moves both into the description).
  ...["$ref", "$defs", "description", "title", "format"],
]);
const ANTHROPIC_FORMATS = new Set([...OPENAI_FORMATS, "uri"]);

const checkAnthropic: Checker = (wire) => {
  const problems: string[] = [];
  let optional = 0;
  let unions = 0;
  for (const v of visits(wire)) {
    const s = v.schema;
    problems.push(...common(wire, v), ...keywords(v, ANTHROPIC_KEYWORDS));
    if (isRecord(s.properties)) {
      const required = Array.isArray(s.required) ? s.required : [];
      // Optional members are allowed: required need only name declared ones.
      if (required.some((r) => !Object.hasOwn(s.properties as Json, r as string))) {
        problems.push(`${v.at}: requires an undeclared member`);
      }
      optional += Object.keys(s.properties).filter((p) => !required.includes(p)).length;
    }
    if (Array.isArray(s.anyOf) || (Array.isArray(s.type) && s.type.length > 1)) unions++;
    if (s.minItems !== undefined && s.minItems !== 0 && s.minItems !== 1)
      problems.push(`${v.at}: minItems ${s.minItems}`);
    if (Array.isArray(s.enum) && s.enum.some((e) => e !== null && typeof e === "object")) {
      problems.push(`${v.at}: structured enum value`);
    }
    if (Array.isArray(s.allOf) && s.allOf.some((b) => isRecord(b) && b.$ref !== undefined)) {
      problems.push(`${v.at}: allOf with $ref`);
    }
    if (s.format !== undefined && !ANTHROPIC_FORMATS.has(s.format as string))
      problems.push(`${v.at}: format ${s.format}`);
    if (typeof s.pattern === "string" && /\\[1-9bB]|\(\?[=!<]/.test(s.pattern)) {
      problems.push(`${v.at}: pattern ${s.pattern} is not simple`);
    }
  }
  if (hasCycle(refGraph(wire))) problems.push("recursive $defs");
  if (optional > 24) problems.push(`${optional} optional parameters`);
  if (unions > 16) problems.push(`${unions} union parameters`);
  return problems;
};

const GEMINI_KEYWORDS = new Set([
  ...["$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems"],
  ...["minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties"],
  ...["required", "propertyOrdering"],
]);

const checkGemini: Checker = (wire) => {
  const problems: string[] = [];
  for (const v of visits(wire)) {
    const s = v.schema;
    problems.push(...common(wire, v), ...keywords(v, GEMINI_KEYWORDS));
    if (Array.isArray(s.enum) && !s.enum.every((e) => typeof e === "string" || typeof e === "number")) {
      problems.push(`${v.at}: enum of other than strings and numbers`);
    }
    if (s.format !== undefined && !["date-time", "date", "time"].includes(s.format as string)) {
      problems.push(`${v.at}: format ${s.format}`);
    }
  }
  if (hasCycle(refGraph(wire))) problems.push("recursive $defs");
  if (JSON.stringify(wire).length > 50_000) problems.push("wire schema past the size guard");
  return problems;
};

export const STRICT_RULES: Readonly<Record<TargetName, Checker>> = {
  openai: checkOpenAI,
  "openai-finetuned": checkOpenAIFinetuned,
  anthropic: checkAnthropic,
  gemini: checkGemini,
};
