/**
 * Builds the mistake corpus from the specs: each mistake's text is the codec's
 * own encoding of a valid value with the spec's edit applied.
 */
import { compileCodec } from "@strictwire/codec";
import { loadSchemaFixture, type Mistake } from "./corpus.js";
import { SPECS, type Spec } from "./specs.js";

export interface Built {
  readonly mistake: Mistake;
  /** The code decode returns today (the corpus pins `expectedCode` separately). */
  readonly code: string;
}

/** Throws on a spec that is not a mistake: a base value that does not encode, an edit that matches nothing, a text decode accepts. */
export function buildMistake(spec: Spec): Built {
  const fixture = loadSchemaFixture(spec.schema);
  const options = { ...fixture.options, ...spec.options, name: spec.schema.replaceAll("-", "_") };
  const compiled = compileCodec(fixture.schema, options);
  if (!compiled.ok) throw new Error(`${spec.schema} does not compile: ${compiled.error.message}`);
  const encoded = compiled.value.encode(spec.value);
  if (!encoded.ok) throw new Error(`${spec.name}: the base value does not encode: ${encoded.error.message}`);
  const text = spec.edit(JSON.stringify(encoded.value));
  const decoded = compiled.value.decode(text);
  if (decoded.ok) throw new Error(`${spec.name}: decode accepts the mistake`);
  return {
    code: decoded.error.code,
    mistake: {
      name: spec.name,
      kind: spec.kind,
      ...(spec.options ? { options: spec.options } : {}),
      text,
      expectedCode: spec.expectedCode,
      facts: spec.facts,
      note: spec.note,
    },
  };
}

/** The corpus files' contents, by schema name, in spec order. */
export function buildCorpus(specs: readonly Spec[] = SPECS): { files: Map<string, string>; built: Built[] } {
  const names = new Set<string>();
  const bySchema = new Map<string, Mistake[]>();
  const built: Built[] = [];
  for (const spec of specs) {
    if (names.has(spec.name)) throw new Error(`duplicate mistake name ${spec.name}`);
    names.add(spec.name);
    const b = buildMistake(spec);
    built.push(b);
    const list = bySchema.get(spec.schema) ?? [];
    list.push(b.mistake);
    bySchema.set(spec.schema, list);
  }
  const files = new Map<string, string>();
  for (const [schema, entries] of bySchema) files.set(schema, render(entries));
  return { files, built };
}

function render(entries: readonly Mistake[]): string {
  return `[\n${entries.map((e) => `  ${JSON.stringify(e)}`).join(",\n")}\n]\n`;
}
