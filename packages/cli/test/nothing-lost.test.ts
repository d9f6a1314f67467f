/**
 * Nothing lost: `strictwire compile -o` never overwrites an input, and a run
 * that fails, or is killed with SIGKILL at any point, leaves the previous
 * output intact. The output is always either the old file, byte for byte, or
 * a complete new bundle. SIGKILL cannot be caught, so a run killed between
 * creating its temp file and renaming it leaves that temp file behind: such
 * files are hidden, named after the output and the dead process, and never
 * take the output's place. The test counts them and removes them.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, watch } from "node:fs";
import { link, lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { loadBundle } from "@strictwire/codec";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BIN, makeTempDir, REFUSED, removeDir, SETTINGS, strictwire, writeJson } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

/** A schema whose bundle is about 8 MB, so that writing it takes long enough to be interrupted. */
function bigSchema(): unknown {
  return {
    type: "object",
    description: "d".repeat(1_500_000),
    properties: {
      note: { type: "string", description: "n".repeat(500_000) },
      ids: { type: "array", items: { type: "integer" } },
    },
    required: ["note"],
    additionalProperties: false,
  };
}

const TEMP = /^\.out\.json\.\d+\.[0-9a-f]+\.tmp$/;

/** What the output is now: the previous bytes, or a complete bundle named `name` that loads. */
async function outputState(out: string, previous: Buffer, name: string): Promise<"old" | "new"> {
  const now = await readFile(out);
  if (now.equals(previous)) return "old";
  const loaded = loadBundle(new Uint8Array(now));
  if (!loaded.ok)
    throw new Error(`the output is neither the old file nor a bundle: ${loaded.error.code} (${now.length} bytes)`);
  expect(loaded.value.name).toBe(name);
  return "new";
}

interface Trial {
  readonly state: "old" | "new";
  readonly exit: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly sawTemp: boolean;
  readonly leftTemps: number;
}

/**
 * One run of compile -o, sent `sent` (SIGKILL unless named) `delay` ms after
 * its temp file appears (mid-write), or `delay` ms after it starts when
 * `afterStart` is set.
 */
async function killedRun(
  schema: string,
  out: string,
  name: string,
  delay: number,
  afterStart: boolean,
  sent: NodeJS.Signals = "SIGKILL",
): Promise<Trial> {
  const previous = await readFile(out);
  let sawTemp = false;
  let child: ChildProcess | undefined;
  const kill = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(sent);
  };
  const watcher = watch(dir, (_event, file) => {
    if (typeof file === "string" && TEMP.test(file) && !sawTemp) {
      sawTemp = true;
      if (!afterStart) setTimeout(kill, delay);
    }
  });
  const exited = new Promise<{ exit: number | null; signal: NodeJS.Signals | null }>((done) => {
    child = spawn(process.execPath, [BIN, "compile", schema, "-o", out, "--name", name], { stdio: "ignore" });
    child.on("exit", (exit, signal) => done({ exit, signal }));
  });
  if (afterStart) setTimeout(kill, delay);
  const { exit, signal } = await exited;
  watcher.close();
  const state = await outputState(out, previous, name);
  const temps = (await readdir(dir)).filter((f) => f.startsWith("."));
  for (const t of temps) {
    // Anything hidden left behind must be one of compile's own temp files, and never the output itself.
    expect(t).toMatch(TEMP);
    await rm(join(dir, t));
  }
  return { state, exit, signal, sawTemp, leftTemps: temps.length };
}

