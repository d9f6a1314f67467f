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

  test.each([
    [["frobnicate"], "strictwire --help"],
    [["compile", "--bogus"], "strictwire compile --help"],
    [["decode", "a", "b", "c"], "strictwire decode --help"],
    [["eval", "--model", "m", "--repeat", "none"], "strictwire eval --help"],
    [["compile", "a.json", "b.json"], "strictwire compile --help"],
    [["classify"], "strictwire classify --help"],
    [["classify", "--responses", "r.json", "--ids", "ids.txt"], "strictwire classify --help"],
  ])("strictwire %j points at %s (issue 31)", async (args, help) => {
    const run = await strictwire(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`(run "${help}" for usage)`);
    expect(run.stderr).not.toContain("strictwire help");
  });

  test("every command's help has a description line under its usage line", async () => {
    const top = await strictwire(["--help"]);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]!).filter((c) => c !== "help");
    expect(commands).toContain("classify");
    const runs = await Promise.all(commands.map((command) => strictwire([command, "--help"])));
    runs.forEach((run, i) => {
      expect(run.code).toBe(0);
      // Usage line, blank line, then a sentence, before the options.
      expect(run.stdout, commands[i]).toMatch(
        /^Usage: strictwire \S+.*\n\n[A-Z][^\n]+\n(?:[^\n]+\n)*\n(?:Arguments|Options):/,
      );
    });
  }, 90_000);

  test("the README's synopsis names every option each command's help lists", async () => {
    const readme = await readFile(new URL("../../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Command line"));
    const block = section.slice(section.indexOf("```\n") + 4, section.indexOf("\n```", section.indexOf("```\n") + 4));
    const synopsis = new Map<string, string>();
    let current: string | undefined;
    for (const line of block.split("\n")) {
      const head = /^strictwire (\S+)/.exec(line);
      if (head !== null) current = head[1]!;
      else if (!line.startsWith(" ")) current = undefined;
      if (current !== undefined) synopsis.set(current, `${synopsis.get(current) ?? ""} ${line}`);
    }
    const commands = [...synopsis.keys()];
    expect(commands).toEqual(expect.arrayContaining(["compile", "classify", "eval", "mcp-proxy"]));
    const runs = await Promise.all(commands.map((command) => strictwire([command, "--help"])));
    runs.forEach((run, i) => {
      const options = new Set(run.stdout.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []);
      options.delete("--help");
      const missing = [...options].filter((o) => !new RegExp(`${o}(?![a-z-])`).test(synopsis.get(commands[i]!)!));
      expect(missing, commands[i]).toEqual([]);
    });
  }, 90_000);

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
