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

/**
 * Where a partial value disagrees with the final one ("" if nowhere): a
 * string is a prefix, an array holds a prefix of the final elements (each
 * consistent), an object a subset of its members (each consistent), anything
 * else equals.
 */
export function inconsistency(partial: unknown, final: unknown, where = ""): string {
  if (typeof partial === "string") {
    return typeof final === "string" && final.startsWith(partial) ? "" : `${where}: not a prefix`;
  }
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return `${where}: not a prefix array`;
    for (let i = 0; i < partial.length; i++) {
      const found = inconsistency(partial[i], final[i], `${where}/${i}`);
      if (found) return found;
    }
    return "";
  }
  if (typeof partial === "object" && partial !== null) {
    if (typeof final !== "object" || final === null || Array.isArray(final)) return `${where}: not an object`;
    const f = final as Record<string, unknown>;
    for (const key of Object.keys(partial)) {
      if (!Object.hasOwn(f, key)) return `${where}: member ${key} not in the final value`;
      const found = inconsistency((partial as Record<string, unknown>)[key], f[key], `${where}/${key}`);
      if (found) return found;
    }
    return "";
  }
  return Object.is(partial, final) ? "" : `${where}: differs`;
}
