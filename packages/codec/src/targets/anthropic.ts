import type { TargetProfile } from "./profile.js";

const DOCS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations";
const STRICT = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use";
const SDK = "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/lib/_parse/_transform.py";
/** A library's restatement of the limitations section, which links to DOCS. */
const RESTATED = "https://hexdocs.pm/lang_schema/0.7.1/LangSchema.Converter.Anthropic.html";
const READ = "2026-12-02";

export const anthropic: TargetProfile = {
  name: "anthropic",
  keeps: {
    string: new Set(["pattern", "format"]),
    number: new Set([]),
    array: new Set(["minItems"]),
    object: new Set([]),
  },
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
  recursion: false,
  presence: "native",
  patterns: "simple",
  minItemsAtMostOne: true,
  distinctFirstKeys: false,
  limits: {},
  toolSet: { maxStrictTools: 20, maxOptionalParameters: 24, maxUnionParameters: 16 },
  // Anthropic's SDK keeps a bare $ref and drops what stands beside it. Inlining a definition's
  // only use keeps the description without spending one of the 16 union parameters on an anyOf.
  dialect: { refSiblings: "inline", constKeyword: true, enumTypes: new Set(["string", "number", "boolean", "null"]) },
  facts: [
    {
      fact: "strict: true on a tool constrains its input to input_schema; the supported subset is the structured-outputs JSON Schema limitations",
      source: STRICT,
      read: READ,
    },
    {
      fact: "optional properties allowed (absent and null stay distinct, so presence tags are unnecessary); additionalProperties must be false",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "supported: object, array, string, number, integer, boolean, null; enum of primitives; const; anyOf; allOf except with $ref; local $ref/$defs",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
      source: SDK,
      read: READ,
    },
    {
      fact: "minItems 0 or 1 only; pattern without backreferences, lookaround or \\b",
      source: RESTATED,
      read: READ,
    },
    {
      fact: "not supported: recursive schemas, minimum/maximum/multipleOf, minLength/maxLength, maxItems and other array constraints",
      source: RESTATED,
      read: READ,
    },
    {
      fact: 'per request: at most 20 strict tools, 24 optional parameters across all strict schemas, 16 parameters with union types (anyOf or a type array; ["string","null"] counts). The union cap is confirmed by the API\'s own error text quoted in public code ("too many parameters with union types ... limit: 16")',
      source: RESTATED,
      read: READ,
    },
    {
      fact: "a request whose strict schemas compile to too large a grammar is refused; no figure is published, so no guard is set",
      source: DOCS,
      read: READ,
    },
  ],
};
