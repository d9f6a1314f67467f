/**
 * The keyword keep/relax decisions of the builder: for a target, whether a
 * keyword travels on the wire or is relaxed (enforced by the final validation),
 * and the refusals every schema position shares. Pure: no builder state.
 */
import { jsonTypeOf } from "../json.js";
import type { TargetProfile } from "../targets/profile.js";
import { patternProblem } from "../validate/regexp.js";
import { SchemaRefusal } from "./schema-refusal.js";

/** Why a keyword the target cannot take is relaxed. */
export function notTakenReason(target: TargetProfile): string {
  return `the ${target.name} target does not take it: enforced by the final validation`;
}

/** Dynamic references cannot be followed statically: refused wherever they stand. */
export function refuseDynamicRef(s: Record<string, unknown>, at: string): void {
  if (s.$dynamicRef !== undefined || s.$recursiveRef !== undefined) {
    throw new SchemaRefusal("dynamic-ref", at, "dynamic references ($dynamicRef, $recursiveRef) are not supported");
  }
}

/** A pattern that cannot run in linear time is refused: neither the wire nor the validator may run it. */
export function refuseUnsafePattern(pattern: unknown, at: string): void {
  if (typeof pattern !== "string") return;
  const problem = patternProblem(pattern);
  if (problem !== undefined) {
    throw new SchemaRefusal(
      "unsafe-pattern",
      at,
      `pattern ${JSON.stringify(pattern)} cannot run in linear time: ${problem}`,
    );
  }
}

/** Anthropic-style "simple" patterns: no backreferences, lookaround or word boundaries. */
export function isSimplePattern(pattern: string): boolean {
  return !/\\[1-9bB]|\(\?[=!<]/.test(pattern);
}

/** Whether a string keyword (minLength, maxLength, pattern, format) travels with this value on the target. */
export function keepsStringKeyword(target: TargetProfile, keyword: string, value: unknown): boolean {
  if (!target.keeps.string.has(keyword)) return false;
  if (keyword === "format") return target.formats.has(String(value));
  if (keyword === "pattern") return target.patterns === "any" || isSimplePattern(String(value));
  return true;
}

/** Whether a number keyword travels with this value on the target. */
export function keepsNumberKeyword(target: TargetProfile, keyword: string, value: unknown): boolean {
  return target.keeps.number.has(keyword) && typeof value === "number";
}

/** Whether minItems/maxItems travels with this value on the target. */
export function keepsArrayKeyword(target: TargetProfile, keyword: string, value: number): boolean {
  return target.keeps.array.has(keyword) && !(keyword === "minItems" && target.minItemsAtMostOne && value > 1);
}

/** Keywords of a propertyNames schema that the wire's key schema can carry. */
export const KEY_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "pattern",
  "format",
  "enum",
  "const",
  "type",
  "minLength",
  "maxLength",
  "description",
]);

/**
 * `enum` and `const` a target cannot spell: the spelling pass (targets/spelling.ts)
 * leaves them off the wire, so they are relaxed here, where plan.relaxed is kept.
 */
export function unspelledConstants(target: TargetProfile, s: Record<string, unknown>): ("enum" | "const")[] {
  const spelling = target.spelling;
  const spellable = (v: unknown): boolean => {
    const type = jsonTypeOf(v);
    return type !== undefined && spelling.enumTypes.has(type);
  };
  const out: ("enum" | "const")[] = [];
  if (s.const !== undefined && !spelling.constKeyword && !spellable(s.const)) out.push("const");
  if (Array.isArray(s.enum) && !s.enum.every(spellable)) out.push("enum");
  return out;
}