describe("compile -o killed at any point", () => {
  test("leaves the old output or a complete new one, never a part; temp files never replace it", {
    timeout: 600_000,
  }, async () => {
    const schema = await writeJson(join(dir, "big.json"), bigSchema());
    const out = join(dir, "out.json");
    // The previous output: a complete bundle of another schema.
    const first = await strictwire(["compile", await writeJson(join(dir, "small.json"), SETTINGS), "-o", out]);
    expect(first.code).toBe(0);

    const trials: Trial[] = [];
    // Killed while writing: right after the temp file appears, and a little later each time.
    for (const [i, delay] of [0, 0, 2, 5, 10, 20, 40, 80].entries()) {
      trials.push(await killedRun(schema, out, `mid_write_${i}`, delay, false));
    }
    // Killed by the clock: early (reading, compiling), and late (after the rename, or at exit).
    for (const [i, delay] of [50, 300, 1000, 2000, 4000].entries()) {
      trials.push(await killedRun(schema, out, `timed_${i}`, delay, true));
    }
    // An uninterrupted run still replaces the output, with nothing left behind.
    const done = await killedRun(schema, out, "complete", 600_000, true);
    expect(done).toMatchObject({ state: "new", exit: 0, leftTemps: 0 });

    const killed = trials.filter((t) => t.signal === "SIGKILL");
    expect(killed.length).toBeGreaterThan(5);
    // Some kills did land mid-write: the temp file existed and the output stayed the old one.
    expect(killed.some((t) => t.sawTemp && t.state === "old")).toBe(true);
    // A run that exited by itself succeeded, and replaced the output.
    for (const t of trials.filter((t) => t.signal === null)) expect(t).toMatchObject({ exit: 0, state: "new" });
    // Temp files are left only by runs killed after creating them: SIGKILL cannot be caught.
    for (const t of trials) if (t.leftTemps > 0) expect(t.signal === "SIGKILL" && t.sawTemp).toBe(true);
  });
});

