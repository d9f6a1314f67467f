import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  ANSI,
  jsonOf,
  listDir,
  makeTempDir,
  REFUSED,
  readJson,
  removeDir,
  SETTINGS,
  strictwire,
  writeJson,
} from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
  await mkdir(join(dir, "schemas"));
  await writeJson(join(dir, "schemas", "update-settings.json"), SETTINGS);
  await writeJson(join(dir, "schemas", "get.time.json"), { type: "object", properties: {} });
  await writeFile(join(dir, "schemas", "notes.txt"), "not a schema");
});
afterEach(async () => {
  await removeDir(dir);
});

describe("compile --out-dir", () => {
  test("a directory: one <basename>.bundle.json per schema, tools named after their files", async () => {
    const run = await strictwire(["compile", "schemas", "--out-dir", "bundles"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(await listDir(join(dir, "bundles"))).toEqual(["get.time.bundle.json", "update-settings.bundle.json"]);
    expect((await readJson(join(dir, "bundles", "update-settings.bundle.json"))).name).toBe("update-settings");
    expect((await readJson(join(dir, "bundles", "get.time.bundle.json"))).name).toBe("get_time");
    // Not a terminal: no progress counter, no colour.
    expect(run.stderr).not.toContain("[1/2]");
    expect(run.stderr).not.toMatch(ANSI);
  });

  test("a quoted glob is expanded by strictwire itself", async () => {
    const run = await strictwire(["compile", "schemas/upd*.json", "--out-dir", "bundles"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(await listDir(join(dir, "bundles"))).toEqual(["update-settings.bundle.json"]);
  });

  test("** reaches nested directories", async () => {
    await mkdir(join(dir, "schemas", "nested"));
    await writeJson(join(dir, "schemas", "nested", "deep.json"), SETTINGS);
    const run = await strictwire(["compile", "schemas/**/*.json", "--out-dir", "bundles", "--json"], { cwd: dir });
    expect(run.code).toBe(0);
    const inputs = (jsonOf(run).results as { input: string }[]).map((r) => r.input);
    expect(inputs).toEqual(["schemas/get.time.json", "schemas/nested/deep.json", "schemas/update-settings.json"]);
  });

  test("compiling a directory into itself is safe to repeat: bundles are never read as schemas", async () => {
    for (let i = 0; i < 2; i++) {
      const run = await strictwire(["compile", "schemas", "--out-dir", "schemas"], { cwd: dir });
      expect(run.code).toBe(0);
    }
    expect(await listDir(join(dir, "schemas"))).toEqual([
      "get.time.bundle.json",
      "get.time.json",
      "notes.txt",
      "update-settings.bundle.json",
      "update-settings.json",
    ]);
  });

  test("--json: one document with a result per schema", async () => {
    const run = await strictwire(["compile", "schemas", "--out-dir", "bundles", "--json"], { cwd: dir });
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(doc.ok).toBe(true);
    expect(doc.results).toEqual([
      expect.objectContaining({
        ok: true,
        input: "schemas/get.time.json",
        name: "get_time",
        out: "bundles/get.time.bundle.json",
      }),
      expect.objectContaining({ ok: true, name: "update-settings", out: "bundles/update-settings.bundle.json" }),
    ]);
  });

  test("a refused schema: exit 1, the others still compiled, the failure reported", async () => {
    await writeJson(join(dir, "schemas", "refused.json"), REFUSED);
    const run = await strictwire(["compile", "schemas", "--out-dir", "bundles", "--json"], { cwd: dir });
    expect(run.code).toBe(1);
    const doc = jsonOf(run);
    expect(doc.ok).toBe(false);
    expect(doc.error).toMatchObject({ code: "remote-ref" });
    const results = doc.results as { ok: boolean; input: string }[];
    expect(results.map((r) => [r.input, r.ok])).toEqual([
      ["schemas/get.time.json", true],
      ["schemas/refused.json", false],
      ["schemas/update-settings.json", true],
    ]);
    expect(await listDir(join(dir, "bundles"))).toEqual(["get.time.bundle.json", "update-settings.bundle.json"]);
    expect(run.stderr).toContain("schemas/refused.json: remote-ref");
  });

  test("an output that is one of the inputs is refused and left as it was", async () => {
    // a.json's bundle would be schemas/a.bundle.json, which is itself named as an input.
    await writeJson(join(dir, "schemas", "a.json"), SETTINGS);
    await writeFile(join(dir, "schemas", "a.bundle.json"), "an input, not a bundle");
    const run = await strictwire(["compile", "schemas/a.json", "schemas/a.bundle.json", "--out-dir", "schemas"], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("never overwrites an input");
    expect(await readFile(join(dir, "schemas", "a.bundle.json"), "utf8")).toBe("an input, not a bundle");
  });

  test("usage errors: no input, no match, standard input, --name with several schemas, two schemas for one output", async () => {
    await mkdir(join(dir, "other"));
    await writeJson(join(dir, "other", "get.time.json"), SETTINGS);
    const cases = [
      ["compile", "--out-dir", "bundles"],
      ["compile", "nothing/*.json", "--out-dir", "bundles"],
      ["compile", "-", "--out-dir", "bundles"],
      ["compile", "schemas", "--out-dir", "bundles", "--name", "one"],
      ["compile", "schemas", "other", "--out-dir", "bundles"],
    ];
    for (const args of cases) {
      const run = await strictwire(args, { cwd: dir });
      expect(run.code, args.join(" ")).toBe(2);
    }
    expect(await listDir(dir)).toEqual(["other", "schemas"]);
  });

  test("an --out-dir spelled through a link and '..' is the directory the kernel reaches, where mkdir made it", async () => {
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    // ./out holds a bundle kept from before; linked/../out is elsewhere/out, which does not exist yet.
    await mkdir(join(dir, "out"));
    await writeFile(join(dir, "out", "update-settings.bundle.json"), "kept");
    const run = await strictwire(["compile", "schemas/update-settings.json", "--out-dir", "linked/../out"], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(await readFile(join(dir, "out", "update-settings.bundle.json"), "utf8")).toBe("kept");
    expect((await readJson(join(dir, "elsewhere", "out", "update-settings.bundle.json"))).name).toBe("update-settings");
  });
});
