/**
 * The figures providers limit, read off a wire schema as sent. Totals keep
 * each contribution with its place, so a check can say where a limit is
 * crossed, not only that it is.
 */
import { pointerToken } from "../errors.js";
import { isPlainObject, type JsonObject } from "../json.js";
import { subschemas } from "./walk.js";

/** One item of a total: where it stands in the wire schema (JSON Pointer) and how much it adds. */
export interface Contribution {
  readonly at: string;
  readonly amount: number;
}

export interface WireMeasures {
  /** One per declared object property. */
  readonly properties: Contribution[];
  /** Characters of property names, definition names, enum values and const values. */
  readonly stringChars: Contribution[];
  /** Values per enum. */
  readonly enumValues: Contribution[];
  /** Enums whose values are all strings: how many, and their characters. */
  readonly stringEnums: { readonly at: string; readonly values: number; readonly chars: number }[];
  /** The most object schemas met on one path down the document, and where the deepest stands. */
  readonly nesting: { readonly depth: number; readonly at: string };
  /** One per property left out of its object's `required`. */
  readonly optional: Contribution[];
  /** One per schema with `anyOf` or a list of more than one type. */
  readonly unions: Contribution[];
  /** The schema's JSON text length. */
  readonly schemaChars: number;
}

export function measureWire(wire: JsonObject): WireMeasures {
  const m: WireMeasures = {
    properties: [],
    stringChars: [],
    enumValues: [],
    stringEnums: [],
    nesting: objectNesting(wire),
    optional: [],
    unions: [],
    schemaChars: JSON.stringify(wire).length,
  };
  const work: [JsonObject, string][] = [[wire, ""]];
  while (work.length > 0) {
    const [schema, at] = work.pop()!;
    measureOne(schema, at, m);
    // Pushed last to first, so totals accumulate in document order.
    const subs = subschemas(schema);
    for (let i = subs.length - 1; i >= 0; i--) work.push([subs[i]![0], at + subs[i]![1]]);
  }
  return m;
}

function measureOne(schema: JsonObject, at: string, m: WireMeasures): void {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (isPlainObject(schema.properties)) {
    for (const [step, name] of keysAt(schema.properties, `${at}/properties`)) {
      m.properties.push({ at: step, amount: 1 });
      m.stringChars.push({ at: step, amount: name.length });
      if (!required.has(name)) m.optional.push({ at: step, amount: 1 });
    }
  }
  if (isPlainObject(schema.$defs)) {
    for (const [step, name] of keysAt(schema.$defs, `${at}/$defs`))
      m.stringChars.push({ at: step, amount: name.length });
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum;
    const chars = values.reduce((n: number, v) => n + textOf(v).length, 0);
    m.enumValues.push({ at: `${at}/enum`, amount: values.length });
    m.stringChars.push({ at: `${at}/enum`, amount: chars });
    if (values.every((v) => typeof v === "string"))
      m.stringEnums.push({ at: `${at}/enum`, values: values.length, chars });
  }
  if (Object.hasOwn(schema, "const")) m.stringChars.push({ at: `${at}/const`, amount: textOf(schema.const).length });
  const typeList = Array.isArray(schema.type) && schema.type.length > 1;
  if (Array.isArray(schema.anyOf) || typeList) m.unions.push({ at, amount: 1 });
}

function keysAt(map: Record<string, unknown>, base: string): [string, string][] {
  return Object.keys(map).map((name) => [`${base}/${pointerToken(name)}`, name]);
}

/** A string counts its characters; any other value its JSON text. */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

function isObjectSchema(schema: JsonObject): boolean {
  const t = schema.type;
  return t === "object" || (Array.isArray(t) && t.includes("object")) || isPlainObject(schema.properties);
}

/**
 * Object nesting as the document is written: each definition counts from its
 * own root. Providers do not say how references count; following them would
 * refuse schemas that may well be accepted, and a refusal here cannot be worked around.
 */
function objectNesting(wire: JsonObject): { depth: number; at: string } {
  let deepest = { depth: 0, at: "" };
  const work: [JsonObject, string, number][] = [[wire, "", 0]];
  while (work.length > 0) {
    const [schema, at, outer] = work.pop()!;
    const depth = isObjectSchema(schema) ? outer + 1 : outer;
    if (depth > deepest.depth) deepest = { depth, at };
    for (const [sub, step] of subschemas(schema)) {
      work.push([sub, at + step, step.startsWith("/$defs/") ? 0 : depth]);
    }
  }
  return deepest;
}
