/**
 * Could an interpreting validator (no code generation) stand in for ajv where
 * code may not be generated? A measurement, not a gate: @cfworker/json-schema
 * (what the MCP SDK switched to for Workers) against the codec's own ajv
 * (validate/ajv.ts: formats, RE2 patterns, own properties), both held to the
 * JSON-Schema-Test-Suite's verdicts, draft 2020-12 (optional/ included; the
 * suite's remote documents handed to both, never fetched), and to the fixture
 * corpus's valid and invalid values.
 *
 *   pnpm interpreter-agreement           counts, and the files where the two differ
 *   pnpm interpreter-agreement --json    the same as one JSON object
 */
import { join, sep } from "node:path";
import { Validator } from "@cfworker/json-schema";
import { createAjv } from "../packages/codec/src/validate/ajv.js";
import { listFiles, locateCorpora, REPO_ROOT, readText } from "./conformance/io.js";

type Verdict = boolean | "error";

interface Tally {
  assertions: number;
  /** Both gave a verdict and the same one. */
  agree: number;
  /** Both gave a verdict, different ones. */
  disagree: number;
  ajvMatchesExpected: number;
  interpreterMatchesExpected: number;
  /** The schema did not compile (ajv) or the validator threw (the interpreter). */
  ajvErrors: number;
  interpreterErrors: number;
  /** Where the two differ, by file: how many assertions. */
  byFile: Record<string, number>;
}

const empty = (): Tally => ({
  assertions: 0,
  agree: 0,
  disagree: 0,
  ajvMatchesExpected: 0,
  interpreterMatchesExpected: 0,
  ajvErrors: 0,
  interpreterErrors: 0,
  byFile: {},
});

interface Case {
  file: string;
  schema: unknown;
  /** Documents the schema may refer to, by URI. */
  resources: Map<string, unknown>;
  instances: { data: unknown; valid: boolean }[];
}

function ajvVerdicts(c: Case): Verdict[] {
  try {
    const ajv = createAjv("2020", false);
    for (const [uri, doc] of c.resources) ajv.addSchema(doc as object, uri);
    const validate = ajv.compile(c.schema as object | boolean);
    return c.instances.map((i) => {
      try {
        return validate(i.data) === true;
      } catch {
        return "error";
      }
    });
  } catch {
    return c.instances.map(() => "error");
  }
}

function interpreterVerdicts(c: Case): Verdict[] {
  let validator: Validator;
  try {
    validator = new Validator(c.schema as object, "2020-12", true);
    for (const [uri, doc] of c.resources) validator.addSchema(doc as object, uri);
  } catch {
    return c.instances.map(() => "error");
  }
  return c.instances.map((i) => {
    try {
      return validator.validate(i.data).valid;
    } catch {
      return "error";
    }
  });
}

function tally(cases: Iterable<Case>): Tally {
  const t = empty();
  for (const c of cases) {
    const a = ajvVerdicts(c);
    const b = interpreterVerdicts(c);
    c.instances.forEach((instance, k) => {
      t.assertions++;
      const av = a[k]!;
      const bv = b[k]!;
      if (av === "error") t.ajvErrors++;
      else if (av === instance.valid) t.ajvMatchesExpected++;
      if (bv === "error") t.interpreterErrors++;
      else if (bv === instance.valid) t.interpreterMatchesExpected++;
      if (av !== "error" && bv !== "error") {
        if (av === bv) t.agree++;
        else {
          t.disagree++;
          t.byFile[c.file] = (t.byFile[c.file] ?? 0) + 1;
        }
      }
    });
  }
  return t;
}

function* suiteCases(corpora: string): Generator<Case> {
  const remotes = new Map<string, unknown>();
  const remoteDir = join(corpora, "json-schema-test-suite/remotes");
  for (const file of listFiles(remoteDir, ".json")) {
    remotes.set(`http://localhost:1234/${file.split(sep).join("/")}`, JSON.parse(readText(join(remoteDir, file))));
  }
  const dir = join(corpora, "json-schema-test-suite/tests/draft2020-12");
  for (const file of listFiles(dir, ".json")) {
    const groups = JSON.parse(readText(join(dir, file))) as {
      schema: unknown;
      tests: { data: unknown; valid: boolean }[];
    }[];
    for (const g of groups)
      yield { file: file.split(sep).join("/"), schema: g.schema, resources: remotes, instances: g.tests };
  }
}

function* fixtureCases(): Generator<Case> {
  const dir = join(REPO_ROOT, "fixtures", "schemas");
  for (const file of listFiles(dir, ".json")) {
    const f = JSON.parse(readText(join(dir, file))) as {
      schema: Record<string, unknown>;
      valid: unknown[];
      invalid: { value: unknown }[];
    };
    // Both are asked in draft 2020-12; the fixtures written in draft-07 or draft-04 are left to ajv's own family.
    if (typeof f.schema.$schema === "string" && !f.schema.$schema.includes("2020-12")) continue;
    yield {
      file,
      schema: f.schema,
      resources: new Map(),
      instances: [
        ...f.valid.map((data) => ({ data, valid: true })),
        ...f.invalid.map((i) => ({ data: i.value, valid: false })),
      ],
    };
  }
}

const located = locateCorpora(process.env);
if (!located.ok) {
  process.stderr.write(`interpreter-agreement: ${located.message}\n`);
  process.exit(2);
}
const result = { suite: tally(suiteCases(located.root)), fixtures: tally(fixtureCases()) };
if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  for (const [name, t] of Object.entries(result)) {
    const pct = (n: number) => `${((100 * n) / t.assertions).toFixed(1)}%`;
    console.log(
      `${name === "suite" ? "JSON-Schema-Test-Suite draft 2020-12" : "fixture corpus (2020-12 schemas)"}: ${t.assertions} assertions`,
    );
    console.log(`  @cfworker/json-schema agrees with ajv: ${t.agree} (${pct(t.agree)}), differs: ${t.disagree}`);
    console.log(
      `  ajv matches the expected verdict: ${t.ajvMatchesExpected} (${pct(t.ajvMatchesExpected)}), errors ${t.ajvErrors}`,
    );
    console.log(
      `  @cfworker/json-schema matches it: ${t.interpreterMatchesExpected} (${pct(t.interpreterMatchesExpected)}), errors ${t.interpreterErrors}`,
    );
    const files = Object.entries(t.byFile).sort((a, b) => b[1] - a[1]);
    if (files.length > 0) console.log(`  where they differ: ${files.map(([f, n]) => `${f} ${n}`).join(", ")}`);
  }
}
