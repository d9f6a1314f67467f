/**
 * The codecs a fuzz run decodes against: every fixture schema (in tagged and
 * compact presence) and a sample of generated schemas, each with the wire
 * texts of values valid under it. Built once per run; decoding is the hot part.
 */
import { type Codec, type CompileOptions, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { type Schema, schemaArb, valueArb } from "../../packages/codec/testkit/arbitraries.js";
import { schemaFixtures } from "../../packages/codec/testkit/fixtures.js";

export interface PoolEntry {
  readonly id: string;
  readonly codec: Codec;
  readonly schema: unknown;
  readonly options: CompileOptions;
  /** The bundle as the CLI would write it. */
  readonly bundleText: string;
  /** Values valid under the schema, and their wire texts (same order). */
  readonly values: readonly unknown[];
  readonly wires: readonly string[];
}

export interface PoolOptions {
  /** How many generated schemas to try (some do not compile: target limits). */
  readonly generated: number;
  readonly seed: number;
  /** Fixture presence modes: "tagged" always, "compact" too when set. */
  readonly compact: boolean;
}

/** The any-JSON slot, where every hostile text reaches the deepest part of the decoder. */
const ANY_SLOT: Schema = {
  type: "object",
  properties: { x: {}, m: { type: "object", additionalProperties: { type: ["string", "null"] } } },
  required: ["x"],
};

export function buildPool(options: PoolOptions): PoolEntry[] {
  const pool: PoolEntry[] = [];
  const add = (id: string, schema: unknown, compileOptions: CompileOptions, values: readonly unknown[]) => {
    const compiled = compileCodec(schema, compileOptions);
    if (!compiled.ok) return;
    const codec = compiled.value;
    const kept: unknown[] = [];
    const wires: string[] = [];
    for (const v of values) {
      const encoded = codec.encode(v);
      if (!encoded.ok) continue;
      kept.push(v);
      wires.push(JSON.stringify(encoded.value));
    }
    if (wires.length === 0) return;
    pool.push({
      id,
      codec,
      schema,
      options: compileOptions,
      bundleText: JSON.stringify(codec.bundle),
      values: kept,
      wires,
    });
  };

  // JSON.parse, not object literals: a literal's __proto__ member sets the prototype instead.
  add(
    "any-slot",
    ANY_SLOT,
    {},
    [
      '{"x":null}',
      '{"x":{"__proto__":1}}',
      '{"x":[1,"a",{"constructor":{"prototype":[]}}]}',
      '{"x":{"__proto__":{"__proto__":[true]}},"m":{"__proto__":"p","constructor":null}}',
    ].map((t) => JSON.parse(t) as unknown),
  );
  for (const f of schemaFixtures()) {
    add(`fixture:${f.name}`, f.schema, { ...f.options }, f.valid);
    if (options.compact) add(`fixture:${f.name}:compact`, f.schema, { ...f.options, presence: "compact" }, f.valid);
  }

  const generated = fc.sample(
    fc.tuple(
      schemaArb,
      fc.constantFrom("tagged" as const, "compact" as const),
      fc.constantFrom("close" as const, "preserve" as const),
      fc.boolean(),
    ),
    { numRuns: options.generated, seed: options.seed },
  );
  generated.forEach(([sub, presence, openObjects, factored], i) => {
    const root: Schema = { type: "object", properties: { v: sub, w: sub }, required: ["v"] };
    const values = fc.sample(valueArb(root), { numRuns: 12, seed: options.seed + i });
    add(`generated:${i}`, root, { presence, openObjects, factored }, values);
  });
  return pool;
}

/** A short description of a pool entry for a reproduction: enough to rebuild its codec. */
export function describeEntry(entry: PoolEntry): Record<string, unknown> {
  return { codec: entry.id, schema: entry.schema, options: entry.options };
}
