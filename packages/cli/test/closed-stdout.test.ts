/**
 * `strictwire … | head`: the reader of standard output goes away early. A real
 * child process whose stdout is a pipe the test closes. Every command that
 * writes results ends as a Unix tool does, by SIGPIPE (141 in a shell), at its
 * next write: quietly, without reading or computing on for no reader.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
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
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await removeDir(dir);
});

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function start(args: readonly string[]): { child: ChildProcessWithoutNullStreams; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => {
    stderr += b.toString("utf8");
  });
  // Once the child is gone, what is still being written to its stdin meets a closed pipe.
  child.stdin.on("error", () => undefined);
  const ended = new Promise<Ended>((done) => child.on("close", (code, signal) => done({ code, signal, stderr })));
  return { child, ended };
}

/** Reads stdout until `count` lines are in, then closes it, as `head -n count` does. */
function headOf(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  return new Promise((done) => {
    let text = "";
    const onData = (b: Buffer): void => {
      text += b.toString("utf8");
      const lines = text.split("\n");
      if (lines.length <= count) return;
      child.stdout.off("data", onData);
      child.stdout.destroy();
      done(lines.slice(0, count));
    };
    child.stdout.on("data", onData);
  });
}

const CHARGE = {
  type: "object",
  additionalProperties: false,
  required: ["amount_cents"],
  properties: { amount_cents: { type: "integer" } },
};

/** A stored response whose one call breaks its schema: a finding, so a few lines of output each. */
const finding = (i: number): string =>
  JSON.stringify({
    id: `resp_${i}`,
    status: "completed",
    tools: [{ type: "function", name: "charge", strict: true, parameters: CHARGE }],
    output: [{ type: "function_call", name: "charge", call_id: `call_${i}`, arguments: '{"amount_cents":"5"}' }],
  });

describe("standard output closed early", () => {
  test("classify stops at once, without waiting for the rest of its input", async () => {
    const { child, ended } = start(["classify", "--responses", "-", "--workers", "1"]);
    const head = headOf(child, 3);
    // Enough findings for output to be written while standard input stays open: the run cannot end by reaching its end.
    child.stdin.write(`${Array.from({ length: 2000 }, (_, i) => finding(i)).join("\n")}\n`);
    expect((await head)[0]).toMatch(/^arguments-violate-schema +resp_0 /);
    const run = await ended;
    expect(run.signal).toBe("SIGPIPE");
    expect(run.stderr).not.toMatch(STACK);
    child.stdin.destroy();
  });

  test("decode --stream stops at its next partial line, standard input still open", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const bundle = join(dir, "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", bundle])).code).toBe(0);
    const wire = (await strictwire(["encode", bundle], { stdin: JSON.stringify(SETTINGS_VALUE) })).stdout.trimEnd();
    const { child, ended } = start(["decode", "--stream", bundle, "-"]);
    const head = headOf(child, 1);
    const cut = wire.indexOf(",") + 1;
    child.stdin.write(wire.slice(0, cut));
    expect((await head)[0]).toMatch(/^\{"partial":/);
    // The rest, one character at a time: a changed partial value is written, and meets the closed pipe.
    let stopped = false;
    void ended.then(() => {
      stopped = true;
    });
    for (const char of wire.slice(cut)) {
      if (stopped) break;
      child.stdin.write(char);
      await new Promise((tick) => setImmediate(tick));
    }
    const run = await ended;
    expect(run.signal).toBe("SIGPIPE");
    expect(run.stderr).not.toMatch(STACK);
    child.stdin.destroy();
  });

  test("inspect, its reader gone before its output: SIGPIPE, not success", async () => {
    const schema = await writeJson(join(dir, "inspected.json"), SETTINGS);
    const { child, ended } = start(["inspect", schema]);
    child.stdout.destroy();
    const run = await ended;
    expect(run.signal).toBe("SIGPIPE");
    expect(run.stderr).toBe("");
  });
});
