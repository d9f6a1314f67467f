/** The builder's keyword groups, derived from the keyword registry (schema/keywords.ts), in registry order. */
import { type Applies, keywordsWhere } from "../schema/keywords.js";

const narrowing = (applies: Applies): string[] =>
  keywordsWhere((spec, k) => spec.role === "narrow" && spec.applies === applies && k !== "required");

/** Keywords that never constrain a value. */
export const ANNOTATIONS: ReadonlySet<string> = new Set(keywordsWhere((spec) => spec.role === "annotate"));

/** Keywords that decide the wire shape rather than narrow the values. */
export const SHAPE_KEYWORDS: ReadonlySet<string> = new Set(keywordsWhere((spec) => spec.role === "shape"));

export const STRING_KEYWORDS: readonly string[] = narrowing("string");
export const NUMBER_KEYWORDS: readonly string[] = narrowing("number");
export const ARRAY_KEYWORDS: readonly string[] = narrowing("array");
/** Object keywords that only narrow (`required` is carried by the wire: a member is optional or not). */
export const OBJECT_KEYWORDS: readonly string[] = narrowing("object");
/** Keywords that apply to any type and only narrow. */
export const GENERAL_KEYWORDS: readonly string[] = narrowing("any");

/** Every keyword that constrains, for relaxation bookkeeping of a node that travels as any JSON. */
export const CONSTRAINT_KEYWORDS: readonly string[] = keywordsWhere(
  (spec) => spec.role === "narrow" || spec.alsoNarrows === true,
);

/** Shape keywords that make a typeless schema more than "any value". */
export const OBJECT_SHAPE: readonly string[] = keywordsWhere(
  (spec) => spec.role === "shape" && spec.applies === "object",
);
export const ARRAY_SHAPE: readonly string[] = keywordsWhere(
  (spec) => spec.role === "shape" && spec.applies === "array",
);
