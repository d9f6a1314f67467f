/**
 * decode --stream (issue 28) as a user runs it: a real child process whose
 * standard input is written in pieces, with pauses, as a model's deltas arrive.
 * What is asserted is the order of events: a partial line, or a refusal,
 * before standard input has been closed.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import type { Bundle } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { digestOf } from "../../codec/src/bundle/bundle.js";
import { BIN, cleanEnv, makeTempDir, removeDir, SETTINGS, STACK, strictwire, writeJson } from "./helpers.js";

const VALUE = { id: "account-4821", labels: { team: "core", tier: "gold" } };

let dir: string;
let bundle: string;
/** VALUE's wire text, as encode prints it (without the newline). */
let wire: string;
beforeAll(async () => {
  dir = await makeTempDir();
  const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
  bundle = join(dir, "settings.bundle.json");
  expect((await strictwire(["compile", schema, "-o", bundle])).code).toBe(0);
  const run = await strictwire(["encode", bundle], { stdin: JSON.stringify(VALUE) });
  expect(run.code).toBe(0);
  wire = run.stdout.trimEnd();
});
afterAll(async () => {
  await removeDir(dir);
});

/** A running `strictwire` whose standard input the test writes piece by piece. */
class Streaming {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  readonly closed: Promise<number | null>;
  private readonly waiting = new Set<() => void>();

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (b: Buffer) => {
      this.stdout += b.toString("utf8");
      for (const wake of this.waiting) wake();
    });
    this.child.stderr.on("data", (b: Buffer) => {
      this.stderr += b.toString("utf8");
    });
    // The CLI closes its standard input when it refuses early: later writes meet a closed pipe.
    this.child.stdin.on("error", () => undefined);
    this.closed = new Promise((done) => this.child.on("close", done));
  }

  write(text: string | Uint8Array): void {
    this.child.stdin.write(text);
  }

  /** The complete stdout lines so far. */
  lines(): string[] {
    return this.stdout.split("\n").slice(0, -1);
  }

  /** The first complete stdout line that `wanted` holds for, once there is one (undefined if the run ends first). */
  async lineWhere(wanted: (line: string) => boolean): Promise<string | undefined> {
    for (let seen = 1; ; seen++) {
      const lines = await this.lineCount(seen);
      if (lines.length < seen) return lines.find(wanted);
      if (wanted(lines[seen - 1]!)) return lines[seen - 1];
    }
  }

  /** Resolves once `count` complete lines are on stdout (the test's timeout bounds the wait). */
  async lineCount(count: number): Promise<string[]> {
    while (this.lines().length < count) {
      await new Promise<void>((wake) => {
        const once = (): void => {
          this.waiting.delete(once);
          wake();
        };
        this.waiting.add(once);
        void this.closed.then(once);
      });
      if (this.child.exitCode !== null && this.lines().length < count) break;
    }
    return this.lines();
  }
}

const partialOf = (line: string): Record<string, unknown> =>
  (JSON.parse(line) as { partial: Record<string, unknown> }).partial;

