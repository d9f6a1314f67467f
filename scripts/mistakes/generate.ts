/**
 * Writes fixtures/mistakes/<schema>.json: each mistake starts from a valid
 * value, encoded by the codec, and one realistic edit of the wire text.
 *
 *   pnpm tsx --conditions=strictwire-source scripts/mistakes/generate.ts [--check]
 *
 * The generator refuses a text the codec accepts (a mistake that is not one) and
 * an edit that matches nothing. expectedCode defaults to the code decode
 * returns today and is printed for review; set it on the spec to pin it.
 * --check writes nothing and fails when the committed files differ.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileCodec } from "@strictwire/codec";
import { loadSchemaFixture, MISTAKES_DIR, type Mistake } from "./corpus.js";
import { SPECS, type Spec } from "./specs.js";

function build(spec: Spec): Mistake {
  const fixture = loadSchemaFixture(spec.schema);
  const options = { ...fixture.options, ...spec.options, name: spec.schema.replaceAll("-", "_") };
  const compiled = compileCodec(fixture.schema, options);
  if (!compiled.ok) throw new Error(`${spec.schema} does not compile: ${compiled.error.message}`);
  const encoded = compiled.value.encode(spec.value);
  if (!encoded.ok) throw new Error(`${spec.name}: the base value does not encode: ${encoded.error.message}`);
  const text = spec.edit(JSON.stringify(encoded.value));
  const decoded = compiled.value.decode(text);
  if (decoded.ok) throw new Error(`${spec.name}: decode accepts the mistake`);
  const code = decoded.error.code;
  if (spec.expectedCode !== undefined && spec.expectedCode !== code)
    console.error(`note ${spec.name}: decode says ${code}, the corpus expects ${spec.expectedCode}`);
  console.error(`${spec.kind.padEnd(18)} ${spec.name.padEnd(34)} ${code}`);
  return {
    name: spec.name,
    kind: spec.kind,
    ...(spec.options ? { options: spec.options } : {}),
    text,
    expectedCode: spec.expectedCode ?? code,
    facts: spec.facts,
    note: spec.note,
  };
}

function render(entries: readonly Mistake[]): string {
  return `[\n${entries.map((e) => `  ${JSON.stringify(e)}`).join(",\n")}\n]\n`;
}

function main(): number {
  const check = process.argv.includes("--check");
  const names = new Set<string>();
  const bySchema = new Map<string, Mistake[]>();
  for (const spec of SPECS) {
    if (names.has(spec.name)) throw new Error(`duplicate mistake name ${spec.name}`);
    names.add(spec.name);
    const list = bySchema.get(spec.schema) ?? [];
    list.push(build(spec));
    bySchema.set(spec.schema, list);
  }
  let stale = 0;
  for (const [schema, entries] of bySchema) {
    const file = join(MISTAKES_DIR, `${schema}.json`);
    const text = render(entries);
    if (check) {
      let current = "";
      try {
        current = readFileSync(file, "utf8");
      } catch {}
      if (current !== text) {
        console.error(`stale: ${file}`);
        stale++;
      }
    } else writeFileSync(file, text);
  }
  console.error(
    `${SPECS.length} mistakes over ${bySchema.size} schemas${check ? (stale ? `, ${stale} stale` : ", up to date") : ""}`,
  );
  return stale ? 1 : 0;
}

process.exitCode = main();
