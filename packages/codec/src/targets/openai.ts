import type { Fact, TargetProfile } from "./profile.js";

/** OpenAI's own page (moved from platform.openai.com); not readable from here, so each fact names what was read instead. */
const DOCS = "https://developers.openai.com/api/docs/guides/structured-outputs";
/** A dated restatement of that page (February 2026 baseline), read in its place. */
const RESTATED = "https://jsonschemaprofiles.unitvectorylabs.com/schemas/openai";
const SDK = "https://github.com/openai/openai-python/blob/main/src/openai/lib/_pydantic.py";
/** A public list of OpenAI's schema refusals with the API's error texts, the first-key rule among them. */
const FIRST_KEY_THREAD = "https://github.com/ReedGraff/schemic/blob/main/.vscode/INSTRUCTIONS.md";
const READ = "2026-12-02";
const REREAD = "2026-12-04";

/** What every OpenAI model's strict mode takes: shared by the fine-tuned profile. */
export const OPENAI_FACTS: readonly Fact[] = [
  {
    rule: "root and objects",
    fact: `root is an object, not anyOf; every property required; additionalProperties false on every object (restates ${DOCS}, not readable from here)`,
    source: RESTATED,
    read: READ,
    kind: "restated",
  },
  {
    rule: "supported types",
    fact: "supported: string, number, boolean, integer, object, array, enum, anyOf (not at the root); $defs/$ref; recursion is carried over from the earlier profile",
    source: RESTATED,
    read: READ,
    kind: "restated",
  },
  {
    rule: "not supported",
    fact: "not supported: allOf, not, dependentRequired, dependentSchemas, if/then/else; strictwire never emits them",
    source: RESTATED,
    read: READ,
    kind: "restated",
  },
  {
    rule: "per-schema limits",
    fact: "limits: 5,000 object properties, 10 levels of object nesting, 120,000 characters across property names, definition names, enum values and const values, 1,000 enum values, 15,000 characters for one string enum of more than 250 values",
    source: RESTATED,
    read: READ,
    kind: "restated",
  },
  {
    rule: "const",
    fact: "const is accepted: inferred from the character limit, which counts const values; not stated as a keyword in what was read",
    source: RESTATED,
    read: READ,
    kind: "inferred",
  },
  {
    rule: "$ref siblings",
    fact: "a $ref may not have sibling keywords such as description: OpenAI's SDK inlines such references (\"we can't use $refs if there are also other properties defined\")",
    source: SDK,
    read: READ,
    kind: "sdk",
  },
  {
    rule: "default",
    fact: "default is refused (\"'default' is not permitted\"); strictwire never emits it",
    source: FIRST_KEY_THREAD,
    read: REREAD,
    kind: "observed-error",
  },
  {
    rule: "anyOf first key",
    fact: "the object branches of an anyOf must differ at their first member, the first of properties and (by this write-up) of required: \"Invalid schema: Objects provided via 'anyOf' must not share identical first keys. Consider adding a discriminator key or rearranging the properties to ensure the first key is unique.\" Not in the documentation. strictwire reorders members (a discriminating constant first, else a name no other branch leads with) or writes the union in its tag form, whose first member is a constant; branches that share a first member held to differing constants (presence tags) are taken as passing",
    source: FIRST_KEY_THREAD,
    read: REREAD,
    kind: "observed-error",
  },
];

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
  spelling: { refSiblings: "wrap", constKeyword: true, enumTypes: new Set(["string", "number", "boolean", "null"]) },
  facts: [
    ...OPENAI_FACTS,
    {
      rule: "string keywords",
      fact: "string pattern and format in {date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid}; minLength and maxLength are not listed",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "number and array keywords",
      fact: "number multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum; array minItems, maxItems",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "patternProperties",
      fact: "patternProperties is listed as unsupported for fine-tuned models; strictwire never emits it",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
  ],
};
