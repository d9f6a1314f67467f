import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  ANSI,
  ERROR_KEYS,
  jsonOf,
  listDir,
  makeTempDir,
  REFUSED,
  readJson,
  removeDir,
  SETTINGS,
  STACK,
  strictwire,
  writeJson,
} from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe("compile one schema", () => {
  test("prints the bundle on stdout, named after the file, and a summary on stderr", async () => {
    const schema = await writeJson(join(dir, "user settings.v2.json"), SETTINGS);
    const run = await strictwire(["compile", schema]);
    expect(run.code).toBe(0);
    const bundle = JSON.parse(run.stdout);
    expect(bundle.format).toBe("strictwire/bundle@5");
    expect(bundle.name).toBe("user_settings_v2");
    expect(bundle.description).toBe("Update account settings.");
    expect(bundle.source).toEqual(SETTINGS);
    expect(run.stderr).toContain("compiled user_settings_v2");
    expect(run.stdout + run.stderr).not.toMatch(ANSI);
  });

  test("reads standard input for - and for a missing argument, naming the tool with the codec's default", async () => {
    for (const args of [["compile", "-"], ["compile"]]) {
      const run = await strictwire(args, { stdin: JSON.stringify(SETTINGS) });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).name).toBe("tool");
    }
  });

  test("-o writes the bundle and nothing else: no output on stdout, no temp file left", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const out = join(dir, "settings.bundle.json");
    const run = await strictwire(["compile", schema, "-o", out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect((await readJson(out)).name).toBe("settings");
    expect(await listDir(dir)).toEqual(["settings.bundle.json", "settings.json"]);
  });

  test("-o replaces an existing bundle", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const out = join(dir, "out.json");
    await writeFile(out, "old");
    const run = await strictwire(["compile", schema, "-o", out, "--name", "renamed"]);
    expect(run.code).toBe(0);
    expect((await readJson(out)).name).toBe("renamed");
    expect(await listDir(dir)).toEqual(["out.json", "settings.json"]);
  });

  test("--name, --description and --presence reach the bundle", async () => {
    const schema = await writeJson(join(dir, "s.json"), SETTINGS);
    const run = await strictwire([
      "compile",
      schema,
      "--name",
      "update_settings",
      "--description",
      "Change settings.",
      "--presence",
      "compact",
      "--open-objects",
      "preserve",
      "--factored",
    ]);
    expect(run.code).toBe(0);
    const bundle = JSON.parse(run.stdout);
    expect(bundle.name).toBe("update_settings");
    expect(bundle.description).toBe("Change settings.");
    expect(bundle.options).toMatchObject({ presence: "compact", openObjects: "preserve", factored: true });
  });

  test.each(["openai", "openai-finetuned", "anthropic", "gemini"])(
    "--target %s compiles for that provider",
    async (target) => {
      const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
      const run = await strictwire(["compile", schema, "--target", target]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).options.target).toBe(target);
    },
  );

  test("--dialect bfcl reads BFCL type names", async () => {
    const bfcl = { type: "dict", properties: { city: { type: "String" }, days: { type: "int" } }, required: ["city"] };
    const schema = await writeJson(join(dir, "weather.json"), bfcl);
    const plain = await strictwire(["compile", schema]);
    expect(plain.code).toBe(1);
    const run = await strictwire(["compile", schema, "--dialect", "bfcl"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).options.dialect).toBe("bfcl");
  });

  test("--json prints a summary, with the bundle itself when there is no -o", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--json"]);
    expect(run.code).toBe(0);
    const summary = jsonOf(run);
    expect(summary).toMatchObject({ ok: true, name: "settings", out: null, input: schema });
    expect(summary.digest).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(summary.relaxed).toEqual([{ path: "/properties/id", keyword: "minLength", reason: expect.any(String) }]);
    const sizes = summary.sizes as Record<string, { bytes: number }>;
    expect(sizes.source?.bytes).toBe(Buffer.byteLength(JSON.stringify(SETTINGS)));
    expect(sizes.wire?.bytes).toBeGreaterThan(0);
    expect((summary.bundle as { digest: string }).digest).toBe(summary.digest);
  });

  test("--json with -o names the output and leaves the bundle out of the summary", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const out = join(dir, "b.json");
    const run = await strictwire(["compile", schema, "-o", out, "--json"]);
    expect(run.code).toBe(0);
    const summary = jsonOf(run);
    expect(summary.out).toBe(out);
    expect(summary).not.toHaveProperty("bundle");
    expect((summary.sizes as { output: { bytes: number } }).output.bytes).toBe((await readFile(out)).length);
  });
});

