/**
 * Repeated member names, which JSON.stringify never writes: the generated
 * pass (after JSON.parse, which keeps the last) must leave every such text to
 * the bounded parser, so the refusal is the one the interpreted path words.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { runs, schemaArb, valueArb } from "../../testkit/arbitraries.js";
import { schemaFixtures } from "../../testkit/fixtures.js";

/** The JSON text of `value` with its `target`-th member (in document order) written twice, the second time as `again`. */
function withRepeat(value: unknown, target: number, again: (v: unknown) => unknown): { text: string; found: boolean } {
  let seen = 0;
  let found = false;
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
    if (typeof v !== "object" || v === null) return JSON.stringify(v);
    const members: string[] = [];
    for (const [name, item] of Object.entries(v)) {
      const here = seen++ === target;
      members.push(`${JSON.stringify(name)}:${write(item)}`);
      if (here) {
        found = true;
        members.push(`${JSON.stringify(name)}:${JSON.stringify(again(item))}`);
      }
    }
    return `{${members.join(",")}}`;
  };
  const text = write(value);
  return { text, found };
}

const AGAIN: ((v: unknown) => unknown)[] = [(v) => v, () => null, () => ({ state: "absent" })];

function agreeOnRepeats(codec: Codec, wire: unknown, label: string): number {
  let checked = 0;
  for (let target = 0; ; target++) {
    let found = false;
    for (const again of AGAIN) {
      const repeated = withRepeat(wire, target, again);
      if (!repeated.found) break;
      found = true;
      const generated = codec.decode(repeated.text);
      expect(generated.ok, `${label}: ${repeated.text.slice(0, 200)}`).toBe(false);
      expect(generated, label).toStrictEqual(codec.decode(repeated.text, { interpreted: true }));
      checked++;
    }
    if (!found) return checked;
  }
}

describe("a repeated member name is refused as the interpreted path refuses it", () => {
  test.each(schemaFixtures())("$name", (fixture) => {
    const compiled = compileCodec(fixture.schema, { name: "t", ...(fixture.options ?? {}) });
    if (!compiled.ok) throw new Error(compiled.error.message);
    let checked = 0;
    for (const value of fixture.valid) {
      const wire = compiled.value.encode(value);
      if (wire.ok) checked += agreeOnRepeats(compiled.value, wire.value, fixture.name);
    }
    // A fixture without arguments has no member to repeat.
    if (fixture.valid.some((v) => typeof v === "object" && v !== null && Object.keys(v).length > 0)) {
      expect(checked).toBeGreaterThan(0);
    }
  });

  test("generated schemas and values", () => {
    fc.assert(
      fc.property(
        schemaArb.chain((schema) => fc.tuple(fc.constant(schema), fc.array(valueArb(schema), { maxLength: 2 }))),
        ([schema, values]) => {
          const compiled = compileCodec(schema, { name: "t" });
          if (!compiled.ok) return;
          for (const value of values) {
            const wire = compiled.value.encode(value);
            if (wire.ok) agreeOnRepeats(compiled.value, wire.value, "generated");
          }
        },
      ),
      { numRuns: runs(100) },
    );
  });
});
