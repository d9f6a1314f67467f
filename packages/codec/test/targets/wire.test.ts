/**
 * Every fixture on every target, in every presence mode, factored or not:
 * each valid value round-trips exactly, and each emitted wire schema is held
 * to the provider's documented subset and limits by a checker written here,
 * independently of the codec's own limit code.
 */
import { type CompileOptions, compileCodec, TARGET_NAMES } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { schemaFixtures } from "../../testkit/fixtures.js";
import { canonical } from "../../testkit/same.js";
import { STRICT_RULES as CHECKERS } from "../../testkit/strict-rules.js";

type Json = Record<string, unknown>;

const fixtures = schemaFixtures();
const MODES: readonly CompileOptions[] = [
  { presence: "tagged" },
  { presence: "compact" },
  { presence: "tagged", factored: true },
  { presence: "compact", factored: true },
];

// ---- the sweep ------------------------------------------------------------

describe("fixture corpus on every target", () => {
  it("covers the targets and the corpus", () => {
    expect(TARGET_NAMES).toEqual(["openai", "openai-finetuned", "anthropic", "gemini"]);
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
  });

  for (const fixture of fixtures) {
    for (const target of TARGET_NAMES) {
      it(`${fixture.name} on ${target}: round-trips, and the wire keeps to the documented subset`, () => {
        for (const mode of MODES) {
          const options = { ...fixture.options, ...mode, target, name: "fixture" };
          const compiled = compileCodec(fixture.schema, options);
          if (!compiled.ok) throw new Error(`${JSON.stringify(mode)}: ${JSON.stringify(compiled.error)}`);
          const codec = compiled.value;
          expect(CHECKERS[target](codec.wire), JSON.stringify(mode)).toEqual([]);
          for (const value of fixture.valid) {
            const encoded = codec.encode(value);
            if (!encoded.ok) throw new Error(`${JSON.stringify(mode)} encode: ${JSON.stringify(encoded.error)}`);
            const decoded = codec.decode(JSON.stringify(encoded.value));
            if (!decoded.ok) throw new Error(`${JSON.stringify(mode)} decode: ${JSON.stringify(decoded.error)}`);
            expect(canonical(decoded.value)).toBe(canonical(value));
          }
        }
      });
    }
  }
});

describe("the wire checkers", () => {
  it("catch what each provider refuses", () => {
    const open = { type: "object", properties: { a: { type: "string" } }, required: [] };
    const wire = (args: Json, defs?: Json): Json => ({
      type: "object",
      properties: { arguments: args },
      required: ["arguments"],
      additionalProperties: false,
      ...(defs ? { $defs: defs } : {}),
    });
    expect(CHECKERS.openai(wire(open))).toEqual([
      "/properties/arguments: object not closed",
      "/properties/arguments: not every property required",
    ]);
    const described = { description: "d", $ref: "#/$defs/x" };
    expect(CHECKERS.gemini(wire(described, { x: { type: "string", const: "c" } }))).toEqual([
      "/properties/arguments: keywords beside $ref",
      "/$defs/x: keyword const",
    ]);
    const recursive = { x: { type: "array", items: { $ref: "#/$defs/x" } } };
    expect(CHECKERS.anthropic(wire({ $ref: "#/$defs/x" }, recursive))).toEqual(["recursive $defs"]);
    expect(CHECKERS.anthropic(wire({ type: "array", items: { type: "string" }, minItems: 2 }))).toEqual([
      "/properties/arguments: minItems 2",
    ]);
  });
});
