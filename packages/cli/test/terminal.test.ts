/**
 * What only a terminal sees: colour and the progress counter. A child
 * process's pipes are never a TTY, so these run main() in-process with
 * streams that say they are one; every other CLI test spawns the binary.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Io } from "../src/io.js";
import { main } from "../src/main.js";
import { ANSI, makeTempDir, removeDir, SETTINGS, writeJson } from "./helpers.js";

interface Terminal {
  readonly io: Io;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

function terminal(env: Record<string, string> = {}, isTTY = true): Terminal {
  let out = "";
  let err = "";
  const io: Io = {
    stdout: {
      write: (text) => {
        out += text;
      },
      isTTY,
    },
    stderr: {
      write: (text) => {
        err += text;
      },
      isTTY,
    },
    stdinIsTTY: isTTY,
    readStdin: async () => new Uint8Array(),
    stdinChunks: async function* () {},
    env: { TERM: "xterm-256color", ...env },
  };
  return { io, stdout: () => out, stderr: () => err };
}

let dir: string;
let schema: string;
beforeEach(async () => {
  dir = await makeTempDir();
  schema = await writeJson(join(dir, "settings.json"), SETTINGS);
});
afterEach(async () => {
  await removeDir(dir);
});

describe("colour", () => {
  test("on a terminal, inspect and compile messages are coloured", async () => {
    const t = terminal();
    expect(await main(["inspect", schema], t.io)).toBe(0);
    expect(t.stdout()).toMatch(ANSI);
    expect(await main(["compile", schema, "-o", join(dir, "b.json")], t.io)).toBe(0);
    expect(t.stderr()).toMatch(ANSI);
  });

  test.each([
    ["NO_COLOR set", { NO_COLOR: "1" }, true],
    ["NO_COLOR set to the empty string", { NO_COLOR: "" }, true],
    ["a dumb terminal", { TERM: "dumb" }, true],
    ["no terminal", {}, false],
  ])("never with %s", async (_label, env, isTTY) => {
    const t = terminal(env, isTTY);
    expect(await main(["inspect", schema], t.io)).toBe(0);
    expect(await main(["compile", join(dir, "missing.json")], t.io)).toBe(2);
    expect(t.stdout() + t.stderr()).not.toMatch(ANSI);
  });
});

describe("progress", () => {
  test("compiling many files counts them on a terminal's stderr, and erases the counter", async () => {
    await mkdir(join(dir, "schemas"));
    await writeJson(join(dir, "schemas", "a.json"), SETTINGS);
    await writeJson(join(dir, "schemas", "b.json"), SETTINGS);
    const t = terminal({ NO_COLOR: "1" });
    expect(await main(["compile", join(dir, "schemas"), "--out-dir", join(dir, "out")], t.io)).toBe(0);
    expect(t.stderr()).toContain("[1/2]");
    expect(t.stderr()).toContain("[2/2]");
    expect(t.stderr()).toContain("\r\u001b[K");
  });

  test("is silent off a terminal", async () => {
    await mkdir(join(dir, "schemas"));
    await writeJson(join(dir, "schemas", "a.json"), SETTINGS);
    await writeJson(join(dir, "schemas", "b.json"), SETTINGS);
    const t = terminal({}, false);
    expect(await main(["compile", join(dir, "schemas"), "--out-dir", join(dir, "out")], t.io)).toBe(0);
    expect(t.stderr()).not.toContain("[1/2]");
  });
});

describe("classify's progress line", () => {
  async function log(): Promise<string> {
    const file = join(dir, "log.jsonl");
    const line = JSON.stringify({
      id: "r",
      tools: [{ type: "function", name: "f", strict: true, parameters: { type: "object" } }],
      output: [{ type: "function_call", name: "f", call_id: "c", arguments: "{}" }],
    });
    await writeFile(file, `${`${line}\n`.repeat(1200)}`);
    return file;
  }

  test("on a terminal it is drawn on stderr and erased at the end; stdout has only the results", async () => {
    const t = terminal();
    expect(await main(["classify", "--responses", await log(), "--workers", "1"], t.io)).toBe(0);
    expect(t.stderr()).toMatch(/records · [\d,]+ calls\/s · 0 findings · \d+% · \d+s left/);
    expect(t.stderr().endsWith("\r\u001b[K")).toBe(true);
    expect(t.stdout()).toBe("1200 tool call(s) checked, 0 your dispatcher cannot use\n");
  });

  test("with --json, or off a terminal, there is none", async () => {
    const file = await log();
    const json = terminal();
    expect(await main(["classify", "--responses", file, "--json", "--workers", "1"], json.io)).toBe(0);
    expect(json.stderr()).toBe("");
    const piped = terminal({}, false);
    expect(await main(["classify", "--responses", file, "--workers", "1"], piped.io)).toBe(0);
    expect(piped.stderr()).toBe("");
  });
});
