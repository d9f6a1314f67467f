import { mkdir, mkdtemp, readFile, rmdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  jsonOf,
  listDir,
  makeTempDir,
  type Run,
  removeDir,
  runNode,
  SETTINGS,
  strictwire,
  writeJson,
} from "./helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../../..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const node = (args: readonly string[], cwd: string): Promise<Run> => runNode(args, { cwd });

interface Fixture {
  readonly schema: unknown;
  readonly valid: readonly unknown[];
}

async function fixture(name: string): Promise<Fixture> {
  return JSON.parse(await readFile(join(ROOT, "fixtures/schemas", `${name}.json`), "utf8")) as Fixture;
}

/** Strict, and without skipLibCheck: the declarations themselves are checked too. */
const tsc = (files: readonly string[]): Promise<Run> =>
  node(
    [
      TSC,
      "--noEmit",
      "--strict",
      "--exactOptionalPropertyTypes",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      ...files,
    ],
    dir,
  );

describe("compile --emit types", () => {
  // Each fixture with a value its type must refuse: a wrong JSON type, a missing required member.
  const CASES = [
    { name: "settings-flat-patch", type: "SettingsFlatPatchArguments", wrong: { quota: "5" } },
    { name: "labels-map", type: "LabelsMapArguments", wrong: { resource: "vm-1", labels: { env: 1 } } },
    {
      name: "comment-thread-recursion",
      type: "CommentThreadRecursionArguments",
      wrong: { channel: "general", thread: { author: "ada", body: "Hello" } },
    },
  ];

  async function declarations(): Promise<void> {
    for (const c of CASES) {
      const schema = await writeJson(join(dir, `${c.name}.json`), (await fixture(c.name)).schema);
      const run = await strictwire(["compile", schema, "--emit", "types", "-o", join(dir, `${c.name}.d.ts`)]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("");
    }
  }

  // Four CLI runs and a tsc run: on a busy machine that is more than the default 30 s.
  const TSC_TIMEOUT = 120_000;

  test("declarations every valid value of the contract type-checks against", { timeout: TSC_TIMEOUT }, async () => {
    await declarations();
    const files: string[] = [];
    for (const c of CASES) {
      // JSON text is a TypeScript expression; an array literal checks each element, excess members included.
      const values = JSON.stringify((await fixture(c.name)).valid, null, 2);
      const file = `use-${c.name}.ts`;
      await writeFile(
        join(dir, file),
        `import type { ${c.type} } from "./${c.name}.js";\n\nexport const values: ${c.type}[] = ${values};\n`,
      );
      files.push(file);
    }
    const run = await tsc(files);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  test("and that refuse a value of the wrong shape", { timeout: TSC_TIMEOUT }, async () => {
    await declarations();
    const files: string[] = [];
    for (const c of CASES) {
      const file = `wrong-${c.name}.ts`;
      await writeFile(
        join(dir, file),
        `import type { ${c.type} } from "./${c.name}.js";\n\nexport const value: ${c.type} = ${JSON.stringify(c.wrong)};\n`,
      );
      files.push(file);
    }
    const run = await tsc(files);
    expect(run.code).not.toBe(0);
    // Each file fails on its own assignment, and the declarations themselves are sound.
    for (const file of files) expect(run.stdout).toMatch(new RegExp(`^${file}\\(3,\\d+\\): error TS\\d+`, "m"));
    expect(run.stdout).not.toMatch(/\.d\.ts\(/);
  });

  test("prints the declarations on stdout without -o, and inside the summary with --json", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--emit", "types"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("export interface SettingsArguments {");
    expect(run.stdout).toContain("  nickname?: string | null;");
    const json = await strictwire(["compile", schema, "--emit", "types", "--json"]);
    expect(json.code).toBe(0);
    expect(jsonOf(json)).toMatchObject({ ok: true, name: "settings", out: null, output: run.stdout });
  });

  test("--out-dir writes <basename>.d.ts for each schema, and nothing else", async () => {
    const a = await writeJson(join(dir, "a.json"), SETTINGS);
    const b = await writeJson(join(dir, "b.json"), SETTINGS);
    const out = join(dir, "types");
    const run = await strictwire(["compile", a, b, "--emit", "types", "--out-dir", out]);
    expect(run.code).toBe(0);
    expect(await listDir(out)).toEqual(["a.d.ts", "b.d.ts"]);
    expect(await readFile(join(out, "b.d.ts"), "utf8")).toContain("export interface BArguments {");
  });
});

describe("compile --emit module", () => {
  const MEETING = {
    type: "object",
    properties: {
      room: { type: "string", pattern: "^[A-Z]{2}-[0-9]{3}$" },
      start: { type: "string", format: "date-time" },
    },
    required: ["room", "start"],
    additionalProperties: false,
  };
  const VALID = '{"room":"NY-101","start":"2025-03-10T15:00:00Z"}';
  const BAD_PATTERN = VALID.replace("NY-101", "ny-101");
  const BAD_FORMAT = VALID.replace("2025-03-10", "2025-13-10");

  // A module imports @strictwire/codec, so it must sit where that resolves: inside the workspace.
  let inside: string;
  beforeEach(async () => {
    await mkdir(join(HERE, ".tmp"), { recursive: true });
    inside = await mkdtemp(join(HERE, ".tmp", "emit-"));
  });
  afterEach(async () => {
    await removeDir(inside);
    // The parent too, unless another run still has its own directory there.
    await rmdir(join(HERE, ".tmp")).catch(() => undefined);
  });

  /** Imports the module in a fresh process, loads its codec and decodes each text. */
  async function decodeWith(moduleFile: string, texts: readonly string[]): Promise<Record<string, unknown>> {
    const script = join(dirname(moduleFile), "use.mjs");
    await writeFile(
      script,
      [
        `import { bundle, load, validateSource, validateWire } from ${JSON.stringify(`./${moduleFile.split("/").pop()}`)};`,
        "const codec = load();",
        "if (!codec.ok) throw new Error(codec.error.message);",
        `const decoded = ${JSON.stringify(texts)}.map((text) => codec.value.decode(text));`,
        "const validators = [typeof validateSource, typeof validateWire];",
        "process.stdout.write(JSON.stringify({ name: bundle.name, validators, decoded }));",
      ].join("\n"),
    );
    const run = await node([script], dirname(moduleFile));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  test("writes a module that loads, decodes, and rejects a broken pattern and a broken format", async () => {
    const schema = await writeJson(join(inside, "meeting.json"), MEETING);
    const out = join(inside, "meeting.bundle.mjs");
    const run = await strictwire(["compile", schema, "--emit", "module", "-o", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    const result = await decodeWith(out, [VALID, BAD_PATTERN, BAD_FORMAT]);
    expect(result.name).toBe("meeting");
    expect(result.validators).toEqual(["function", "function"]);
    expect(result.decoded).toMatchObject([
      { ok: true, value: { room: "NY-101", start: "2025-03-10T15:00:00Z" } },
      { ok: false, error: { code: "wire-violation", path: "/room" } },
      { ok: false, error: { code: "wire-violation", path: "/start" } },
    ]);
  });

  test("its verdicts are the JSON bundle's, feedback included", async () => {
    const schema = await writeJson(join(inside, "meeting.json"), MEETING);
    const moduleFile = join(inside, "meeting.bundle.mjs");
    const bundleFile = join(inside, "meeting.bundle.json");
    expect((await strictwire(["compile", schema, "--emit", "module", "-o", moduleFile])).code).toBe(0);
    expect((await strictwire(["compile", schema, "-o", bundleFile])).code).toBe(0);
    const fromModule = await decodeWith(moduleFile, [BAD_PATTERN]);
    await writeFile(join(inside, "bad.txt"), BAD_PATTERN);
    const fromBundle = await strictwire(["decode", bundleFile, join(inside, "bad.txt"), "--json"]);
    expect(fromBundle.code).toBe(1);
    const { error } = jsonOf(fromBundle) as { error: Record<string, unknown> };
    const { issues, ...verdict } = error;
    const fromCode = (fromModule.decoded as { error: Record<string, unknown> }[])[0]?.error;
    expect(fromCode).toMatchObject(verdict);
    // --json prints the issue tree; the paths of its issues are the module's.
    const paths = (list: unknown) => (list as { path: string }[]).map((i) => i.path);
    expect(paths(issues)).toEqual(paths(fromCode?.tree));
  });

  test("--out-dir names each module <basename>.bundle.mjs", async () => {
    const schema = await writeJson(join(inside, "meeting.json"), MEETING);
    const out = join(inside, "out");
    const run = await strictwire(["compile", schema, "--emit", "module", "--out-dir", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(await listDir(out)).toEqual(["meeting.bundle.mjs"]);
  });

  test("outside any install of @strictwire/codec the module cannot load, and Node says what is missing", async () => {
    const schema = await writeJson(join(dir, "meeting.json"), MEETING);
    const out = join(dir, "meeting.bundle.mjs");
    expect((await strictwire(["compile", schema, "--emit", "module", "-o", out])).code).toBe(0);
    const run = await node(["--input-type=module", "-e", 'await import("./meeting.bundle.mjs")'], dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("ERR_MODULE_NOT_FOUND");
    expect(run.stderr).toContain("@strictwire/codec");
  });
});
