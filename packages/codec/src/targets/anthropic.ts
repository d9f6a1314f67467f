import type { TargetProfile } from "./profile.js";

const STRICT = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use";
const SDK = "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/lib/_parse/_transform.py";
const TS_SDK = "https://github.com/anthropics/anthropic-sdk-typescript/blob/main/src/lib/transform-json-schema.ts";
/** A library's restatement of the limitations section, which links to DOCS. */
const RESTATED = "https://hexdocs.pm/lang_schema/0.7.1/LangSchema.Converter.Anthropic.html";
/** Public reports of "The compiled grammar is too large", with the schemas' sizes. */
const GRAMMAR_ONE_SCHEMA = "https://github.com/pome-sh/digital-twins/pull/527";
const GRAMMAR_TOOL_SET = "https://github.com/alphaXiv/agents/pull/49";
const GRAMMAR_UNDOCUMENTED = "https://github.com/anthropics/anthropic-sdk-python/issues/1185";
const READ = "2026-12-02";
const REREAD = "2026-12-04";

export const anthropic: TargetProfile = {
  name: "anthropic",
  keeps: {
    // pattern: Anthropic's own SDKs move it into the description instead of sending it.
    string: new Set(["format"]),
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
  // const travels as a one-value enum: both SDKs send enum, the Python one does not send const.
  spelling: { refSiblings: "inline", constKeyword: false, enumTypes: new Set(["string", "number", "boolean", "null"]) },
  facts: [
    {
      rule: "strict tools",
      fact: "strict: true on a tool constrains its input to input_schema; the supported subset is the structured-outputs JSON Schema limitations",
      source: STRICT,
      read: READ,
      kind: "documented",
    },
    {
      rule: "optional members",
      fact: "optional properties allowed (absent and null stay distinct, so presence tags are unnecessary); additionalProperties must be false",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "supported types",
      fact: "supported: object, array, string, number, integer, boolean, null; enum of primitives; const; anyOf; allOf except with $ref; local $ref/$defs",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "formats",
      fact: "formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
      source: SDK,
      read: READ,
      kind: "sdk",
    },
    {
      rule: "pattern",
      fact: "pattern is restated as supported without backreferences, lookaround or \\b, but both of Anthropic's SDKs move it into the description rather than send it: strictwire follows the SDKs (relaxed, enforced by the final validation)",
      source: SDK,
      read: REREAD,
      kind: "sdk",
    },
    {
      rule: "const",
      fact: "the Python SDK moves const into the description, the TypeScript SDK sends it, and both send enum: strictwire sends a constant as a one-value enum (a structured constant is relaxed)",
      source: TS_SDK,
      read: REREAD,
      kind: "sdk",
    },
    {
      rule: "array keywords",
      fact: "array minItems only as 0 or 1; other array constraints are not taken",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "not supported",
      fact: "not supported: recursive schemas, minimum/maximum/multipleOf, minLength/maxLength, maxItems and other array constraints",
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "per-request caps",
      fact: 'per request: at most 20 strict tools, 24 optional parameters across all strict schemas, 16 parameters with union types (anyOf or a type array; ["string","null"] counts)',
      source: RESTATED,
      read: READ,
      kind: "restated",
    },
    {
      rule: "union cap error",
      fact: 'the union cap is also in the API\'s own error text quoted in public code ("too many parameters with union types ... limit: 16")',
      source: RESTATED,
      read: READ,
      kind: "observed-error",
    },
    {
      rule: "grammar size",
      fact: 'a request whose strict schemas compile to too large a grammar is refused ("The compiled grammar is too large, which would cause performance issues"); no figure is published',
      source: GRAMMAR_UNDOCUMENTED,
      read: REREAD,
      kind: "observed-error",
    },
    {
      rule: "grammar size: one schema",
      fact: "a single 7,354-byte schema was refused as too large a grammar, on two models",
      source: GRAMMAR_ONE_SCHEMA,
      read: REREAD,
      kind: "observed-error",
    },
    {
      rule: "grammar size: tool set",
      fact: "a 13-tool set was refused as too large a grammar; removing tools was the only way under",
      source: GRAMMAR_TOOL_SET,
      read: REREAD,
      kind: "observed-error",
    },
    {
      rule: "grammar size estimate",
      fact: "strictwire check gives an advisory estimate of a set's grammar size (see targets/grammar.ts); a heuristic calibrated on the two cases above, never a refusal",
      source: GRAMMAR_ONE_SCHEMA,
      read: REREAD,
      kind: "strictwire",
    },
  ],
};
