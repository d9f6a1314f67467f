import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ANSI, ERROR_KEYS, jsonOf, makeTempDir, removeDir, STACK, strictwire } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe("help and version (exit 0, on stdout)", () => {
  test("--help lists every command", async () => {
    const run = await strictwire(["--help"]);
    expect(run.code).toBe(0);
    for (const command of ["compile", "encode", "decode", "inspect", "check", "classify"]) {
      expect(run.stdout).toMatch(new RegExp(`^ {2}${command} `, "m"));
    }
    expect(run.stdout).toContain("Exit codes: 0 success, 1 the input was rejected, 2 usage or environment error.");
  });

  test("help <command> and <command> --help", async () => {
    for (const args of [
      ["help", "compile"],
      ["compile", "--help"],
    ]) {
      const run = await strictwire(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage: strictwire compile [options] [schemas...]");
      expect(run.stdout).toContain("--out-dir <dir>");
    }
  });

  test("--version prints the package version", async () => {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    const run = await strictwire(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });
});

describe("usage errors (exit 2, on stderr, no stack trace)", () => {
  test.each([
    [[], "Usage: strictwire"],
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["compile", "--bogus"], "unknown option '--bogus'"],
    [["compile", "--target", "mars"], "Allowed choices are openai, openai-finetuned, anthropic, gemini"],
    [["encode"], "missing required argument 'bundle.json'"],
    [["decode", "a", "b", "c"], "too many arguments for 'decode'"],
    [["classify", "--responses"], "argument missing"],
  ])("strictwire %j", async (args, message) => {
    const run = await strictwire(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr).not.toMatch(ANSI);
  });

  test("with --json, commander's usage errors are also a JSON document on stdout", async () => {
    const run = await strictwire(["compile", "--json", "--bogus"]);
    expect(run.code).toBe(2);
    const doc = jsonOf(run);
    expect(doc.ok).toBe(false);
    expect(Object.keys(doc.error as object).sort()).toEqual(ERROR_KEYS);
    expect(doc.error).toMatchObject({ code: "usage", message: "unknown option '--bogus'" });
  });

  test("a directory where a file belongs", async () => {
    const run = await strictwire(["inspect", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("it is a directory");
  });
});
