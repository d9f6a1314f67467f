/**
 * The generated decoder against the interpreted walk it is held to: the same
 * result, value or error (code, path, message, feedback), on the fixtures'
 * values and hostile texts, on generated schemas and values, and on wire
 * values mutated the ways a model gets them wrong.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { anyJson, runs, schemaArb, valueArb } from "../../testkit/arbitraries.js";
import { hostileCases, rawInput, schemaFixtures } from "../../testkit/fixtures.js";
import { canonical } from "../../testkit/same.js";

/**
 * Both paths, for one text. Values are compared by their canonical JSON (a
 * member named "constructor" would make a matcher compare objects by identity).
 */
function agree(codec: Codec, text: string, label: string): void {
  const generated = codec.decode(text);
  const interpreted = codec.decode(text, { interpreted: true });
  if (generated.ok && interpreted.ok) expect(canonical(generated.value), label).toBe(canonical(interpreted.value));
  else expect(generated, label).toStrictEqual(interpreted);
}

/** Wire values a model might write instead: members dropped, renamed, retyped, tags and entries broken. */
function mutations(wire: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, rebuild: (v: unknown) => unknown, depth: number): void => {
    if (depth > 6) return;
    out.push(rebuild(null), rebuild("x"), rebuild(1.5), rebuild(-0), rebuild([]), rebuild({}));
    if (Array.isArray(value)) {
      out.push(rebuild([...value, ...value]), rebuild(value.slice(1)));
      for (const [i, item] of value.entries()) {
        walk(item, (v) => rebuild(value.map((x, j) => (j === i ? v : x))), depth + 1);
      }
    } else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const { [key]: dropped, ...rest } = record;
        out.push(rebuild(rest), rebuild({ ...rest, [`${key}_`]: dropped }), rebuild({ ...record, extra: true }));
        if (key === "state")
          out.push(rebuild({ ...record, state: "present" }), rebuild({ ...record, state: "absent" }));
        walk(record[key], (v) => rebuild({ ...record, [key]: v }), depth + 1);
      }
    }
  };
  walk(wire, (v) => v, 0);
  return out;
}

describe("the generated decoder gives what the interpreted walk gives", () => {
  for (const fixture of schemaFixtures()) {
    for (const options of [{}, { tags: "minimal" as const }, { presence: "compact" as const }]) {
      test(`${fixture.name} ${JSON.stringify(options)}: values, hostile texts and mutations`, () => {
        const compiled = compileCodec(fixture.schema, { name: "t", ...(fixture.options ?? {}), ...options });
        if (!compiled.ok) throw new Error(compiled.error.message);
        const codec = compiled.value;
        let checked = 0;
        for (const value of fixture.valid) {
          const wire = codec.encode(value);
          if (!wire.ok) continue;
          const text = JSON.stringify(wire.value);
          const decoded = codec.decode(text);
          expect(decoded.ok && canonical(decoded.value)).toBe(canonical(value));
          agree(codec, text, `${fixture.name}: a value's own wire`);
          for (const mutated of mutations(wire.value)) {
            agree(codec, JSON.stringify(mutated), `${fixture.name}: ${JSON.stringify(mutated).slice(0, 300)}`);
            checked++;
          }
        }
        for (const c of hostileCases(fixture.name)) {
          const raw = rawInput(c);
          if (typeof raw === "string") agree(codec, raw, c.name);
        }
        expect(checked).toBeGreaterThan(0);
      });
    }
  }

  test("generated schemas, their values and any JSON as the wire", () => {
    fc.assert(
      fc.property(
        schemaArb.chain((schema) =>
          fc.tuple(fc.constant(schema), fc.array(valueArb(schema), { maxLength: 3 }), anyJson),
        ),
        ([schema, values, junk]) => {
          const compiled = compileCodec(schema, { name: "t" });
          if (!compiled.ok) return;
          const codec = compiled.value;
          for (const value of values) {
            const wire = codec.encode(value);
            if (!wire.ok) continue;
            agree(codec, JSON.stringify(wire.value), "generated value");
            for (const mutated of mutations(wire.value).slice(0, 40)) agree(codec, JSON.stringify(mutated), "mutated");
          }
          agree(codec, JSON.stringify(junk) ?? "null", "any JSON");
          agree(codec, JSON.stringify({ arguments: junk }) ?? "null", "any JSON, wrapped");
        },
      ),
      { numRuns: runs(150) },
    );
  });

  test("limits: the generated pass counts values and depth as the parser does", () => {
    const compiled = compileCodec({
      type: "object",
      properties: { x: {}, list: { type: "array", items: { type: "array", items: { type: "integer" } } } },
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    for (let n = 0; n < 30; n++) {
      const text = JSON.stringify({ x: { state: "absent" }, list: { state: "present", value: [Array(n).fill(0)] } });
      for (const limits of [{ maxNodes: 12 }, { maxNodes: 20 }, { maxDepth: 4 }, { maxDepth: 5 }]) {
        const generated = codec.decode(text, { limits });
        expect(generated, `${n} ${JSON.stringify(limits)}`).toStrictEqual(
          codec.decode(text, { limits, interpreted: true }),
        );
      }
    }
  });
});
