/** Shared by the reliability tests: the generated hostile corpus (the bombs are in testkit/bombs.ts). */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Bundle, type Codec, type CompileOptions, compileCodec } from "@strictwire/codec";
import { canonicalJson } from "../../../../scripts/fuzz/bundle.js";
import { FIXTURES, type HostileCase, hostileCases, rawInput, schemaFixtures } from "../../testkit/fixtures.js";

export interface GeneratedCase extends HostileCase {
  readonly category: string;
}

export interface GeneratedFile {
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly options: CompileOptions;
  readonly cases: readonly GeneratedCase[];
}

/** The kinds of hostility GitHub issue 9 lists; every one must appear in the generated corpus. */
export const CATEGORIES = [
  "duplicate-keys",
  "prototype-keys",
  "depth",
  "nodes",
  "size",
  "numbers",
  "utf8",
  "escapes",
  "unterminated",
  "bom",
  "trailing",
  "comments",
  "root-shape",
  "presence",
  "entries",
  "union-tags",
  "contract",
] as const;

export function generatedFiles(): GeneratedFile[] {
  const dir = join(FIXTURES, "hostile-generated");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
        description: string;
        fixture?: string;
        schema?: unknown;
        options?: CompileOptions;
        cases: GeneratedCase[];
      };
      let schema = raw.schema;
      let options: CompileOptions = raw.options ?? {};
      if (raw.fixture !== undefined) {
        const fixture = schemaFixtures().find((f) => f.name === raw.fixture);
        if (fixture === undefined) throw new Error(`${file}: no fixture ${raw.fixture}`);
        schema = fixture.schema;
        options = { ...fixture.options, ...options };
      }
      return { file, description: raw.description, schema, options, cases: raw.cases };
    });
}

/** Every stored hostile case, both directories, with the schema and options to decode it under. */
export function allHostileCases(): { source: string; schema: unknown; options: CompileOptions; case: HostileCase }[] {
  const out: { source: string; schema: unknown; options: CompileOptions; case: HostileCase }[] = [];
  for (const f of schemaFixtures()) {
    for (const c of hostileCases(f.name))
      out.push({ source: `hostile/${f.name}`, schema: f.schema, options: f.options ?? {}, case: c });
  }
  for (const g of generatedFiles()) {
    for (const c of g.cases)
      out.push({ source: `hostile-generated/${g.file}`, schema: g.schema, options: g.options, case: c });
  }
  return out;
}

export { obj, withDefs } from "../../testkit/bombs.js";
export { rawInput };

const codecs = new Map<string, Codec>();

/** A codec per schema and options, compiled once per test file. */
export function codecFor(schema: unknown, options: CompileOptions): Codec {
  const key = JSON.stringify([schema, options]);
  let codec = codecs.get(key);
  if (codec === undefined) {
    const compiled = compileCodec(schema, options);
    if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.error)}`);
    codec = compiled.value;
    codecs.set(key, codec);
  }
  return codec;
}

// ---- shared by the regression tests of the reliability work (docs/security.md) ----

export const deep = (n: number) => `{"v":${"[".repeat(n)}${"]".repeat(n)}}`;

/** A bundle changed and re-signed, as an attacker with write access would. */
export function resigned(bundle: Bundle, change: (b: Record<string, unknown>) => void): string {
  const b = JSON.parse(JSON.stringify(bundle)) as Record<string, unknown>;
  change(b);
  delete b.digest;
  b.digest = `sha256-${createHash("sha256").update(canonicalJson(b)).digest("hex")}`;
  return JSON.stringify(b);
}

/** The result code of a run, "ok", or what it threw. */
export function outcome(run: () => { ok: boolean; error?: { code: string } }): string {
  try {
    const r = run();
    return r.ok ? "ok" : r.error!.code;
  } catch (error) {
    return `threw ${String(error)}`;
  }
}
