/**
 * The words for each schema rule a value breaks. The codec's issues (from
 * ajv, in `issues.ts`) and the classifier's findings are both worded here,
 * so a rule reads the same wherever strictwire reports it.
 */
import { isPlainObject } from "../json.js";

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

function containsText(params: Record<string, unknown>): string {
  const min = typeof params.minContains === "number" ? params.minContains : 1;
  if (typeof params.maxContains === "number") {
    return `between ${min} and ${params.maxContains} item(s) must match the contains schema`;
  }
  return min <= 1 ? "no item matches the contains schema" : `fewer than ${min} items match the contains schema`;
}

/**
 * The sentence for one rule a value breaks, after "path: ": the value shown,
 * the rule and its bound ("0 is less than the minimum of 1").
 */
export function ruleSentence(error: RuleBreach): string {
  const p = error.params;
  const data = error.data;
  const shown = displayValue(data);
  const limit = String(p.limit);
  switch (error.keyword) {
    case "type": {
      const types = Array.isArray(p.type) ? p.type.map(String) : String(p.type).split(",");
      return `expected ${types.join(" or ")}, got ${typeName(data)}`;
    }
    case "enum":
      return `${shown} is not one of the ${Array.isArray(p.allowedValues) ? p.allowedValues.length : "?"} declared value(s)`;
    case "const":
      return `${shown} is not the declared constant ${displayValue(p.allowedValue)}`;
    case "minimum":
      return `${shown} is less than the minimum of ${limit}`;
    case "maximum":
      return `${shown} is greater than the maximum of ${limit}`;
    case "exclusiveMinimum":
      return `${shown} must be greater than ${limit}`;
    case "exclusiveMaximum":
      return `${shown} must be less than ${limit}`;
    case "multipleOf":
      return `${shown} is not a multiple of ${String(p.multipleOf)}`;
    case "minLength":
      return `${shown} has ${count(data)} character(s), fewer than the minimum of ${limit}`;
    case "maxLength":
      return `${shown} has ${count(data)} character(s), more than the maximum of ${limit}`;
    case "pattern":
      return `${shown} does not match the pattern ${String(p.pattern)}`;
    case "format":
      return `${shown} is not a valid ${String(p.format)}`;
    case "minItems":
      return `${count(data)} item(s), fewer than the minimum of ${limit}`;
    case "maxItems":
      return `${count(data)} item(s), more than the maximum of ${limit}`;
    case "items":
    case "additionalItems":
    case "unevaluatedItems":
      return `${count(data)} item(s), more than the ${limit} the schema declares`;
    case "uniqueItems":
      return `items [${String(p.j)}] and [${String(p.i)}] are equal, and the schema requires unique items`;
    case "contains":
      return containsText(p);
    case "minProperties":
      return `${count(data)} key(s), fewer than the minimum of ${limit}`;
    case "maxProperties":
      return `${count(data)} key(s), more than the maximum of ${limit}`;
    case "not":
      return "matches a schema it is declared not to match (not)";
    case "false schema":
      return "not allowed here (the schema for it is false)";
    default:
      return `${error.message ?? "is invalid"} (${error.keyword})`;
  }
}

/**
 * A rule about a member rather than a value (one missing, one not declared):
 * the member's name and the sentence after its path; undefined for other rules.
 */
export function memberRuleSentence(
  keyword: string,
  params: Readonly<Record<string, unknown>>,
): { readonly member: string; readonly text: string } | undefined {
  switch (keyword) {
    case "required":
      return { member: String(params.missingProperty), text: "required and missing" };
    case "dependentRequired":
    case "dependencies":
      return {
        member: String(params.missingProperty),
        text: `required because ${JSON.stringify(params.property)} is present, and missing`,
      };
    case "additionalProperties":
      return { member: String(params.additionalProperty), text: "not declared, and the schema forbids extra keys" };
    case "unevaluatedProperties":
      return { member: String(params.unevaluatedProperty), text: "not declared, and the schema forbids extra keys" };
    default:
      return undefined;
  }
}

/**
 * The codec's wording of an ajv error for its own issues (a model reads
 * these, with the value added by diagnosis): the member named for a member
 * rule, the allowed values listed, a key rule naming the key.
 */
export function issueMessage(keyword: string, params: Readonly<Record<string, unknown>>, ajvMessage: string): string {
  if (keyword === "required" && typeof params.missingProperty === "string") {
    return `${JSON.stringify(params.missingProperty)} is required and missing`;
  }
  if (keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return "not declared, and the schema forbids extra members";
  }
  if (keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `must be one of ${JSON.stringify(params.allowedValues).slice(0, 200)}`;
  }
  if (keyword === "const") return `must be ${JSON.stringify(params.allowedValue).slice(0, 200)}`;
  if (keyword === "type" && (typeof params.type === "string" || Array.isArray(params.type))) {
    return `must be ${typeList(params.type)}`;
  }
  return ajvMessage;
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