describe("compile rejections (exit 1)", () => {
  test("a refused schema: the codec's error on stderr, nothing on stdout, no stack trace", async () => {
    const schema = await writeJson(join(dir, "refused.json"), REFUSED);
    const run = await strictwire(["compile", schema]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("remote-ref at /properties/owner");
    // What the schema's author can do about it, on its own line.
    expect(run.stderr).toMatch(/\nstrictwire: hint: .*resources/);
    expect(run.stderr).not.toMatch(STACK);
  });

  test("--json prints the rejection on stdout as {ok:false, error:{code,path,message,feedback}}", async () => {
    const schema = await writeJson(join(dir, "refused.json"), REFUSED);
    const run = await strictwire(["compile", schema, "--json"]);
    expect(run.code).toBe(1);
    const result = jsonOf(run);
    expect(Object.keys(result).sort()).toEqual(["error", "ok"]);
    expect(result.ok).toBe(false);
    const error = result.error as Record<string, string>;
    expect(Object.keys(error).sort()).toEqual(ERROR_KEYS);
    expect(error).toMatchObject({ code: "remote-ref", path: "/properties/owner" });
    expect(run.stderr).toContain("remote-ref");
  });

  test("a failed compile leaves an existing output untouched and no temp file", async () => {
    const schema = await writeJson(join(dir, "refused.json"), REFUSED);
    const out = join(dir, "out.json");
    await writeFile(out, "previous bundle");
    const run = await strictwire(["compile", schema, "-o", out]);
    expect(run.code).toBe(1);
    expect(await readFile(out, "utf8")).toBe("previous bundle");
    expect(await listDir(dir)).toEqual(["out.json", "refused.json"]);
  });

  test("text that is not JSON, or has a duplicate key, is rejected by the bounded parser", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"type": "object",');
    const notJson = await strictwire(["compile", broken, "--json"]);
    expect(notJson.code).toBe(1);
    expect((jsonOf(notJson).error as { code: string }).code).toBe("invalid-json");

    const twice = await strictwire(["compile", "-", "--json"], { stdin: '{"type":"object","type":"string"}' });
    expect(twice.code).toBe(1);
    expect(jsonOf(twice).error).toMatchObject({ code: "duplicate-key", path: "/type" });
  });

  test("a schema file that is not JSON is the author's error, worded for the author (issue 31)", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"type": "object", "properties": [');
    for (const command of ["compile", "inspect"]) {
      const run = await strictwire([command, broken, "--json"]);
      expect(run.code).toBe(1);
      const error = jsonOf(run).error as Record<string, string>;
      expect(error).toMatchObject({ code: "invalid-json", path: "/properties/0" });
      expect(error.message).toBe("the input ends inside an array that is never closed");
      // Not the text meant for a model ("The arguments were rejected ... Close every array with ]").
      expect(error.feedback).not.toMatch(/arguments|tool/i);
      expect(error.feedback).toContain(`The ${command === "compile" ? "schema" : "schema or bundle"} file ${broken}`);
      expect(error.feedback).toContain("Fix the file");
      expect(run.stderr).toContain(`${broken}: invalid-json at /properties/0`);
      expect(run.stdout + run.stderr).not.toMatch(STACK);
    }
    const piped = await strictwire(["compile", "-", "--json"], { stdin: "{,}" });
    expect(piped.code).toBe(1);
    expect((jsonOf(piped).error as Record<string, string>).feedback).toMatch(/^The schema on standard input is not/);
  });
});

