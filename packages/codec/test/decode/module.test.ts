/**
 * The generated decoder carried as code by `--emit module`: a module's codec
 * decodes with it (no code generated at load, even where the process forbids
 * it), to the same results and refusals as the interpreted walk, and no name
 * or string of the schema runs as code in the module.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Bundle, type Codec, compile, loadBundle, type Result, standaloneModule } from "../../src/index.js";
import { hostileCases, rawInput, schemaFixtures } from "../../testkit/fixtures.js";
import { canonical } from "../../testkit/same.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const TMP = join(HERE, "..", ".tmp");
let dir: string;
beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(join(TMP, "decoder-module-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rmdir(TMP).catch(() => undefined);
});

let written = 0;
async function moduleFile(bundle: Bundle): Promise<string> {
  const text = standaloneModule(bundle);
  if (!text.ok) throw new Error(`standaloneModule: ${text.error.message}`);
  const file = join(dir, `m${written++}.mjs`);
  await writeFile(file, text.value);
  return file;
}

const outcome = (r: Result<unknown>): string =>
  r.ok
    ? `ok ${canonical(r.value)}`
    : `${r.error.code} ${r.error.path} ${r.error.message} | ${JSON.stringify(r.error.feedback)}`;

function loaded(result: Result<Codec>): Codec {
  if (!result.ok) throw new Error(`load: ${result.error.message}`);
  return result.value;
}

describe("a module's decoder", () => {
  const cases = schemaFixtures().flatMap((f) =>
    [{}, { presence: "compact" as const }].map((options) => ({ fixture: f, options })),
  );

  test.each(cases)("decodes $fixture.name $options as the interpreted walk does", async ({ fixture, options }) => {
    const bundle = compile(fixture.schema, { name: "t", ...(fixture.options ?? {}), ...options });
    if (!bundle.ok) return expect(bundle.error.code).toBeTypeOf("string");
    const mod = (await import(pathToFileURL(await moduleFile(bundle.value)).href)) as {
      load(): Result<Codec>;
      decoder?: { factory: unknown };
    };
    expect(typeof mod.decoder?.factory).toBe("function");
    const fromModule = loaded(mod.load());
    const reference = loaded(loadBundle(bundle.value));
    const texts: string[] = [];
    for (const value of fixture.valid) {
      const wire = reference.encode(value);
      if (wire.ok) texts.push(JSON.stringify(wire.value));
    }
    for (const { value } of fixture.invalid) texts.push(JSON.stringify(value), JSON.stringify({ arguments: value }));
    for (const text of texts) {
      expect(outcome(fromModule.decode(text)), text).toBe(outcome(reference.decode(text, { interpreted: true })));
    }
    for (const raw of hostileCases(fixture.name).map(rawInput)) {
      expect(outcome(fromModule.decode(raw))).toBe(outcome(reference.decode(raw, { interpreted: true })));
    }
  });
});

const ATTACKS = [
  '"]);globalThis.pwned=1;//',
  "'+(globalThis.pwned=1)+'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the attack is this very text
  "`${globalThis.pwned=1}`",
  "*/globalThis.pwned=1;/*",
  "\u2028globalThis.pwned=1\u2029",
  "</script><script>globalThis.pwned=1</script>",
  '\\\\"); globalThis.pwned = 1; ("',
  "}},{factory:function(){globalThis.pwned=1}",
];

const CHILD = `
import { pathToFileURL } from "node:url";
const [moduleFile, text] = process.argv.slice(2);
let generation = "allowed";
try { new Function("return 1"); } catch { generation = "refused"; }
const mod = await import(pathToFileURL(moduleFile).href);
const codec = mod.load();
if (!codec.ok) throw new Error(codec.error.message);
const decoded = codec.value.decode(text);
// Made on first decode: where code generation is refused, only the module's own decoder can be there.
process.stdout.write(JSON.stringify({ generation, carried: typeof codec.value.generated, decoded, pwned: globalThis.pwned ?? null }));
`;

test("a module decodes with the decoder it carries where code generation is forbidden, and no name runs as code", async () => {
  const schema = {
    type: "object",
    $defs: Object.fromEntries(ATTACKS.map((name) => [name, { type: "string", enum: ATTACKS }])),
    properties: {
      ...Object.fromEntries(
        ATTACKS.map((name) => [name, { $ref: `#/$defs/${encodeURIComponent(name).replace(/%2F/g, "~1")}` }]),
      ),
      labels: { type: "object", additionalProperties: { const: ATTACKS[0] } },
      either: {
        oneOf: ATTACKS.slice(0, 3).map((tag) => ({
          type: "object",
          properties: { [ATTACKS[3]!]: { const: tag }, n: { type: "integer" } },
          required: [ATTACKS[3]!, "n"],
        })),
      },
    },
    required: [ATTACKS[0]!],
  };
  const bundle = compile(schema, { name: "t" });
  if (!bundle.ok) throw new Error(bundle.error.message);
  const value = {
    ...Object.fromEntries(ATTACKS.map((name, i) => [name, ATTACKS[(i + 1) % ATTACKS.length]])),
    labels: Object.fromEntries(ATTACKS.map((name) => [name, ATTACKS[0]])),
    either: { [ATTACKS[3]!]: ATTACKS[1], n: 2 },
  };
  const reference = loaded(loadBundle(bundle.value));
  const wire = reference.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  const file = await moduleFile(bundle.value);
  const child = join(dir, "child.mjs");
  await writeFile(child, CHILD);
  const run = (text: string) =>
    JSON.parse(
      execFileSync(process.execPath, ["--disallow-code-generation-from-strings", child, file, text], {
        cwd: dir,
        encoding: "utf8",
      }),
    ) as { generation: string; carried: string; decoded: Result<unknown>; pwned: unknown };

  const good = run(JSON.stringify(wire.value));
  expect(good.generation).toBe("refused");
  expect(good.carried).toBe("function");
  expect(good.pwned).toBeNull();
  expect(outcome(good.decoded)).toBe(`ok ${canonical(value)}`);

  const wrong = { ...(wire.value as object), [ATTACKS[1]!]: "not one of them" };
  const bad = run(JSON.stringify(wrong));
  expect(bad.pwned).toBeNull();
  expect(outcome(bad.decoded)).toBe(outcome(reference.decode(JSON.stringify(wrong), { interpreted: true })));
  expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
});