describe("decode --stream", () => {
  test("prints a partial line while standard input is still open, then exactly decode's output", async () => {
    const run = new Streaming(["decode", "--stream", bundle, "-"]);
    // Up to the middle of the id: the partial shows the string written so far.
    const cut = wire.indexOf("4821");
    run.write(wire.slice(0, cut));
    const [first] = await run.lineCount(1);
    expect(run.child.exitCode).toBeNull();
    expect(run.child.stdin.writableEnded).toBe(false);
    expect(partialOf(first!)).toEqual({ id: "account-" });

    // All but the last character in pieces of 7 characters, with pauses.
    const last = wire.length - 1;
    for (let at = cut; at < last; at += 7) {
      run.write(wire.slice(at, Math.min(at + 7, last)));
      await sleep(15);
    }
    // The map appears as an object before the text ends: a partial with both labels, stdin still open.
    const labelled = await run.lineWhere((line) => isDeepStrictEqual(partialOf(line).labels, VALUE.labels));
    expect(labelled).toBeDefined();
    expect(run.child.exitCode).toBeNull();
    run.write(wire.slice(last));
    run.child.stdin.end();
    const code = await run.closed;
    const plain = await strictwire(["decode", bundle, "-"], { stdin: wire });

    expect(code).toBe(0);
    expect(plain.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.lines();
    expect(`${lines.at(-1)}\n`).toBe(plain.stdout);
    // Every line before the last is a partial consistent with the final value, each one different.
    const partials = lines.slice(0, -1).map(partialOf);
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(new Set(lines.slice(0, -1)).size).toBe(partials.length);
    for (const partial of partials) {
      // The source form: absent members (nickname, parent) never shown, the map as an object.
      expect(Object.keys(VALUE)).toEqual(expect.arrayContaining(Object.keys(partial)));
      expect(VALUE.id.startsWith(String(partial.id))).toBe(true);
      for (const [key, label] of Object.entries((partial.labels ?? {}) as Record<string, string>)) {
        expect(VALUE.labels[key as keyof typeof VALUE.labels].startsWith(label)).toBe(true);
      }
    }
  }, 60_000);

  test("with --json, the partial lines and then decode's one document", async () => {
    const run = new Streaming(["decode", "--stream", bundle, "-", "--json"]);
    run.write(wire.slice(0, wire.indexOf("4821")));
    await run.lineCount(1);
    expect(run.child.exitCode).toBeNull();
    run.write(wire.slice(wire.indexOf("4821")));
    run.child.stdin.end();
    expect(await run.closed).toBe(0);
    const plain = await strictwire(["decode", bundle, "--json"], { stdin: wire });
    const lines = run.lines();
    expect(partialOf(lines[0]!)).toEqual({ id: "account-" });
    expect(`${lines.at(-1)}\n`).toBe(plain.stdout);
  }, 60_000);

  test("refuses a text that can no longer be valid before standard input ends, as decode refuses it", async () => {
    for (const json of [false, true]) {
      const flags = json ? ["--json"] : [];
      const run = new Streaming(["decode", "--stream", bundle, "-", ...flags]);
      // The id written twice: no completion of this text is accepted.
      const prefix = '{"id":"account-4821","id":"acc';
      run.write(prefix);
      const code = await run.closed;
      expect(run.child.stdin.writableEnded).toBe(false);
      const plain = await strictwire(["decode", bundle, ...flags], { stdin: `${prefix}ount"}` });
      expect(code).toBe(1);
      expect(plain.code).toBe(1);
      expect(run.stderr).toBe(plain.stderr);
      expect(run.stderr).toContain("duplicate-key at /id");
      expect(run.stdout).toBe(plain.stdout);
    }
  }, 60_000);

  test("words an early refusal as the push does (the wire broken at a member), not as decode of the text cut short", async () => {
    for (const json of [false, true]) {
      const flags = json ? ["--json"] : [];
      const run = new Streaming(["decode", "--stream", bundle, "-", ...flags]);
      // No presence tag says "nope": refused at its "n", the text still open.
      const prefix = '{"id":"account-4821","nickname":{"state":"n';
      run.write(prefix);
      const code = await run.closed;
      expect(run.child.stdin.writableEnded).toBe(false);
      expect(code).toBe(1);
      // Decode of the bytes read says the text was never closed; the push says what no completion mends.
      const cut = await strictwire(["decode", bundle, "--json"], { stdin: prefix });
      expect((JSON.parse(cut.stdout) as { error: { code: string } }).error.code).toBe("invalid-json");
      const refusal = json
        ? (JSON.parse(run.stdout) as { ok: boolean; error: { code: string; path: string; feedback?: unknown } }).error
        : undefined;
      if (refusal !== undefined) {
        expect(refusal.code).toBe("wire-violation");
        expect(refusal.path).toBe("/nickname");
        expect(JSON.stringify(refusal)).not.toContain("never closed");
      } else {
        expect(run.stderr).toContain("wire-violation at /nickname");
        expect(run.stderr).not.toContain("never closed");
      }
    }
  }, 60_000);

  test("is held to the bundle's byte limit as it reads, refusing before standard input ends", async () => {
    const run = new Streaming(["decode", "--stream", bundle, "-", "--json"]);
    // Over the default limit of 1,000,000 bytes, in pieces: one long id still being written.
    run.write('{"id":"');
    const piece = "a".repeat(64 * 1024);
    for (let i = 0; i < 20; i++) run.write(piece);
    const code = await run.closed;
    expect(run.child.stdin.writableEnded).toBe(false);
    expect(code).toBe(1);
    const last = JSON.parse(run.lines().at(-1)!) as { ok: boolean; error: { code: string } };
    expect(last.ok).toBe(false);
    expect(last.error.code).toBe("input-too-large");
    expect(run.stderr).not.toMatch(STACK);
  }, 60_000);

  test("a broken call gets decode's output and exit code", async () => {
    const broken: (string | Uint8Array)[] = [
      // Well-formed JSON the wire schema forbids: refused at the end.
      '{"id":{"state":"bogus"},"nickname":{"state":"absent"},"labels":{"state":"absent"},"parent":{"state":"absent"}}',
      // Cut short.
      wire.slice(0, 20),
      "",
      // Ill-formed UTF-8 inside a string.
      Buffer.concat([Buffer.from('{"id":"acc'), Buffer.from([0xff]), Buffer.from('ount"}')]),
      // A value the contract refuses (id shorter than 3).
      wire.replace('"account-4821"', '"ab"'),
    ];
    for (const text of broken) {
      for (const flags of [[], ["--json"]]) {
        const streamed = await strictwire(["decode", "--stream", bundle, "-", ...flags], { stdin: text });
        const plain = await strictwire(["decode", bundle, "-", ...flags], { stdin: text });
        expect(plain.code, String(text)).toBe(1);
        expect(streamed.code, String(text)).toBe(1);
        expect(streamed.stderr).toBe(plain.stderr);
        expect(streamed.stderr).not.toMatch(STACK);
        // Partial lines may come first; the last line is decode's.
        expect(streamed.stdout.endsWith(plain.stdout)).toBe(true);
      }
    }
  }, 120_000);

  test("a file argument is read whole, as decode reads it, and streamed in pieces", async () => {
    const file = join(dir, "arguments.txt");
    await writeFile(file, wire);
    const streamed = await strictwire(["decode", "--stream", bundle, file]);
    const plain = await strictwire(["decode", bundle, file]);
    expect(streamed.code).toBe(0);
    const lines = streamed.stdout.split("\n").slice(0, -1);
    // One piece: the whole value shown once, then the result.
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ partial: VALUE }, VALUE]);
    expect(`${lines.at(-1)}\n`).toBe(plain.stdout);

    const missing = await strictwire(["decode", "--stream", bundle, join(dir, "missing.txt")]);
    const missingPlain = await strictwire(["decode", bundle, join(dir, "missing.txt")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(missingPlain.stderr);
    expect(missing.stdout).toBe("");
  }, 60_000);

  test("a bundle edited so that its wire and its plan disagree: still decode's output and exit code, never an internal error", async () => {
    // An edit no loader catches (the digest made to match): the wire's absent marker is no longer "absent".
    const edited = JSON.parse(await readFile(bundle, "utf8")) as Bundle;
    const marker = (edited.wire as { $defs: Record<string, { properties: { state: { const: string } } }> }).$defs
      .strictwire_absent;
    expect(marker?.properties.state.const).toBe("absent");
    marker!.properties.state.const = "gone";
    const file = await writeJson(join(dir, "edited.bundle.json"), { ...edited, digest: digestOf(edited) });
    for (const flags of [[], ["--json"]]) {
      const plain = await strictwire(["decode", file, "-", ...flags], { stdin: wire });
      const streamed = await strictwire(["decode", "--stream", file, "-", ...flags], { stdin: wire });
      expect(streamed.code).toBe(plain.code);
      expect(streamed.stderr).not.toMatch(/internal error/);
      expect(streamed.stderr).not.toMatch(STACK);
      // Partial lines may come first; the last line is decode's.
      expect(plain.stdout).not.toBe("");
      expect(streamed.stdout.endsWith(plain.stdout)).toBe(true);
    }
  }, 60_000);
});