describe("compile usage and environment errors (exit 2)", () => {
  test("a missing schema file", async () => {
    const run = await strictwire(["compile", join(dir, "nope.json")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no such file");
    expect(run.stderr).not.toMatch(STACK);
  });

  test("-o naming the input itself is refused, and the input is unchanged", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const before = await readFile(schema, "utf8");
    const run = await strictwire(["compile", schema, "-o", schema, "--json"]);
    expect(run.code).toBe(2);
    expect(jsonOf(run).error).toMatchObject({ code: "overwrites-input" });
    expect(await readFile(schema, "utf8")).toBe(before);
  });

  test("-o reaching the input through a symbolic link or another spelling is refused too", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const before = await readFile(schema, "utf8");
    await symlink(schema, join(dir, "link.json"));
    for (const out of [join(dir, "link.json"), `${dir}/./settings.json`]) {
      const run = await strictwire(["compile", schema, "-o", out]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("never overwrites an input");
    }
    expect(await readFile(schema, "utf8")).toBe(before);
  });

  test("-o into a directory that does not exist fails cleanly", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "-o", join(dir, "missing", "b.json")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot write it");
    expect(await listDir(dir)).toEqual(["settings.json"]);
  });

  test("an invalid --name is an options error", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--name", "not a name", "--json"]);
    expect(run.code).toBe(2);
    expect(jsonOf(run).error).toMatchObject({ code: "invalid-options" });
  });

  test("several schemas need --out-dir; -o and --out-dir exclude each other", async () => {
    const a = await writeJson(join(dir, "a.json"), SETTINGS);
    const b = await writeJson(join(dir, "b.json"), SETTINGS);
    const many = await strictwire(["compile", a, b]);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain("--out-dir");
    const both = await strictwire(["compile", a, "-o", join(dir, "x.json"), "--out-dir", join(dir, "out")]);
    expect(both.code).toBe(2);
    expect(await listDir(dir)).toEqual(["a.json", "b.json"]);
  });

  test("an unknown choice for a flag is commander's usage error, exit 2", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--presence", "sometimes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Allowed choices are tagged, compact");
  });
});

describe("compile --schema-dir", () => {
  test("a $ref to a file of the directory resolves, and the bundle carries that file", async () => {
    const shared = join(dir, "shared");
    await mkdir(shared);
    await writeJson(join(shared, "common.json"), {
      $defs: { Address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    });
    const schema = await writeJson(join(dir, "order.json"), {
      type: "object",
      properties: { to: { $ref: "common.json#/$defs/Address" } },
      required: ["to"],
    });
    const refused = await strictwire(["compile", schema]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("remote-ref");
    const run = await strictwire(["compile", schema, "--schema-dir", shared]);
    expect(run.code).toBe(0);
    const bundle = JSON.parse(run.stdout);
    expect(JSON.stringify(bundle.source)).toContain("https://strictwire.invalid/common.json");
    const missing = await strictwire(["compile", schema, "--schema-dir", join(dir, "nowhere")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout + missing.stderr).not.toMatch(STACK);
  });

  test("-o naming a file of --schema-dir is refused: those files are inputs too", async () => {
    const shared = join(dir, "shared");
    await mkdir(shared);
    const common = await writeJson(join(shared, "common.json"), { $defs: { Name: { type: "string" } } });
    const before = await readFile(common);
    const schema = await writeJson(join(dir, "order.json"), {
      type: "object",
      properties: { to: { $ref: "common.json#/$defs/Name" } },
      required: ["to"],
    });
    const run = await strictwire(["compile", schema, "--schema-dir", shared, "-o", common, "--json"]);
    expect(run.code).toBe(2);
    expect(jsonOf(run)).toMatchObject({ ok: false, error: { code: "overwrites-input" } });
    expect((await readFile(common)).equals(before)).toBe(true);
    expect(await listDir(shared)).toEqual(["common.json"]);
  });

  test("a --schema-dir or input directory spelled through a link and '..' is read where its listing came from", async () => {
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    await mkdir(join(dir, "elsewhere", "shared"));
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    // linked/../shared is elsewhere/shared; there is no ./shared for the spelling to land in.
    await writeJson(join(dir, "elsewhere", "shared", "common.json"), { $defs: { Name: { type: "string" } } });
    await writeJson(join(dir, "order.json"), {
      type: "object",
      properties: { to: { $ref: "common.json#/$defs/Name" } },
      required: ["to"],
    });
    const run = await strictwire(["compile", "order.json", "--schema-dir", "linked/../shared"], { cwd: dir });
    expect(run.stderr).not.toMatch(/no such file/);
    expect(run.code).toBe(0);
    const many = await strictwire(["compile", "linked/../shared", "--out-dir", "out"], { cwd: dir });
    expect(many.code).toBe(0);
    expect(await listDir(join(dir, "out"))).toEqual(["common.bundle.json"]);
  });
});
