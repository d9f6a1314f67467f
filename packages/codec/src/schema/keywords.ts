/**
 * The keyword registry: every JSON Schema keyword of the drafts strictwire
 * reads, once. For each: where its subschemas are, whether they apply to the
 * same value (in place), what it does to the wire (shapes it, narrows the
 * values, or only annotates), and the drafts that define it. Every walker and
 * every keyword list in the codec derives from this table (like ajv's
 * vocabularies and json-schema-traverse); a target's keep/relax/refuse choice
 * is `targetHandling`, from the target profile's `keeps` sets.
 */
import { pointerJoin } from "../errors.js";
import { isPlainObject } from "../json.js";

export type Draft = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

/**
 * Where a keyword's subschemas are: one schema, a list, a map of names to
 * schemas, one schema or a list (`items` before 2020-12), a map whose values
 * are schemas or lists of names (`dependencies`).
 */
export type SubschemaForm = "one" | "list" | "map" | "one-or-list" | "map-or-names";

/** What a keyword does to the wire: decides its shape, narrows the values, only annotates, or cannot be followed. */
export type KeywordRole = "shape" | "narrow" | "annotate" | "unsupported";

/** The JSON type a narrowing keyword applies to ("any": every type). */
export type Applies = "string" | "number" | "array" | "object" | "any";

export interface KeywordSpec {
  readonly role: KeywordRole;
  readonly drafts: readonly Draft[];
  readonly subschemas?: SubschemaForm;
  /** Its subschemas apply to the same value, not to a member or element. */
  readonly inPlace?: true;
  readonly applies?: Applies;
  /** Its value is data (an instance), never a schema: walkers do not read into it. */
  readonly data?: true;
  /** A shape keyword that also narrows (relaxed when the node travels as any JSON). */
  readonly alsoNarrows?: true;
  /** Without $schema, its presence means the document is 2019-09 or later. */
  readonly modern?: true;
}

const ALL: readonly Draft[] = ["2020-12", "2019-09", "draft-07", "draft-06", "draft-04"];
const FROM_06: readonly Draft[] = ["2020-12", "2019-09", "draft-07", "draft-06"];
const FROM_07: readonly Draft[] = ["2020-12", "2019-09", "draft-07"];
const FROM_2019: readonly Draft[] = ["2020-12", "2019-09"];
const ONLY_2020: readonly Draft[] = ["2020-12"];
/** The 2019-09 and 2020-12 meta-schemas still list these (and $recursive*) for compatibility. */
const UNTIL_07_COMPAT: readonly Draft[] = ALL;

/**
 * The registry. Order matters: the builder relaxes keywords in this order, so
 * `plan.relaxed` reads the same from run to run.
 */
