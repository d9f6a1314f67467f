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
import { readFileCapped, readLinesCapped, writeFileAtomic, writeTarget } from "../../src/kit/files.js";

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

describe("readLinesCapped", () => {
  const all = async (path: string, maxLineBytes: number, maxBytes: number) => {
    const items = [];
    for await (const item of readLinesCapped(path, { maxLineBytes, maxBytes })) items.push(item);
    return items;
  };

  test("lines as written, across reads: the last without its newline, a CR kept, a blank line counted", async () => {
    const file = join(dir, "f");
    const long = "y".repeat(100_000); // spans the 64 KiB reads
    await writeFile(file, `a\r\n\n${long}\nlast`);
    expect(await all(file, 100_000, 1 << 20)).toEqual([
      { ok: true, value: { number: 1, text: "a\r" } },
      { ok: true, value: { number: 2, text: "" } },
      { ok: true, value: { number: 3, text: long } },
      { ok: true, value: { number: 4, text: "last" } },
    ]);
  });

  test("a line one byte over its bound ends the lines with too-large naming it; so does a file over its bound", async () => {
    const file = join(dir, "f");
    await writeFile(file, `ok\n${"x".repeat(11)}\nnever\n`);
    const lines = await all(file, 10, 1 << 20);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      ok: false,
      error: { code: "too-large", path: file, line: 2, message: "the line is longer than 10 bytes" },
    });
    expect((await all(file, 11, 1 << 20)).every((item) => item.ok)).toBe(true);
    const whole = await all(file, 100, 10);
    expect(whole.at(-1)).toMatchObject({ ok: false, error: { code: "too-large", line: 1 } });
  });

  test("a FIFO or a directory is refused unopened; a missing file is not-found", async () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await all(fifo, 10, 10)).toMatchObject([{ ok: false, error: { code: "not-a-regular-file" } }]);
    expect(await all(dir, 10, 10)).toMatchObject([{ ok: false, error: { code: "not-a-regular-file" } }]);
    expect(await all(join(dir, "none"), 10, 10)).toMatchObject([{ ok: false, error: { code: "not-found" } }]);
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