describe("compile -o stopped by a signal it can catch", () => {
  test("SIGTERM, SIGINT or SIGHUP mid-write waits for the rename: the new output whole, no temp file left", {
    timeout: 300_000,
  }, async () => {
    const schema = await writeJson(join(dir, "big.json"), bigSchema());
    const out = join(dir, "out.json");
    expect((await strictwire(["compile", await writeJson(join(dir, "small.json"), SETTINGS), "-o", out])).code).toBe(0);
    const trials: Trial[] = [];
    for (const [i, signal] of (["SIGTERM", "SIGINT", "SIGHUP", "SIGTERM", "SIGINT", "SIGHUP"] as const).entries()) {
      trials.push(await killedRun(schema, out, `signalled_${i}`, 0, false, signal));
    }
    // Each signal was sent while the temp file existed, and still ended the run as that signal does.
    expect(trials.map((t) => [t.sawTemp, t.exit, t.signal])).toEqual(
      ["SIGTERM", "SIGINT", "SIGHUP", "SIGTERM", "SIGINT", "SIGHUP"].map((s) => [true, null, s]),
    );
    // Unlike SIGKILL, none of them left its temp file behind.
    expect(trials.map((t) => t.leftTemps)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("a failed run", () => {
  test("a refused schema leaves the previous output byte for byte, and no temp file", async () => {
    const out = join(dir, "out.json");
    expect((await strictwire(["compile", await writeJson(join(dir, "ok.json"), SETTINGS), "-o", out])).code).toBe(0);
    const before = await readFile(out);
    const run = await strictwire(["compile", await writeJson(join(dir, "refused.json"), REFUSED), "-o", out]);
    expect(run.code).not.toBe(0);
    expect((await readFile(out)).equals(before)).toBe(true);
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
  });

  test("an input that is not JSON leaves the previous output intact", async () => {
    const out = join(dir, "out.json");
    expect((await strictwire(["compile", await writeJson(join(dir, "ok.json"), SETTINGS), "-o", out])).code).toBe(0);
    const before = await readFile(out);
    const bad = join(dir, "bad.json");
    await writeFile(bad, '{"type": "object",');
    expect((await strictwire(["compile", bad, "-o", out])).code).not.toBe(0);
    expect((await readFile(out)).equals(before)).toBe(true);
  });

  test("an output that is a directory is refused and left as it was", async () => {
    const out = join(dir, "out.json");
    await mkdir(out);
    await writeFile(join(out, "keep.txt"), "keep");
    const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", out]);
    expect(run.code).not.toBe(0);
    expect((await stat(out)).isDirectory()).toBe(true);
    expect(await readFile(join(out, "keep.txt"), "utf8")).toBe("keep");
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
  });

  test("an output in a directory that does not exist creates nothing", async () => {
    const out = join(dir, "missing", "out.json");
    const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", out]);
    expect(run.code).not.toBe(0);
    expect(await readdir(dir)).toEqual(["s.json"]);
  });
});

describe("inputs are never overwritten", () => {
  test("not by name, symbolic link or hard link: refused, the input byte for byte as it was", async () => {
    const schema = await writeJson(join(dir, "s.json"), SETTINGS);
    const before = await readFile(schema);
    await symlink(schema, join(dir, "sym.json"));
    await link(schema, join(dir, "hard.json"));
    for (const out of [schema, join(dir, "sym.json"), join(dir, "hard.json"), join(dir, ".", "s.json")]) {
      const run = await strictwire(["compile", schema, "-o", out]);
      expect(run.code, out).not.toBe(0);
      expect((await readFile(schema)).equals(before), out).toBe(true);
    }
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
  });

  test("not through a '..' that only spelling cancels: the kernel's path is written, never the input", async () => {
    const schema = await writeJson(join(dir, "s.json"), SETTINGS);
    const before = await readFile(schema);
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    // Built by hand: path.join would cancel the '..' just as the bug did.
    // missing/.. names nothing; linked/.. is elsewhere/, so linked/../s.json is elsewhere/s.json.
    const viaMissing = await strictwire(["compile", "s.json", "-o", "missing/../s.json"], { cwd: dir });
    expect(viaMissing.code).toBe(2);
    expect((await readFile(schema)).equals(before)).toBe(true);
    const viaLink = await strictwire(["compile", "s.json", "-o", "linked/../s.json"], { cwd: dir });
    expect(viaLink.code).toBe(0);
    expect((await readFile(schema)).equals(before)).toBe(true);
    expect(loadBundle(new Uint8Array(await readFile(join(dir, "elsewhere", "s.json")))).ok).toBe(true);
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
  });
});

/**
 * Outputs that are not regular files: a rename would replace them (as root,
 * `-o /dev/null` once made /dev/null a regular file). A symbolic link is
 * written through; anything else but a regular file or nothing is refused.
 */
describe("outputs that are not regular files", () => {
  const refusedAs = (run: { code: number | null; stdout: string }) => {
    expect(run.code).toBe(2);
    return (JSON.parse(run.stdout) as { error: { code: string } }).error.code;
  };

  test("a FIFO is refused, stays a FIFO, and the run does not wait on it", async () => {
    const fifo = join(dir, "out.json");
    execFileSync("mkfifo", [fifo]);
    const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", fifo, "--json"]);
    expect(refusedAs(run)).toBe("not-a-regular-file");
    expect(run.stderr).toMatch(/out\.json: it is a FIFO, not a regular file/);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
  });

  test.runIf(process.platform === "linux")(
    "-o /dev/stdout (a descriptor's link) is refused: the file the shell opened for appending stays whole",
    async () => {
      const log = join(dir, "all.log");
      await writeFile(log, "kept line\n");
      const schema = await writeJson(join(dir, "s.json"), SETTINGS);
      // `strictwire compile s.json -o /dev/stdout >> all.log`: standard output is the log, opened to append.
      const fd = openSync(log, "a");
      const code = await new Promise<number | null>((done, failed) => {
        const child = spawn(process.execPath, [BIN, "compile", schema, "-o", "/dev/stdout"], {
          stdio: ["ignore", fd, "ignore"],
        });
        child.on("error", failed);
        child.on("close", done);
      });
      closeSync(fd);
      expect(code).toBe(2);
      expect((await readFile(log, "utf8")).startsWith("kept line\n")).toBe(true);
    },
  );

  test("a socket is refused and stays a socket", async () => {
    const path = join(dir, "out.sock");
    const server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", path, "--json"]);
      expect(refusedAs(run)).toBe("not-a-regular-file");
      expect((await lstat(path)).isSocket()).toBe(true);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  test.runIf(process.getuid?.() === 0)("as root, /dev/null is refused and stays a character device", async () => {
    const before = await lstat("/dev/null");
    const run = await strictwire([
      "compile",
      await writeJson(join(dir, "s.json"), SETTINGS),
      "-o",
      "/dev/null",
      "--json",
    ]);
    expect(refusedAs(run)).toBe("not-a-regular-file");
    const after = await lstat("/dev/null");
    expect(after.isCharacterDevice()).toBe(true);
    expect([after.ino, after.rdev]).toEqual([before.ino, before.rdev]);
  });

  test("a directory is refused with its own code", async () => {
    const out = join(dir, "out.json");
    await mkdir(out);
    const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", out, "--json"]);
    expect(refusedAs(run)).toBe("not-a-regular-file");
    expect((await lstat(out)).isDirectory()).toBe(true);
  });

  test("a symbolic link to a file is written through: the link stays, the file it names is replaced", async () => {
    const real = join(dir, "real", "bundle.json");
    await mkdir(join(dir, "real"));
    await writeFile(real, "old");
    await mkdir(join(dir, "links"));
    // A relative link, read from the link's own directory.
    const out = join(dir, "links", "out.json");
    await symlink("../real/bundle.json", out);
    const run = await strictwire(["compile", await writeJson(join(dir, "s.json"), SETTINGS), "-o", out]);
    expect(run.code).toBe(0);
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(await readlink(out)).toBe("../real/bundle.json");
    expect(loadBundle(new Uint8Array(await readFile(real))).ok).toBe(true);
    expect((await readdir(join(dir, "links"))).sort()).toEqual(["out.json"]);
    expect((await readdir(join(dir, "real"))).sort()).toEqual(["bundle.json"]);
  });

  test("a dangling symbolic link into a real directory creates the file it names; a link to a FIFO is refused", async () => {
    const out = join(dir, "out.json");
    await symlink(join(dir, "made.json"), out);
    const schema = await writeJson(join(dir, "s.json"), SETTINGS);
    expect((await strictwire(["compile", schema, "-o", out])).code).toBe(0);
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(loadBundle(new Uint8Array(await readFile(join(dir, "made.json")))).ok).toBe(true);

    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const toFifo = join(dir, "to-fifo.json");
    await symlink(fifo, toFifo);
    expect(refusedAs(await strictwire(["compile", schema, "-o", toFifo, "--json"]))).toBe("not-a-regular-file");
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect((await lstat(toFifo)).isSymbolicLink()).toBe(true);
  });

  test("compile --out-dir refuses a FIFO in the way and writes the other bundles", async () => {
    const out = join(dir, "out");
    await mkdir(out);
    execFileSync("mkfifo", [join(out, "a.bundle.json")]);
    const a = await writeJson(join(dir, "a.json"), SETTINGS);
    const b = await writeJson(join(dir, "b.json"), SETTINGS);
    const run = await strictwire(["compile", a, b, "--out-dir", out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/a\.bundle\.json: it is a FIFO, not a regular file/);
    expect((await lstat(join(out, "a.bundle.json"))).isFIFO()).toBe(true);
    expect(loadBundle(new Uint8Array(await readFile(join(out, "b.bundle.json")))).ok).toBe(true);
  });

  test("eval refuses a FIFO as --out or --report before any request", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const env = { STRICTWIRE_API_KEY: "sk-test-not-a-key" };
    // The endpoint is a closed port: a run that got as far as a request would fail differently.
    const endpoint = ["--endpoint", "http://127.0.0.1:9/v1"];
    for (const flags of [
      // --resume reads the results file first: a FIFO there once hung the run.
      ["--out", fifo, "--resume"],
      ["--out", join(dir, "results.jsonl"), "--report", fifo],
    ]) {
      const run = await strictwire(["eval", "--model", "m", ...endpoint, ...flags, "--json"], { env, cwd: dir });
      expect(refusedAs(run), flags.join(" ")).toBe("not-a-regular-file");
      expect((await lstat(fifo)).isFIFO()).toBe(true);
    }
    expect(await readdir(dir)).toEqual(["pipe"]);
  });
});