export const KEYWORDS: Readonly<Record<string, KeywordSpec>> = {
  // strings
  minLength: { role: "narrow", applies: "string", drafts: ALL },
  maxLength: { role: "narrow", applies: "string", drafts: ALL },
  pattern: { role: "narrow", applies: "string", drafts: ALL },
  format: { role: "narrow", applies: "string", drafts: ALL },
  // numbers
  minimum: { role: "narrow", applies: "number", drafts: ALL },
  maximum: { role: "narrow", applies: "number", drafts: ALL },
  exclusiveMinimum: { role: "narrow", applies: "number", drafts: ALL },
  exclusiveMaximum: { role: "narrow", applies: "number", drafts: ALL },
  multipleOf: { role: "narrow", applies: "number", drafts: ALL },
  // arrays
  minItems: { role: "narrow", applies: "array", drafts: ALL },
  maxItems: { role: "narrow", applies: "array", drafts: ALL },
  uniqueItems: { role: "narrow", applies: "array", drafts: ALL },
  contains: { role: "narrow", applies: "array", drafts: FROM_06, subschemas: "one" },
  minContains: { role: "narrow", applies: "array", drafts: FROM_2019, modern: true },
  maxContains: { role: "narrow", applies: "array", drafts: FROM_2019, modern: true },
  unevaluatedItems: { role: "narrow", applies: "array", drafts: FROM_2019, subschemas: "one", modern: true },
  // objects
  minProperties: { role: "narrow", applies: "object", drafts: ALL },
  maxProperties: { role: "narrow", applies: "object", drafts: ALL },
  dependentRequired: { role: "narrow", applies: "object", drafts: FROM_2019, modern: true },
  dependentSchemas: {
    role: "narrow",
    applies: "object",
    drafts: FROM_2019,
    subschemas: "map",
    inPlace: true,
    modern: true,
  },
  dependencies: {
    role: "narrow",
    applies: "object",
    drafts: UNTIL_07_COMPAT,
    subschemas: "map-or-names",
    inPlace: true,
  },
  propertyNames: { role: "narrow", applies: "object", drafts: FROM_06, subschemas: "one" },
  unevaluatedProperties: { role: "narrow", applies: "object", drafts: FROM_2019, subschemas: "one", modern: true },
  // any type
  not: { role: "narrow", applies: "any", drafts: ALL, subschemas: "one", inPlace: true },
  if: { role: "narrow", applies: "any", drafts: FROM_07, subschemas: "one", inPlace: true },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, the table is never awaited
  then: { role: "narrow", applies: "any", drafts: FROM_07, subschemas: "one", inPlace: true },
  else: { role: "narrow", applies: "any", drafts: FROM_07, subschemas: "one", inPlace: true },
  enum: { role: "narrow", applies: "any", drafts: ALL, data: true },
  const: { role: "narrow", applies: "any", drafts: FROM_06, data: true },
  required: { role: "narrow", applies: "object", drafts: ALL },
  // the wire's shape
  type: { role: "shape", drafts: ALL },
  properties: { role: "shape", applies: "object", drafts: ALL, subschemas: "map" },
  additionalProperties: { role: "shape", applies: "object", drafts: ALL, subschemas: "one" },
  patternProperties: { role: "shape", applies: "object", drafts: ALL, subschemas: "map", alsoNarrows: true },
  items: { role: "shape", applies: "array", drafts: ALL, subschemas: "one-or-list" },
  prefixItems: {
    role: "shape",
    applies: "array",
    drafts: ONLY_2020,
    subschemas: "list",
    alsoNarrows: true,
    modern: true,
  },
  additionalItems: { role: "shape", applies: "array", drafts: UNTIL_07_COMPAT, subschemas: "one" },
  $ref: { role: "shape", drafts: ALL, inPlace: true },
  allOf: { role: "shape", drafts: ALL, subschemas: "list", inPlace: true },
  anyOf: { role: "shape", drafts: ALL, subschemas: "list", inPlace: true },
  oneOf: { role: "shape", drafts: ALL, subschemas: "list", inPlace: true },
  // dynamic references: refused
  $dynamicRef: { role: "unsupported", drafts: ONLY_2020, modern: true },
  $recursiveRef: { role: "unsupported", drafts: FROM_2019, modern: true },
  // annotations and structure
  $schema: { role: "annotate", drafts: ALL },
  $id: { role: "annotate", drafts: FROM_06 },
  id: { role: "annotate", drafts: ["draft-04"] },
  $comment: { role: "annotate", drafts: FROM_07 },
  $defs: { role: "annotate", drafts: FROM_2019, subschemas: "map" },
  definitions: { role: "annotate", drafts: UNTIL_07_COMPAT, subschemas: "map" },
  $anchor: { role: "annotate", drafts: FROM_2019, modern: true },
  $vocabulary: { role: "annotate", drafts: FROM_2019 },
  title: { role: "annotate", drafts: ALL },
  description: { role: "annotate", drafts: ALL },
  default: { role: "annotate", drafts: ALL, data: true },
  examples: { role: "annotate", drafts: FROM_06, data: true },
  deprecated: { role: "annotate", drafts: FROM_2019 },
  readOnly: { role: "annotate", drafts: FROM_07 },
  writeOnly: { role: "annotate", drafts: FROM_07 },
  contentMediaType: { role: "annotate", drafts: FROM_07 },
  contentEncoding: { role: "annotate", drafts: FROM_07 },
  contentSchema: { role: "annotate", drafts: FROM_2019, subschemas: "one" },
  $dynamicAnchor: { role: "annotate", drafts: ONLY_2020, modern: true },
  $recursiveAnchor: { role: "annotate", drafts: FROM_2019 },
};

export function keywordSpec(keyword: string): KeywordSpec | undefined {
  return Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword] : undefined;
}

/** The keywords a predicate selects, in registry order. */
export function keywordsWhere(pick: (spec: KeywordSpec, keyword: string) => boolean): string[] {
  return Object.entries(KEYWORDS)
    .filter(([k, spec]) => pick(spec, k))
    .map(([k]) => k);
}

/** One direct subschema: its value, the keyword that holds it, and the pointer tokens from the parent. */
export interface SubschemaEntry {
  readonly schema: unknown;
  readonly keyword: string;
  readonly tokens: readonly (string | number)[];
}

/**
 * The direct subschemas of a schema object, as the registry places them.
 * `pick` narrows the keywords (e.g. in-place only). Values that are not
 * schema-shaped for their keyword (a list of names in `dependencies`) are skipped.
 */
export function subschemasOf(
  schema: Record<string, unknown>,
  pick: (spec: KeywordSpec, keyword: string) => boolean = () => true,
): SubschemaEntry[] {
  const out: SubschemaEntry[] = [];
  for (const keyword of Object.keys(schema)) {
    const spec = keywordSpec(keyword);
    if (spec?.subschemas === undefined || !pick(spec, keyword)) continue;
    const value = schema[keyword];
    const form = spec.subschemas;
    if ((form === "one" || form === "one-or-list") && (isPlainObject(value) || typeof value === "boolean")) {
      out.push({ schema: value, keyword, tokens: [keyword] });
    } else if ((form === "list" || form === "one-or-list") && Array.isArray(value)) {
      value.forEach((sub, i) => {
        out.push({ schema: sub, keyword, tokens: [keyword, i] });
      });
    } else if ((form === "map" || form === "map-or-names") && isPlainObject(value)) {
      for (const name of Object.keys(value)) {
        const sub = value[name];
        if (form === "map-or-names" && Array.isArray(sub)) continue;
        out.push({ schema: sub, keyword, tokens: [keyword, name] });
      }
    }
  }
  return out;
}

/** The pointer of a subschema entry below the schema at `pointer`. */
export function entryPointer(pointer: string, entry: SubschemaEntry): string {
  let out = pointer;
  for (const t of entry.tokens) out = pointerJoin(out, t);
  return out;
}

/** Keywords whose value is data, not a schema: walkers that index a document skip them. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(keywordsWhere((s) => s.data === true));
