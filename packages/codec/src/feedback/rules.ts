/**
 * The words for each schema rule a value breaks. The codec's issues (from
 * ajv, in `issues.ts`) and the classifier's findings are both worded here,
 * so a rule reads the same wherever strictwire reports it.
 */
import type { Breach, RuleKeyword, RuleParams } from "../errors.js";
import { isPlainObject } from "../json.js";

type Limit = RuleParams["minimum"];

/** One rule broken: the schema keyword, its parameters as the validator gave them, the value it judged. */
export interface RuleBreach {
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly data?: unknown;
  /** The validator's own words, for a keyword this module has none for. */
  readonly message?: string;
}

/** What a JSON value is, in schema vocabulary. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const DISPLAY_LIMIT = 60;

/** A value as JSON, cut short (by code points) so one long string cannot drown the line. */
export function displayValue(value: unknown, limit = DISPLAY_LIMIT): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit - 1).join("")}…`;
}

function count(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (isPlainObject(data)) return Object.keys(data).length;
  return typeof data === "string" ? Array.from(data).length : 0;
}

function containsText(p: RuleParams["contains"]): string {
  const min = p.minContains ?? 1;
  if (p.maxContains !== undefined) return `between ${min} and ${p.maxContains} item(s) must match the contains schema`;
  return min <= 1 ? "no item matches the contains schema" : `fewer than ${min} items match the contains schema`;
}

// ---- a validator's parameters, typed ---------------------------------------

type Reader<K extends RuleKeyword> = (p: Readonly<Record<string, unknown>>) => RuleParams[K] | undefined;

const str = (v: unknown): v is string => typeof v === "string";
const num = (v: unknown): v is number => typeof v === "number";
const limit = (p: Readonly<Record<string, unknown>>) => (num(p.limit) ? { limit: p.limit } : undefined);
const none = () => ({});
const dependent = (p: Readonly<Record<string, unknown>>) =>
  str(p.property) && str(p.missingProperty) ? { property: p.property, missingProperty: p.missingProperty } : undefined;

/** How each keyword's parameters are read from a validator's untyped record; undefined when they are not that shape. */
const PARAMS: { readonly [K in RuleKeyword]: Reader<K> } = {
  type: (p) => (str(p.type) || (Array.isArray(p.type) && p.type.every(str)) ? { type: p.type } : undefined),
  enum: (p) => (Array.isArray(p.allowedValues) ? { allowedValues: p.allowedValues } : undefined),
  const: (p) => (Object.hasOwn(p, "allowedValue") ? { allowedValue: p.allowedValue } : undefined),
  minimum: limit,
  maximum: limit,
  exclusiveMinimum: limit,
  exclusiveMaximum: limit,
  multipleOf: (p) => (num(p.multipleOf) ? { multipleOf: p.multipleOf } : undefined),
  minLength: limit,
  maxLength: limit,
  pattern: (p) => (str(p.pattern) ? { pattern: p.pattern } : undefined),
  format: (p) => (str(p.format) ? { format: p.format } : undefined),
  minItems: limit,
  maxItems: limit,
  items: limit,
  additionalItems: limit,
  unevaluatedItems: limit,
  uniqueItems: (p) => (num(p.i) && num(p.j) ? { i: p.i, j: p.j } : undefined),
  contains: (p) => ({
    ...(num(p.minContains) ? { minContains: p.minContains } : {}),
    ...(num(p.maxContains) ? { maxContains: p.maxContains } : {}),
  }),
  minProperties: limit,
  maxProperties: limit,
  not: none,
  "false schema": none,
  required: (p) => (str(p.missingProperty) ? { missingProperty: p.missingProperty } : undefined),
  dependentRequired: dependent,
  dependencies: dependent,
  additionalProperties: (p) => (str(p.additionalProperty) ? { additionalProperty: p.additionalProperty } : undefined),
  unevaluatedProperties: (p) =>
    str(p.unevaluatedProperty) ? { unevaluatedProperty: p.unevaluatedProperty } : undefined,
};

/** A validator's (keyword, params) as a typed breach, when strictwire words that keyword and the params fit it. */
export function breachOf(keyword: string, params: unknown): Breach | undefined {
  if (!Object.hasOwn(PARAMS, keyword) || !isPlainObject(params)) return undefined;
  const k = keyword as RuleKeyword;
  const typed = (PARAMS[k] as Reader<RuleKeyword>)(params);
  return typed === undefined ? undefined : ({ keyword: k, params: typed } as Breach);
}

// ---- the words ------------------------------------------------------------

/**
 * Each keyword's sentence. A rule about a value says what the value broke
 * (`value`: "0 is less than the minimum of 1", after "path: "); a rule about
 * a member names the member (`member`: missing, or not declared).
 */
type Wording<K extends RuleKeyword> =
  | { readonly value: (p: RuleParams[K], data: unknown) => string; readonly member?: undefined }
  | {
      readonly member: (p: RuleParams[K]) => { readonly member: string; readonly text: string };
      readonly value?: undefined;
    };

const tooFew = (what: string) => (p: Limit, data: unknown) =>
  `${count(data)} ${what}, fewer than the minimum of ${p.limit}`;
const tooMany = (what: string) => (p: Limit, data: unknown) =>
  `${count(data)} ${what}, more than the maximum of ${p.limit}`;
const extra = (p: Limit, data: unknown) => `${count(data)} item(s), more than the ${p.limit} the schema declares`;
const undeclared = "not declared, and the schema forbids extra keys";

// Pure: a bundle that never reads a sentence (a decode's) leaves the table out.
const WORDING: { readonly [K in RuleKeyword]: Wording<K> } = {
  type: {
    value: (p, data) =>
      `expected ${(typeof p.type === "string" ? p.type.split(",") : p.type).join(" or ")}, got ${typeName(data)}`,
  },
  enum: {
    value: (p, data) => `${displayValue(data)} is not one of the ${p.allowedValues.length} declared value(s)`,
  },
  const: {
    value: (p, data) => `${displayValue(data)} is not the declared constant ${displayValue(p.allowedValue)}`,
  },
  minimum: { value: (p, data) => `${displayValue(data)} is less than the minimum of ${p.limit}` },
  maximum: { value: (p, data) => `${displayValue(data)} is greater than the maximum of ${p.limit}` },
  exclusiveMinimum: { value: (p, data) => `${displayValue(data)} must be greater than ${p.limit}` },
  exclusiveMaximum: { value: (p, data) => `${displayValue(data)} must be less than ${p.limit}` },
  multipleOf: { value: (p, data) => `${displayValue(data)} is not a multiple of ${p.multipleOf}` },
  minLength: {
    value: (p, data) => `${displayValue(data)} has ${count(data)} character(s), fewer than the minimum of ${p.limit}`,
  },
  maxLength: {
    value: (p, data) => `${displayValue(data)} has ${count(data)} character(s), more than the maximum of ${p.limit}`,
  },
  pattern: { value: (p, data) => `${displayValue(data)} does not match the pattern ${p.pattern}` },
  format: { value: (p, data) => `${displayValue(data)} is not a valid ${p.format}` },
  minItems: { value: /* @__PURE__ */ tooFew("item(s)") },
  maxItems: { value: /* @__PURE__ */ tooMany("item(s)") },
  items: { value: extra },
  additionalItems: { value: extra },
  unevaluatedItems: { value: extra },
  uniqueItems: {
    value: (p) => `items [${p.j}] and [${p.i}] are equal, and the schema requires unique items`,
  },
  contains: { value: containsText },
  minProperties: { value: /* @__PURE__ */ tooFew("key(s)") },
  maxProperties: { value: /* @__PURE__ */ tooMany("key(s)") },
  not: { value: () => "matches a schema it is declared not to match (not)" },
  "false schema": { value: () => "not allowed here (the schema for it is false)" },
  required: {
    member: (p) => ({ member: p.missingProperty, text: "required and missing" }),
  },
  dependentRequired: { member: dependentText },
  dependencies: { member: dependentText },
  additionalProperties: {
    member: (p) => ({ member: p.additionalProperty, text: undeclared }),
  },
  unevaluatedProperties: { member: (p) => ({ member: p.unevaluatedProperty, text: undeclared }) },
};

function dependentText(p: RuleParams["dependentRequired"]): { member: string; text: string } {
  return { member: p.missingProperty, text: `required because ${JSON.stringify(p.property)} is present, and missing` };
}

/** The words a breach has, by its keyword (one typed lookup: the table holds a wording per keyword). */
function wordingOf<K extends RuleKeyword>(b: { readonly keyword: K }): Wording<K> {
  return WORDING[b.keyword];
}

/**
 * The codec's own shorter wording for its issues, where it has one (a model
 * reads these, with the value added by diagnosis); otherwise the validator's.
 * A table apart from WORDING: a decode words its issues with this one alone,
 * so a run-time bundle leaves the sentences out.
 */
const ISSUE_WORDING: { readonly [K in RuleKeyword]?: (p: RuleParams[K]) => string } = {
  type: (p) => `must be ${typeList(p.type)}`,
  enum: (p) => `must be one of ${JSON.stringify(p.allowedValues).slice(0, 200)}`,
  const: (p) => `must be ${JSON.stringify(p.allowedValue).slice(0, 200)}`,
  required: (p) => `${JSON.stringify(p.missingProperty)} is required and missing`,
  additionalProperties: () => "not declared, and the schema forbids extra members",
};

/**
 * The sentence for one rule a value breaks, after "path: ": the value shown,
 * the rule and its bound ("0 is less than the minimum of 1").
 */
export function ruleSentence(error: RuleBreach): string {
  const breach = breachOf(error.keyword, error.params);
  const value = breach === undefined ? undefined : wordingOf(breach).value;
  if (breach === undefined || value === undefined) return `${error.message ?? "is invalid"} (${error.keyword})`;
  return (value as (p: unknown, data: unknown) => string)(breach.params, error.data);
}

/**
 * A rule about a member rather than a value (one missing, one not declared):
 * the member's name and the sentence after its path; undefined for other rules.
 */
export function memberRuleSentence(
  keyword: string,
  params: Readonly<Record<string, unknown>>,
): { readonly member: string; readonly text: string } | undefined {
  const breach = breachOf(keyword, params);
  const member = breach === undefined ? undefined : wordingOf(breach).member;
  return member === undefined
    ? undefined
    : (member as (p: unknown) => { member: string; text: string })(breach!.params);
}

/**
 * The codec's wording of a validator's error for its own issues: the member
 * named for a member rule, the allowed values listed, a key rule naming the
 * key; the validator's own words for the rest.
 */
export function issueMessage(breach: Breach | undefined, validatorMessage: string): string {
  const issue = breach === undefined ? undefined : ISSUE_WORDING[breach.keyword];
  return issue === undefined ? validatorMessage : (issue as (p: unknown) => string)(breach!.params);
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

/** ajv's "string,null" as words: "a string or null", "a string, a number or null". */
export function typeList(type: string | readonly unknown[]): string {
  const names = (typeof type === "string" ? type.split(",") : type.map(String)).map((t) => TYPE_WORDS[t] ?? t);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** A key rule (propertyNames) broken by one key: the key named before the rule. */
export function keyRuleMessage(key: string, message: string): string {
  return `the key ${JSON.stringify(key).slice(0, 80)} ${message}`;
}
