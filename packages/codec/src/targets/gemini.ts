import type { TargetProfile } from "./profile.js";

/** The API definition: responseJsonSchema's keyword list and rules, word for word in every SDK. */
const API =
  "https://github.com/googleapis/googleapis/blob/master/google/ai/generativelanguage/v1beta/generative_service.proto";
const DECLARATION = "https://ai.google.dev/api/caching#FunctionDeclaration";
const GUIDE = "https://ai.google.dev/gemini-api/docs/structured-output";
const READ = "2026-12-02";

/** Ours, not Google's: past this the schema is too large to be a reasonable tool, and Gemini may call it too complex. */
const SCHEMA_CHARS_GUARD = 50_000;

export const gemini: TargetProfile = {
  name: "gemini",
  keeps: {
    string: new Set(["format"]),
    number: new Set(["minimum", "maximum"]),
    array: new Set(["minItems", "maxItems", "prefixItems"]),
    object: new Set([]),
  },
  formats: new Set(["date-time", "date", "time"]),
  // Cycles are only "unrolled to a limited degree" and only through non-required members,
  // so a deep value could not be written: recursion travels as JSON text instead.
  recursion: false,
  presence: "native",
  patterns: "any",
  minItemsAtMostOne: false,
  distinctFirstKeys: false,
  limits: { maxSchemaChars: SCHEMA_CHARS_GUARD },
  toolSet: {},
  spelling: { refSiblings: "wrap", constKeyword: false, enumTypes: new Set(["string", "number"]) },
  facts: [
    {
      rule: "function declaration",
      fact: "a function declaration takes parametersJsonSchema, a JSON Schema describing an object of the parameters (its example closes the object with additionalProperties false)",
      source: DECLARATION,
      read: READ,
      kind: "documented",
    },
    {
      rule: "supported keywords",
      fact: "supported keywords: $id, $defs, $ref, $anchor, type, format, title, description, enum (strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (as anyOf), properties, additionalProperties, required, propertyOrdering; others (const, pattern, minLength, exclusiveMinimum, multipleOf...) are not supported",
      source: API,
      read: READ,
      kind: "documented",
    },
    {
      rule: "recursion",
      fact: "cyclic references are unrolled to a limited degree and may only be used within non-required properties (nullable is not enough)",
      source: API,
      read: READ,
      kind: "documented",
    },
    {
      rule: "$ref siblings",
      fact: "if $ref is set on a subschema, no other keyword except those starting with $ may be set",
      source: API,
      read: READ,
      kind: "documented",
    },
    {
      rule: "formats",
      fact: 'format values: the guide is quoted as naming "such as date-time, date, time"; the guide itself was not readable from here, and other formats are relaxed',
      source: GUIDE,
      read: READ,
      kind: "restated",
    },
    {
      rule: "size guard",
      fact: `no numeric caps found in what was read; very large or deeply nested schemas are reported refused as too complex (not verified from here). strictwire's guard of ${SCHEMA_CHARS_GUARD} characters of wire schema is its own choice`,
      source: GUIDE,
      read: READ,
      kind: "strictwire",
    },
    {
      rule: "parametersJsonSchema",
      fact: "parametersJsonSchema is taken to accept the keywords listed for responseJsonSchema: an inference, the declaration itself lists none",
      source: DECLARATION,
      read: READ,
      kind: "inferred",
    },
  ],
};
