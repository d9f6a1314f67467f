/**
 * A target is a provider's strict mode: what its wire schemas may contain and
 * what it limits. Each fact records where it came from and when it was read,
 * so a profile can be updated when a provider changes.
 */
import type { Presence } from "../ir/nodes.js";

export type TargetName = "openai" | "anthropic" | "gemini";

export interface Fact {
  readonly fact: string;
  readonly source: string;
  /** ISO date the source was read. */
  readonly read: string;
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
}

/** Per-request caps that count across every strict tool in one request. */
export interface ToolSetLimits {
  readonly maxStrictTools?: number;
  readonly maxOptionalParameters?: number;
  readonly maxUnionParameters?: number;
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
  /** How optional members travel by default. */
  readonly presence: Presence;
  /** Whether `pattern` may be any RE2 pattern, or only simple ones. */
  readonly patterns: "any" | "simple";
  /** Whether array `minItems` is limited to 0 or 1. */
  readonly minItemsAtMostOne: boolean;
  readonly limits: TargetLimits;
  readonly toolSet: ToolSetLimits;
  readonly facts: readonly Fact[];
}
