/**
 * Inputs that are not regular files. `stat().size` is 0 for devices, procfs
 * files and FIFOs, so a size check let `compile /dev/zero` fill memory and a
 * FIFO hang the run: what is not a regular file is refused before it is
 * opened, and what is read is counted as it is read.
 */
import { execFileSync } from "node:child_process";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { jsonOf, makeTempDir, type Run, removeDir, SETTINGS, strictwire, writeJson } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const errorOf = (run: Run) => jsonOf(run).error as { code: string; message: string };

describe("inputs that are not regular files are refused unopened", () => {
  test("compile /dev/zero: a typed error, not an endless read", async () => {
    const run = await strictwire(["compile", "/dev/zero", "--json"]);
    expect(run.code).toBe(2);
    expect(errorOf(run).code).toBe("not-a-regular-file");
    expect(run.stderr).toMatch(/\/dev\/zero: it is a character device, not a regular file/);
  });

  test("a FIFO as the schema or the arguments does not hang the run", async () => {
    const fifo = join(dir, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    const compiled = await strictwire(["compile", fifo, "--json"]);
    expect(compiled.code).toBe(2);
    expect(errorOf(compiled).code).toBe("not-a-regular-file");

    const bundle = join(dir, "s.bundle.json");
    expect((await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", bundle])).code).toBe(0);
    const decoded = await strictwire(["decode", bundle, fifo, "--json"]);
    expect(decoded.code).toBe(2);
    expect(errorOf(decoded).code).toBe("not-a-regular-file");
  });

  test("a symbolic link in --schema-dir to /dev/zero is refused", async () => {
    const schemas = join(dir, "schemas");
    await mkdir(schemas);
    await symlink("/dev/zero", join(schemas, "zero.json"));
    const schema = await writeJson(join(dir, "s.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--schema-dir", schemas, "--json"]);
    expect(run.code).toBe(2);
    expect(errorOf(run).code).toBe("not-a-regular-file");
    expect(run.stderr).toMatch(/zero\.json: it is a character device/);
  });

  test("compile --out-dir over a directory holding a link to /dev/zero: that one refused, the others compiled", async () => {
    const schemas = join(dir, "schemas");
    await mkdir(schemas);
    await symlink("/dev/zero", join(schemas, "a.json"));
    await writeJson(join(schemas, "b.json"), SETTINGS);
    const run = await strictwire(["compile", schemas, "--out-dir", join(dir, "out"), "--json"]);
    expect(run.code).toBe(2);
    const results = jsonOf(run).results as { ok: boolean; input: string; error?: { code: string } }[];
    expect(results.map((r) => [r.input.endsWith("a.json"), r.ok, r.error?.code])).toEqual([
      [true, false, "not-a-regular-file"],
      [false, true, undefined],
    ]);
  });

  test.runIf(process.platform === "linux")("a procfs file (stat size 0) is read and judged by its bytes", async () => {
    const run = await strictwire(["compile", "/proc/self/status", "--json"]);
    expect(run.code).toBe(1);
    expect(errorOf(run).code).toBe("invalid-json");
  });

  test("standard input stays supported", async () => {
    const run = await strictwire(["compile", "-", "--json"], { stdin: JSON.stringify(SETTINGS) });
    expect(run.code).toBe(0);
  });
});
