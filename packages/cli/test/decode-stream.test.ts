/**
 * decode --stream as a user runs it: a real child process whose standard
 * input is written in pieces, with pauses, while its output is read.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BIN,
  cleanEnv,
  makeTempDir,
  removeDir,
  SETTINGS,
  SETTINGS_VALUE,
  STACK,
  strictwire,
  writeJson,
} from "./helpers.js";

let dir: string;
let bundle: string;
let encoded: string;
beforeAll(async () => {
  dir = await makeTempDir();
  const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
  bundle = join(dir, "settings.bundle.json");
  expect((await strictwire(["compile", schema, "-o", bundle])).code).toBe(0);
  const run = await strictwire(["encode", bundle], { stdin: JSON.stringify(SETTINGS_VALUE) });
  expect(run.code).toBe(0);
  encoded = run.stdout.trim();
});
afterAll(async () => {
  await removeDir(dir);
});

/** The child, with its stdout lines as they arrive. */
function streaming(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    partial += text;
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  child.stdin.on("error", () => undefined); // a run that refused early stops reading
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  /** Resolves once stdout holds `count` lines (the test's own timeout bounds the wait). */
  const linesReach = (count: number): Promise<void> =>
    new Promise((done) => {
      const check = () => (lines.length >= count ? done() : waiters.push(check));
      check();
    });
  return { child, lines, exited, linesReach, stderr: () => stderr };
}

describe("decode --stream", () => {
  test("prints a partial line before standard input ends, then decode's own result line", async () => {
    const run = streaming(["decode", bundle, "--stream", "-"]);
    const cut = encoded.indexOf(",") > 0 ? encoded.indexOf(",") : Math.floor(encoded.length / 2);
    run.child.stdin.write(encoded.slice(0, cut));
    // The first piece alone gives a partial line while stdin is still open.
    await run.linesReach(1);
    expect(run.child.exitCode).toBeNull();
    const first = JSON.parse(run.lines[0]!) as { partial: unknown };
    expect(Object.keys(first)).toEqual(["partial"]);
    for (let at = cut; at < encoded.length; at += 7) {
      run.child.stdin.write(encoded.slice(at, at + 7));
      await new Promise((wait) => setTimeout(wait, 5));
    }
    run.child.stdin.end();
    expect(await run.exited).toBe(0);
    const whole = await strictwire(["decode", bundle], { stdin: encoded });
    // The last line is exactly what decode prints; every line before it is a partial.
    expect(run.lines.at(-1)).toBe(whole.stdout.trim());
    expect(JSON.parse(run.lines.at(-1)!)).toEqual(SETTINGS_VALUE);
    const partials = run.lines.slice(0, -1).map((line) => JSON.parse(line) as { partial: unknown });
    expect(partials.length).toBeGreaterThan(1);
    for (const line of partials) expect(Object.keys(line)).toEqual(["partial"]);
    // No line repeats its predecessor: one line per change.
    for (let i = 1; i < partials.length; i++) expect(partials[i]).not.toEqual(partials[i - 1]);
  });

  test("refuses a text that can no longer decode at once, with decode's code and exit 1, stdin still open", async () => {
    const run = streaming(["decode", bundle, "--stream", "--json"]);
    run.child.stdin.write('{"id": "abc" "');
    // The child exits while stdin stays open: it did not wait for EOF.
    const code = await run.exited;
    expect(code).toBe(1);
    const last = JSON.parse(run.lines.at(-1)!) as { ok: boolean; error: { code: string } };
    expect(last).toMatchObject({ ok: false, error: { code: "invalid-json" } });
    const whole = await strictwire(["decode", bundle, "--json"], { stdin: '{"id": "abc" "' });
    expect(whole.code).toBe(1);
    expect(JSON.parse(whole.stdout).error.code).toBe("invalid-json");
    expect(run.stderr()).toContain("invalid-json");
    expect(run.stderr()).not.toMatch(STACK);
    run.child.stdin.destroy();
  });

  test("a refusal only the whole text shows comes at the end, as decode gives it", async () => {
    const text = JSON.stringify({ ...JSON.parse(encoded), id: "x" }); // minLength 3: the contract, checked at the end
    const streamed = await strictwire(["decode", bundle, "--stream", "--json"], { stdin: text });
    const whole = await strictwire(["decode", bundle, "--json"], { stdin: text });
    expect(whole.code).toBe(1);
    expect(streamed.code).toBe(whole.code);
    expect(streamed.stdout.trim().split("\n").at(-1)).toBe(whole.stdout.trim());
  });
});
