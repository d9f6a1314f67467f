import type { TargetProfile } from "./profile.js";

const DOCS = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
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
  limits: {
    maxProperties: 5000,
    maxNesting: 10,
    maxStringBudget: 120_000,
    maxEnumValues: 1000,
    largeEnumThreshold: 250,
    maxLargeEnumChars: 15_000,
  },
  toolSet: {},
  facts: [
    {
      fact: "root is an object, not anyOf; every property required; additionalProperties false",
      source: DOCS,
      read: READ,
    },
    {
      fact: "supported: string, number, boolean, integer, object, array, enum, anyOf, $defs/$ref with recursion",
      source: DOCS,
      read: READ,
    },
    {
      fact: "string pattern and format in {date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid}",
      source: DOCS,
      read: READ,
    },
    {
      fact: "number multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum; array minItems, maxItems",
      source: DOCS,
      read: READ,
    },
    {
      fact: "not supported: allOf, not, dependentRequired, dependentSchemas, if/then/else, patternProperties",
      source: DOCS,
      read: READ,
    },
    {
      fact: "limits: 5,000 properties, 10 nesting levels, 120,000 characters of names and values, 1,000 enum values, 15,000 characters for a string enum over 250 values",
      source: DOCS,
      read: READ,
    },
  ],
};
