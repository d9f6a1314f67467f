/**
 * Expected failures are values, not exceptions. Every failure strictwire
 * reports, at compile, encode, decode or load time, is a CodecError.
 *
 * The leaf of the house: it imports nothing. What an error says to whoever
 * must act on it (its `feedback`) is worded by `feedback/format.ts`.
 */

/** Stable error codes. Scripts match on these; never rename one. */
export type ErrorCode =
  // bounded parse
  | "invalid-json"
  | "invalid-utf8"
  | "input-too-large"
  | "too-deep"
  | "too-many-nodes"
  | "duplicate-key"
  | "unsafe-number"
  // decode
  | "wire-violation"
  | "duplicate-entry"
  | "entry-shadows-field"
  | "contract-violation"
  // streaming: the provider's stream broke its own protocol (a call id twice, arguments that disagree)
  | "stream-violation"
  // encode
  | "invalid-value"
  | "undeclared-member"
  | "exceeds-decoder-limits"
  // compile
  | "invalid-options"
  | "invalid-schema"
  | "unsupported-schema"
  | "remote-ref"
  | "dynamic-ref"
  | "unresolved-ref"
  | "unsafe-pattern"
  | "expansion-limit"
  | "schema-too-large"
  | "target-limit"
  | "code-generation-unavailable"
  // bundle
  | "invalid-bundle"
  | "digest-mismatch"
  | "unsupported-format"
  // a structured-output answer the provider did not give whole (the answer's text itself is decode's)
  | "answer-refused"
  | "answer-cut"
  | "answer-blocked"
  | "no-answer";

/**
 * The bounded parse's codes: the text itself is refused (its grammar, its
 * UTF-8, a limit, a repeated member name, an unsafe number) before the wire
 * or the contract is read. What a model wrote was not readable, rather than
 * a value of the wrong shape.
 */
export const PARSE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "invalid-json",
  "invalid-utf8",
  "input-too-large",
  "too-deep",
  "too-many-nodes",
  "duplicate-key",
  "unsafe-number",
]);

/** One step of a path: a member name, or an array index (a member named "0" stays the string "0"). */
export type PathStep = string | number;

/** A bound a value is held to (ajv's `limit`); a type, so that it reads as a plain record. */
type Limit = { readonly limit: number };

/**
 * Each schema rule strictwire words, with the parameters its breach carries
 * (the validator's names). A keyword added here without its words in
 * `feedback/rules.ts` (`WORDING`) fails to compile.
 */
export interface RuleParams {
  readonly type: { readonly type: string | readonly string[] };
  readonly enum: { readonly allowedValues: readonly unknown[] };
  readonly const: { readonly allowedValue: unknown };
  readonly minimum: Limit;
  readonly maximum: Limit;
  readonly exclusiveMinimum: Limit;
  readonly exclusiveMaximum: Limit;
  readonly multipleOf: { readonly multipleOf: number };
  readonly minLength: Limit;
  readonly maxLength: Limit;
  readonly pattern: { readonly pattern: string };
  readonly format: { readonly format: string };
  readonly minItems: Limit;
  readonly maxItems: Limit;
  readonly items: Limit;
  readonly additionalItems: Limit;
  readonly unevaluatedItems: Limit;
  readonly uniqueItems: { readonly i: number; readonly j: number };
  readonly contains: { readonly minContains?: number; readonly maxContains?: number };
  readonly minProperties: Limit;
  readonly maxProperties: Limit;
  readonly not: Readonly<Record<string, never>>;
  readonly "false schema": Readonly<Record<string, never>>;
  readonly required: { readonly missingProperty: string };
  readonly dependentRequired: { readonly property: string; readonly missingProperty: string };
  readonly dependencies: { readonly property: string; readonly missingProperty: string };
  readonly additionalProperties: { readonly additionalProperty: string };
  readonly unevaluatedProperties: { readonly unevaluatedProperty: string };
}

export type RuleKeyword = keyof RuleParams;

/** One schema rule broken: its keyword and its typed parameters, one variant per keyword. */
export type Breach = {
  readonly [K in RuleKeyword]: { readonly keyword: K; readonly params: RuleParams[K] };
}[RuleKeyword];

