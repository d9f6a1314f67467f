/**
 * A target is a provider's strict mode: what its wire schemas may contain and
 * what it limits. Each fact records where it came from and when it was read,
 * so a profile can be updated when a provider changes.
 */
import type { JsonObject, JsonType } from "../json.js";

export type TargetName = "openai" | "openai-finetuned" | "anthropic" | "gemini";

/** Every target, by name: kept here, apart from the tables, so that loading a bundle reads no target table. */
export const TARGET_NAMES: readonly TargetName[] = ["openai", "openai-finetuned", "anthropic", "gemini"];

/**
 * How a fact is known. None has been confirmed by a live request from this project.
 * - documented: the provider's own documentation or API definition says it;
 * - restated: a third party's dated restatement of the provider's documentation, read in its place;
 * - sdk: the provider's own SDK code does it;
 * - observed-error: the provider's error text, as quoted in a public thread or in public code;
 * - inferred: concluded from other facts, not stated anywhere read;
 * - strictwire: strictwire's own choice where the provider says nothing.
 */
export type FactKind = "documented" | "restated" | "sdk" | "observed-error" | "inferred" | "strictwire";

export const FACT_KINDS: readonly FactKind[] = [
  "documented",
  "restated",
  "sdk",
  "observed-error",
  "inferred",
  "strictwire",
];

export interface Fact {
  /** What the rule is about, in a word or two (the rows of docs/targets.md). */
  readonly rule: string;
  readonly fact: string;
  /** Where it was read: a page, an SDK file, or the public thread quoting an error. */
  readonly source: string;
  /** ISO date the source was read. */
  readonly read: string;
  readonly kind: FactKind;
}

export interface TargetLimits {
  /** Object properties across the whole schema. */
  readonly maxProperties?: number;
  /** Levels of object nesting. */
  readonly maxNesting?: number;
  /** Characters across property names, definition names, enum and const values. */
  readonly maxStringBudget?: number;
  /** Enum values across the schema. */
  readonly maxEnumValues?: number;
  /** For a string enum of more than `largeEnumThreshold` values, its total characters. */
  readonly largeEnumThreshold?: number;
  readonly maxLargeEnumChars?: number;
  /** Characters of the whole wire schema as JSON text: a guard where the provider publishes no figure. */
  readonly maxSchemaChars?: number;
}

/** Per-request caps that count across every strict tool in one request. */
export interface ToolSetLimits {
  readonly maxStrictTools?: number;
  /** Object members left out of `required`, across every schema. */
  readonly maxOptionalParameters?: number;
  /** Schemas with `anyOf` or a list of types, across every schema. */
  readonly maxUnionParameters?: number;
}

/** How the wire is spelt for the target, beyond which keywords it keeps (targets/spelling.ts). */
export interface Spelling {
  /**
   * What to do with keywords (annotations) beside `$ref`, which these targets refuse:
   * "wrap" moves the reference into a one-branch `anyOf`; "inline" writes the definition in place
   * where that is its only use, and otherwise drops the annotations.
   */
  readonly refSiblings: "wrap" | "inline";
  /** Whether `const` is understood; if not, a string or number constant travels as a one-value `enum`. */
  readonly constKeyword: boolean;
  /** JSON types `enum` values may have. */
  readonly enumTypes: ReadonlySet<JsonType>;
}

export interface TargetProfile {
  readonly name: TargetName;
  /** Keywords kept on the wire, by the JSON type they constrain. */
  readonly keeps: {
    readonly string: ReadonlySet<string>;
    readonly number: ReadonlySet<string>;
    readonly array: ReadonlySet<string>;
    readonly object: ReadonlySet<string>;
  };
  /** `format` values the target accepts; others are relaxed. */
  readonly formats: ReadonlySet<string>;
  /** Whether wire `$defs` may be recursive. */
  readonly recursion: boolean;
  /**
   * How optional members travel by default. "native" members are left out of
   * `required`; `toolSet.maxOptionalParameters`, when set, caps how many per schema.
   * "tagged": the target has no native optional members, and the `presence`
   * compile option spells absence (a tag, or null).
   */
  readonly presence: "native" | "tagged";
  /** Whether `pattern` may be any RE2 pattern, or only simple ones. */
  readonly patterns: "any" | "simple";
  /** Whether array `minItems` is limited to 0 or 1. */
  readonly minItemsAtMostOne: boolean;
  /**
   * Whether the object branches of an `anyOf` must differ at their first member
   * (OpenAI's undocumented first-key rule): members are reordered to meet it (targets/first-key.ts).
   */
  readonly distinctFirstKeys: boolean;
  /** Per schema: checked when a tool compiles. */
  readonly limits: TargetLimits;
  /** Per request: checked across a tool set; a schema that alone breaks one is refused at compile. */
  readonly toolSet: ToolSetLimits;
  readonly spelling: Spelling;
  readonly facts: readonly Fact[];
}

/**
 * What the targets, and the provider APIs' tool definitions, read of a
 * compiled tool. A bundle is one (the bundle format sits above the targets
 * and is not imported here): pass a bundle.
 */
export interface CompiledTool {
  readonly name: string;
  readonly description?: string;
  /** The strict schema the model is given. */
  readonly wire: JsonObject;
  readonly options: { readonly target: TargetName };
  /** Present when the tool is sent with strict mode off (`bundle.nonStrict`). */
  readonly nonStrict?: { readonly limit: string; readonly reason: string };
}
