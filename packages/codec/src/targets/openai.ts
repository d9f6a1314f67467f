import type { TargetProfile } from "./profile.js";

/** OpenAI's own page; it could not be read from here, so each fact names what was read instead. */
const DOCS = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
/** A dated restatement of that page (February 2026 baseline), read in its place. */
const RESTATED = "https://jsonschemaprofiles.unitvectorylabs.com/schemas/openai";
const SDK = "https://github.com/openai/openai-python/blob/main/src/openai/lib/_pydantic.py";
const READ = "2026-12-02";

export const openai: TargetProfile = {
  name: "openai",
  keeps: {
    string: new Set(["pattern", "format"]),
    number: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
    array: new Set(["minItems", "maxItems"]),
    object: new Set([]),
  },
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  recursion: true,
  presence: "tagged",
  patterns: "any",
  minItemsAtMostOne: false,
  distinctFirstKeys: true,
  limits: {
    maxProperties: 5000,
    maxNesting: 10,
    maxStringBudget: 120_000,
    maxEnumValues: 1000,
    largeEnumThreshold: 250,
    maxLargeEnumChars: 15_000,
  },
  toolSet: {},
  dialect: { refSiblings: "wrap", constKeyword: true, enumTypes: new Set(["string", "number", "boolean", "null"]) },
  facts: [
    {
      fact: `root is an object, not anyOf; every property required; additionalProperties false on every object (restates ${DOCS}, not readable from here)`,
      source: RESTATED,
      read: READ,
    },
    {
      fact: "supported: string, number, boolean, integer, object, array, enum, anyOf (not at the root); $defs/$ref with recursion is carried over from the earlier profile and not re-verified",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "string pattern and format in {date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid}; minLength and maxLength are not listed",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "number multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum; array minItems, maxItems",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "not supported: allOf, not, dependentRequired, dependentSchemas, if/then/else; patternProperties is listed only for fine-tuned models, and strictwire never emits it",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "limits: 5,000 object properties, 10 levels of object nesting, 120,000 characters across property names, definition names, enum values and const values, 1,000 enum values, 15,000 characters for one string enum of more than 250 values",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "const is accepted: inferred from the character limit, which counts const values; not stated as a keyword in what was read",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "a $ref may not have sibling keywords such as description: OpenAI's SDK inlines such references (\"we can't use $refs if there are also other properties defined\"); not verified against the page itself",
      source: SDK,
      read: READ,
    },
    {
      fact: "default is refused on some deployments: not verified from here; strictwire never emits it",
      source: DOCS,
      read: READ,
    },
  ],
};
