/**
 * The fixture corpus: every schema compiles, every valid value round-trips
 * exactly (in every presence mode, factored or not), every invalid value is
 * refused by encode, and every hostile text is refused by decode with its code.
 */
import { type CompileOptions, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { hostileCases, schemaFixtures } from "../testkit/fixtures.js";
import { expectRefused } from "../testkit/refusals.js";
import { canonical } from "../testkit/same.js";

const fixtures = schemaFixtures();
const MODES: readonly CompileOptions[] = [
  {},
  { presence: "compact" },
  { factored: true },
  { presence: "compact", factored: true },
];

describe("fixture corpus", () => {
  it("is large enough to mean something", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(20);
    expect(fixtures.reduce((n, f) => n + f.valid.length, 0)).toBeGreaterThanOrEqual(100);
    expect(fixtures.reduce((n, f) => n + f.invalid.length, 0)).toBeGreaterThanOrEqual(80);
    expect(fixtures.reduce((n, f) => n + hostileCases(f.name).length, 0)).toBeGreaterThanOrEqual(50);
  });

  for (const fixture of fixtures) {
    describe(fixture.name, () => {
      for (const mode of MODES) {
        it(`round-trips every valid value (${JSON.stringify(mode)})`, () => {
          const compiled = compileCodec(fixture.schema, { ...fixture.options, ...mode, name: "fixture" });
          if (!compiled.ok) throw new Error(`${fixture.name} does not compile: ${JSON.stringify(compiled.error)}`);
          const codec = compiled.value;
          for (const value of fixture.valid) {
            const encoded = codec.encode(value);
            if (!encoded.ok)
              throw new Error(`encode refused ${JSON.stringify(value)}: ${JSON.stringify(encoded.error)}`);
            const decoded = codec.decode(JSON.stringify(encoded.value));
            if (!decoded.ok)
              throw new Error(`decode refused ${JSON.stringify(encoded.value)}: ${JSON.stringify(decoded.error)}`);
            expect(canonical(decoded.value)).toBe(canonical(value));
          }
        });
      }

      it("refuses every invalid value at encode", () => {
        const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture" });
        if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
        for (const { value, why } of fixture.invalid) {
          const encoded = compiled.value.encode(value);
          expect(encoded.ok, `${why}: ${JSON.stringify(value)}`).toBe(false);
          if (!encoded.ok) expect(["invalid-value", "undeclared-member"]).toContain(encoded.error.code);
        }
      });

      const hostile = hostileCases(fixture.name);
      if (hostile.length > 0) {
        it("refuses every hostile text with its code", () => {
          const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture" });
          if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
          expectRefused(compiled.value, hostile);
        });
      }
    });
  }
});
