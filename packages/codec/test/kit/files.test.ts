/**
 * `@strictwire/codec/files`: the one reader and writer of the user's files.
 * The CLI's tests run them through real child processes; these hold the
 * parts a command cannot show (the byte count, permissions kept).
 */
import { execFileSync } from "node:child_process";
import { chmod, lstat, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readFileCapped, writeFileAtomic, writeTarget } from "../../src/kit/files.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "strictwire-files-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readFileCapped", () => {
  test.runIf(process.platform === "linux")(
    "counts bytes as it reads: a procfs file whose size reads 0 still stops at the cap",
    async () => {
      expect((await stat("/proc/self/status")).size).toBe(0);
      const read = await readFileCapped("/proc/self/status", 16);
      expect(read).toMatchObject({ ok: false, error: { code: "too-large", path: "/proc/self/status" } });
      const whole = await readFileCapped("/proc/self/status", 1 << 20);
      expect(whole.ok && whole.value.byteLength > 16).toBe(true);
    },
  );

  test("a file exactly at the cap is read; one byte over is refused", async () => {
    const file = join(dir, "f");
    await writeFile(file, "x".repeat(100));
    expect(await readFileCapped(file, 100)).toMatchObject({ ok: true });
    expect(await readFileCapped(file, 99)).toMatchObject({ ok: false, error: { code: "too-large" } });
  });

  test("devices, FIFOs and directories are refused; a missing file is not-found", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    for (const [path, kind] of [
      ["/dev/zero", "a character device"],
      [fifo, "a FIFO"],
      [dir, "a directory"],
    ] as const) {
      expect(await readFileCapped(path, 1 << 20)).toEqual({
        ok: false,
        error: { code: "not-a-regular-file", path, message: `it is ${kind}, not a regular file` },
      });
    }
    expect(await readFileCapped(join(dir, "missing"), 10)).toMatchObject({ ok: false, error: { code: "not-found" } });
  });
});

describe("writeFileAtomic", () => {
  test("a replaced file keeps its permissions", async () => {
    const file = join(dir, "out.json");
    await writeFile(file, "old");
    await chmod(file, 0o640);
    expect(writeFileAtomic(file, "new")).toEqual({ ok: true, value: undefined });
    expect(await readFile(file, "utf8")).toBe("new");
    expect((await lstat(file)).mode & 0o777).toBe(0o640);
  });

  test("a name in a directory that does not exist is refused; nothing is created", async () => {
    const target = join(dir, "missing", "out.json");
    expect(writeTarget(target)).toMatchObject({ ok: false, error: { code: "write-failed", path: target } });
    expect(writeFileAtomic(target, "x")).toMatchObject({ ok: false, error: { code: "write-failed" } });
  });
});
