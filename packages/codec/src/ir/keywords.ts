/** Keyword vocabularies the builder sorts a schema's members into. */

/** Keywords that never constrain a value. */
export const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "id",
  "$comment",
  "$defs",
  "definitions",
  "$anchor",
  "$vocabulary",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "$dynamicAnchor",
  "$recursiveAnchor",
]);

/** Keywords that decide the wire shape rather than narrow the values. */
export const SHAPE_KEYWORDS = new Set([
  "type",
  "properties",
  "additionalProperties",
  "patternProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
]);

export const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format"] as const;
export const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] as const;
export const ARRAY_KEYWORDS = [
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedItems",
] as const;
export const OBJECT_KEYWORDS = [
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "unevaluatedProperties",
] as const;
/** Keywords that apply to any type and only narrow. */
export const GENERAL_KEYWORDS = ["not", "if", "then", "else", "enum", "const"] as const;

/** Every keyword that constrains, for relaxation bookkeeping of a node that travels as any JSON. */
export const CONSTRAINT_KEYWORDS: readonly string[] = [
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...OBJECT_KEYWORDS,
  ...GENERAL_KEYWORDS,
  "required",
  "patternProperties",
  "prefixItems",
];

/** Shape keywords that make a typeless schema more than "any value". */
export const OBJECT_SHAPE = ["properties", "additionalProperties", "patternProperties"] as const;
export const ARRAY_SHAPE = ["items", "prefixItems", "additionalItems"] as const;