/**
 * One problem, in the terms of the value it was found in. Issues form a
 * tree: the issue of a union the value failed (a presence tag's two forms,
 * a union's branches) carries each alternative's own issues as `branches`.
 */
export interface Issue {
  /** JSON Pointer into the value. */
  readonly path: string;
  /** The same place as steps, where the producer knew them (a number is an array index). */
  readonly at?: readonly PathStep[];
  /** The rule that failed: a schema keyword, or the error code of a rule of the text or the wire. */
  readonly keyword?: string;
  readonly message: string;
  /** Where in the checked schema the rule lives (a validator's schema path), for diagnosis. */
  readonly schemaPath?: string;
  /** The schema rule broken, with its parameters typed by keyword, when it is one strictwire words. */
  readonly rule?: Breach;
  /** What to do about it, when the producer knows (a parse problem's rule to follow). */
  readonly hint?: string;
  /** A union's alternatives: each branch's own issues, by branch index. */
  readonly branches?: readonly (readonly Issue[])[];
  /** The branch diagnosis took for the one the value meant. */
  readonly chosen?: number;
}

export interface CodecError {
  readonly code: ErrorCode;
  /** JSON Pointer, in the original value's terms where it applies ("" is the root). */
  readonly path: string;
  /** For a person reading logs. */
  readonly message: string;
  /** Short text for whoever must act: the model for a refused call, the schema's author at compile. */
  readonly feedback: string;
  /** The problems shown, most useful first (the chosen branch of each union, flattened). */
  readonly issues?: readonly Issue[];
  /** Every problem found, as a tree: unions carry their branches (see Issue.branches). */
  readonly tree?: readonly Issue[];
  /** Byte offset into the raw text, for parse errors. */
  readonly offset?: number;
}

/**
 * An internal step's refusal before it has a code: the caller knows which
 * (a source that does not prepare is `invalid-schema` at compile and
 * `invalid-bundle` at load) and makes it a CodecError with `fail`.
 */
export interface Refused<R extends string = string> {
  readonly ok: false;
  readonly reason: R;
  /** JSON Pointer into what was checked, when the step knows where. */
  readonly path?: string;
}

export type Result<T, E = CodecError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

/** Escape one reference token for a JSON Pointer (RFC 6901). */
export function pointerToken(token: string | number): string {
  const s = String(token);
  return s.includes("~") || s.includes("/") ? s.replaceAll("~", "~0").replaceAll("/", "~1") : s;
}

export function pointerJoin(base: string, token: string | number): string {
  return `${base}/${pointerToken(token)}`;
}

/** Steps as a JSON Pointer. */
export function pointerOf(steps: readonly PathStep[]): string {
  let out = "";
  for (const s of steps) out += `/${pointerToken(s)}`;
  return out;
}

/**
 * Whether an exception is the engine running out of stack: a RangeError in V8 and JavaScriptCore
 * ("Maximum call stack size exceeded"), an InternalError in SpiderMonkey (Firefox: "too much
 * recursion"), which is no RangeError.
 */
export function isStackOverflow(error: unknown): boolean {
  if (error instanceof RangeError) return /call stack/i.test(error.message);
  return error instanceof Error && error.name === "InternalError" && /too much recursion/i.test(error.message);
}

/**
 * Whether an exception is the engine running out of room rather than a fault: its stack
 * (isStackOverflow), or the longest string or array it can make ("Invalid string length",
 * "Invalid array length": RangeErrors in V8 and SpiderMonkey; "Out of memory" in JavaScriptCore;
 * "allocation size overflow", an InternalError, in SpiderMonkey). Any other RangeError is a bug
 * or an input refused for what it is, not for its size.
 */
export function isResourceExhaustion(error: unknown): boolean {
  if (isStackOverflow(error)) return true;
  if (error instanceof RangeError) return /^(invalid (string|array) length|out of memory)$/i.test(error.message);
  return error instanceof Error && error.name === "InternalError" && /allocation size overflow/i.test(error.message);
}
