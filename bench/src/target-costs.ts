/**
 * What each target costs in tokens on the fixture corpus: the wire schema the
 * model is given, and the arguments it writes for the fixtures' valid values,
 * counted with o200k_base. Prints the markdown tables of docs/targets.md.
 *
 *   pnpm exec tsx --conditions=strictwire-source bench/src/target-costs.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type CompileOptions, compileCodec } from "@strictwire/codec";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../../fixtures/schemas");

interface Fixture {
  readonly name: string;
  readonly schema: unknown;
  readonly options?: CompileOptions;
  readonly valid: readonly unknown[];
}

const COLUMNS: readonly { readonly label: string; readonly options: CompileOptions }[] = [
  { label: "openai tagged", options: { target: "openai", presence: "tagged" } },
  { label: "openai compact", options: { target: "openai", presence: "compact" } },
  { label: "anthropic", options: { target: "anthropic" } },
  { label: "gemini", options: { target: "gemini" } },
];

interface Cost {
  /** Tokens of the wire schema as JSON text. */
  readonly schema: number;
  /** Tokens of the arguments, summed over the fixture's valid values. */
  readonly args: number;
}

const tokens = (value: unknown): number => encode(JSON.stringify(value)).length;

function fixtures(): Fixture[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map(
      (f) => ({ name: f.slice(0, -5), ...(JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as object) }) as Fixture,
    );
}

function cost(fixture: Fixture, options: CompileOptions): Cost {
  const compiled = compileCodec(fixture.schema, { ...fixture.options, ...options, name: "tool" });
  if (!compiled.ok) throw new Error(`${fixture.name}: ${compiled.error.message}`);
  let args = 0;
  for (const value of fixture.valid) {
    const encoded = compiled.value.encode(value);
    if (!encoded.ok) throw new Error(`${fixture.name}: ${encoded.error.message}`);
    args += tokens(encoded.value);
  }
  return { schema: tokens(compiled.value.wire), args };
}

function main(): void {
  const all = fixtures();
  const rows = all.map((f) => ({ name: f.name, costs: COLUMNS.map((c) => cost(f, c.options)) }));
  const totals = COLUMNS.map((_, i) => ({
    schema: rows.reduce((n, r) => n + r.costs[i]!.schema, 0),
    args: rows.reduce((n, r) => n + r.costs[i]!.args, 0),
  }));
  const values = all.reduce((n, f) => n + f.valid.length, 0);

  console.log(`Totals over ${all.length} fixtures and ${values} valid values (o200k_base tokens):\n`);
  console.log("| | schema | arguments |");
  console.log("|---|---:|---:|");
  COLUMNS.forEach((c, i) => {
    console.log(`| ${c.label} | ${totals[i]!.schema} | ${totals[i]!.args} |`);
  });
  console.log("\nPer fixture, schema / arguments:\n");
  console.log(`| fixture | ${COLUMNS.map((c) => c.label).join(" | ")} |`);
  console.log(`|---|${COLUMNS.map(() => "---:").join("|")}|`);
  for (const r of rows) console.log(`| ${r.name} | ${r.costs.map((c) => `${c.schema} / ${c.args}`).join(" | ")} |`);
}

main();
