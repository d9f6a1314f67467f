/**
 * What the stream tests share: texts split into deltas, every fixture's valid
 * values as wire texts, and generated schemas with values for them.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { type Schema, schemaArb, valueArb } from "../../testkit/arbitraries.js";
import { schemaFixtures } from "../../testkit/fixtures.js";

/** Splits text into deltas of the given sizes, cycled. */
export function split(text: string, sizes: readonly number[]): string[] {
  const deltas: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = sizes[k % sizes.length]!;
    deltas.push(text.slice(i, i + size));
    i += size;
  }
  return deltas;
}

/** Delta sizes of 1 to 8 characters, as models write them, cycled by split. */
export const deltaSizes = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 12 });

export interface WireCase {
  readonly name: string;
  readonly codec: Codec;
  readonly text: string;
}

/** Every fixture's valid values, encoded (compact and indented, alternately). */
export function fixtureWires(): WireCase[] {
  const out: WireCase[] = [];
  for (const fixture of schemaFixtures()) {
    const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture" });
    if (!compiled.ok) throw new Error(`${fixture.name} does not compile`);
    fixture.valid.forEach((value, i) => {
      const encoded = compiled.value.encode(value);
      if (!encoded.ok) throw new Error(`${fixture.name}: encode refused ${JSON.stringify(value)}`);
      const text = JSON.stringify(encoded.value, null, i % 2 === 0 ? undefined : 2);
      out.push({ name: `${fixture.name}#${i}`, codec: compiled.value, text });
    });
  }
  return out;
}

/** A generated schema (two members of one generated kind), a presence spelling, a value for it, and delta sizes. */
export const generatedCalls = fc
  .tuple(schemaArb, fc.constantFrom("tagged" as const, "compact" as const))
  .chain(([schema, presence]) => {
    const root: Schema = { type: "object", properties: { v: schema, w: schema }, required: ["v"] };
    return fc.tuple(fc.constant(root), fc.constant(presence), valueArb(root), deltaSizes);
  });
