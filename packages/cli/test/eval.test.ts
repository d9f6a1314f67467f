/**
 * strictwire eval as a user runs it: the built CLI in a child process, against
 * a loopback server speaking the provider's wire format. No key or model is
 * ever needed.
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_ARMS, loadSuite, type TrialRecord, type Workflow } from "../../eval/src/index.js";
import { argumentsFor, armOf, type Loopback, type Seen, startLoopback, userMessage } from "../../eval/test/loopback.js";
import { EVAL_OPTIONS } from "../src/commands/eval-options.js";
import { BIN, makeTempDir, removeDir, strictwire } from "./helpers.js";

const KEY = "sk-live-DO-NOT-LEAK-51c2e0";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const TOOL = {
  name: "update_prefs",
  description: "Partially update preferences.",
  parameters: {
    type: "object",
    properties: { theme: { enum: ["light", "dark"] }, timezone: { type: ["string", "null"] } },
    additionalProperties: false,
  },
};
const SCENARIOS = [
  ["clear", "Clear my time zone.", { action: "update", arguments: { timezone: null } }],
  ["light", "Use the light theme.", { action: "update", arguments: { theme: "light" } }],
  ["vague", "Change something.", { action: "clarify" }],
  ["bad", "Make the theme purple.", { action: "reject" }],
] as const;

/** A user's own suite, as docs/model-evaluation.md describes it. */
async function ownSuite(dir: string): Promise<string> {
  const suite = join(dir, "suite");
  await mkdir(join(suite, "tools"), { recursive: true });
  await writeFile(join(suite, "tools", "update_prefs.json"), JSON.stringify(TOOL));
  await writeFile(
    join(suite, "scenarios.json"),
    JSON.stringify({
      workflows: {
        prefs: {
          tool: "tools/update_prefs.json",
          resource: "preferences",
          policy: "PATCH: absent keeps, null clears.",
          state: { theme: "dark", timezone: "UTC" },
        },
      },
      scenarios: SCENARIOS.map(([id, instruction]) => ({ id, workflow: "prefs", category: id, instruction })),
    }),
  );
  await writeFile(
    join(suite, "expected.json"),
    JSON.stringify({ expected: Object.fromEntries(SCENARIOS.map(([id, , e]) => [id, e])) }),
  );
  return suite;
}

/** A model that gets everything right, except that the strict arm writes an omission for "clear". */
async function scriptedModel(suiteDir: string, delayMs = 0): Promise<{ server: Loopback; workflows: Workflow[] }> {
  const suite = await loadSuite(suiteDir);
  if (!suite.ok) throw new Error(suite.error.message);
  const workflows = [...suite.value.workflows.values()];
  const w = workflows[0] as Workflow;
  const server = await startLoopback((seen) => {
    const arm = armOf(seen, workflows);
    const text = userMessage(seen);
    const update = (v: unknown) => ({
      kind: "calls" as const,
      delayMs,
      calls: [{ name: w.tool.name, arguments: argumentsFor(arm, w, v) }],
    });
    if (text.endsWith("Clear my time zone.")) return update(arm === "control" ? { timezone: null } : {});
    if (text.endsWith("Use the light theme.")) return update({ theme: "light" });
    if (text.endsWith("Change something."))
      return { kind: "calls", delayMs, calls: [{ name: "ask_clarification", arguments: '{"question":"What?"}' }] };
    return { kind: "calls", delayMs, calls: [{ name: "refuse_request", arguments: '{"reason":"no such theme"}' }] };
  });
  cleanups.push(() => server.close());
  return { server, workflows };
}

async function tempDir(): Promise<string> {
  const dir = await makeTempDir();
  cleanups.push(() => removeDir(dir));
  return dir;
}

describe("strictwire eval", () => {
  it("runs a user's suite, prints the report, writes results and a Markdown report, and never leaks the key", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const out = join(dir, "results.jsonl");
    const md = join(dir, "report.md");
    const args = [
      "eval",
      "--api",
      "chat",
      "--endpoint",
      server.url,
      "--model",
      "m",
      "--suite",
      suite,
      "--arms",
      "control,tagged",
    ];
    const run = await strictwire(
      [...args, "--out", out, "--report", md, "--price-in", "1", "--price-out", "2", "--json"],
      { env: { STRICTWIRE_API_KEY: KEY } },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      ok: boolean;
      report: { arms: { arm: string; exact: number; trials: number; vsControl?: unknown }[] };
    };
    expect(doc.ok).toBe(true);
    expect(doc.report.arms.map((a) => [a.arm, a.exact, a.trials])).toEqual([
      ["control", 4, 4],
      ["tagged", 3, 4],
    ]);
    expect(doc.report.arms[1]?.vsControl).toEqual({
      pairs: 4,
      wins: 0,
      losses: 1,
      gained: [],
      lost: [{ scenario: "clear", repetition: 0 }],
    });
    const results = await readFile(out, "utf8");
    const lines = results
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(["run", ...Array<string>(8).fill("trial")]);
    // Provenance: the host only (no scheme, path or key), the model as sent, the suite's digest, seed and arms.
    expect(lines[0]).toMatchObject({
      endpointHost: new URL(server.url).host,
      loopback: true,
      api: "chat",
      model: "m",
      seed: 1,
      repeat: 1,
      arms: ["control", "tagged"],
      suite: { digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), scenarios: 4 },
      strictwire: { version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });
    const report = await readFile(md, "utf8");
    // The report's first lines say where it came from, and that a loopback host is not a model.
    expect(report.split("\n").slice(0, 4).join("\n")).toMatch(/NOT A MODEL'S RESULT: the endpoint 127\.0\.0\.1:\d+/);
    expect(report).toContain(`- Endpoint: \`${new URL(server.url).host}\`, API \`chat\``);
    expect(report).toContain("![Exact-intent accuracy per arm with its 95% interval, and by category](report.svg)");
    const svg = await readFile(join(dir, "report.svg"), "utf8");
    expect(svg).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg /);
    expect(svg).toContain('data-arm="tagged" data-category="clear" data-exact="0" data-trials="1"');
    expect(report).toMatch(/\| control \| 4\/4 \|/);
    expect(report).toMatch(/Lost: 1/);
    // The lost scenario, with the raw arguments the model wrote.
    expect(report).toMatch(
      /\| clear \| 0 \| update_prefs `\{"theme":\{"state":"absent"\},"timezone":\{"state":"absent"\}\}` \|/,
    );
    for (const text of [run.stdout, run.stderr, results, report]) expect(text).not.toContain(KEY);
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);

    // The human table, from the same results (resumed: nothing is sent again).
    const before = server.seen.length;
    const table = await strictwire([...args, "--out", out, "--resume"], { env: { OPENAI_API_KEY: KEY } });
    expect(table.code).toBe(0);
    expect(server.seen.length).toBe(before);
    expect(table.stdout).toMatch(/^NOT A MODEL'S RESULT: the endpoint 127\.0\.0\.1:\d+ is a loopback host/);
    expect(table.stdout).toMatch(/\n8\/8 trials\n/);
    expect(table.stdout).toMatch(/\nclear +1\/1 100\.0% +0\/1 0\.0% \+0\/-1\n/);
    expect(table.stdout).toContain("\ntagged: lost 1 (clear); gained 0 (none)\n");
    expect(table.stdout).toMatch(/\ntagged +3\/4 +75\.0% \(/);
    expect(table.stdout + table.stderr).not.toContain(KEY);
  });

  it("--help shows the defaults the run uses, from one table: the default arms are the arms a run without --arms runs", async () => {
    const help = await strictwire(["eval", "--help"]);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, " ");
    for (const o of EVAL_OPTIONS)
      if (o.default !== undefined) expect(text).toContain(`${o.flag} ${o.description} (default: "${o.default}")`);
    expect(text).toContain(`--arms <list> comma-separated arms (default: "${DEFAULT_ARMS.join(",")}")`);

    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const out = join(dir, "r.jsonl");
    const run = await strictwire(["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--out", out], {
      env: { STRICTWIRE_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    const first = JSON.parse((await readFile(out, "utf8")).split("\n")[0] as string) as { arms: string[]; api: string };
    expect(first).toMatchObject({ arms: [...DEFAULT_ARMS], api: "chat" });
    expect(server.seen).toHaveLength(4 * DEFAULT_ARMS.length);
  });

  it.each([
    ["a bad number", ["--repeat", "0"], /--repeat must be an integer from 1 to 10000 in decimal digits/],
    // Planned before any request: 1e10 repetitions exhausted memory, 1e10 workers threw an internal RangeError.
    [
      "absurd repetitions",
      ["--repeat", "1e10"],
      /--repeat must be an integer from 1 to 10000 in decimal digits, not "1e10"/,
    ],
    [
      "absurd concurrency",
      ["--concurrency", "1e10"],
      /--concurrency must be an integer from 1 to 1024 in decimal digits, not "1e10"/,
    ],
    // A Node timer holds at most 2^31 - 1 ms: a longer timeout fired at once, timing out every request.
    [
      "a timeout no timer holds",
      ["--timeout", "1e12"],
      /--timeout must be an integer from 1 to 2147483647 in decimal digits/,
    ],
    [
      "a backoff no timer holds",
      ["--backoff", "2147483648"],
      /--backoff must be an integer from 0 to 2147483647 in decimal digits/,
    ],
    ["absurd retries", ["--retries", "1e9"], /--retries must be an integer from 0 to 100 in decimal digits/],
    // Sent as given before: an int32 is the most any provider takes; a temperature is 0 to 2 at the widest.
    [
      "absurd max tokens",
      ["--max-tokens", "1e300"],
      /--max-tokens must be an integer from 1 to 2147483647 in decimal digits, not "1e300"/,
    ],
    [
      "max tokens past an int32",
      ["--max-tokens", "2147483648"],
      /--max-tokens must be an integer from 1 to 2147483647 in decimal digits/,
    ],
    [
      "max tokens that are no number",
      ["--max-tokens", "NaN"],
      /--max-tokens must be an integer from 1 to 2147483647 in decimal digits/,
    ],
    [
      "an absurd temperature",
      ["--temperature", "1e300"],
      /--temperature must be a number from 0 to 2 in decimal digits \(e\.g\. 0\.5\), not "1e300"/,
    ],
    [
      "a temperature over 2",
      ["--temperature", "2.5"],
      /--temperature must be a number from 0 to 2 in decimal digits \(e\.g\. 0\.5\), not "2.5"/,
    ],
    [
      "a negative temperature",
      ["--temperature", "-1"],
      /--temperature must be a number from 0 to 2 in decimal digits \(e\.g\. 0\.5\), not "-1"/,
    ],
    [
      "a temperature that is no number",
      ["--temperature", "NaN"],
      /--temperature must be a number from 0 to 2 in decimal digits \(e\.g\. 0\.5\)/,
    ],
    ["an unknown arm", ["--arms", "control,magic"], /unknown arm "magic"/],
    ["an unknown api", ["--api", "soap"], /--api must be one of/],
    ["--max-cost without prices", ["--max-cost", "1"], /needs --price-in and --price-out/],
    ["a suite that does not parse", ["--suite", "."], /scenarios\.json: cannot read it/],
  ])("%s exits 2 with a clear message", async (_, extra, message) => {
    const dir = await tempDir();
    const run = await strictwire(
      ["eval", "--model", "m", "--endpoint", "http://127.0.0.1:9/v1", ...extra, "--out", join(dir, "r.jsonl")],
      {
        cwd: dir,
        env: { STRICTWIRE_API_KEY: KEY },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("no key, an unreachable endpoint, and results that exist without --resume exit 2", {
    timeout: 120_000,
  }, async () => {
    const dir = await tempDir();
    const noKey = await strictwire(["eval", "--api", "anthropic", "--model", "m"], { cwd: dir });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/no API key: set STRICTWIRE_API_KEY \(or ANTHROPIC_API_KEY\)/);

    const out = join(dir, "r.jsonl");
    const unreachableArgs = [
      "eval",
      "--api",
      "responses",
      "--model",
      "m",
      "--endpoint",
      "http://127.0.0.1:9/v1",
      "--retries",
      "0",
      "--arms",
      "control",
      "--out",
      out,
      "--json",
    ];
    const unreachable = await strictwire(unreachableArgs, { env: { STRICTWIRE_API_KEY: KEY } });
    expect(unreachable.code).toBe(2);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ ok: false, error: { code: "unreachable" } });
    expect(unreachable.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/v1/);

    // The same command again: the file it left holds no trial, so it is replaced, not "exists".
    const again = await strictwire(unreachableArgs, { env: { STRICTWIRE_API_KEY: KEY } });
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, error: { code: "unreachable" } });
    expect((await readFile(out, "utf8")).trim().split("\n")).toHaveLength(1);

    // With a budget that ends the retries: unreachable too, not 0 with 0 trials.
    const budget = await strictwire([...unreachableArgs, "--retries", "3", "--backoff", "1", "--max-requests", "2"], {
      env: { STRICTWIRE_API_KEY: KEY },
    });
    expect(budget.code).toBe(2);
    expect(JSON.parse(budget.stdout)).toMatchObject({ ok: false, error: { code: "unreachable" } });

    await writeFile(out, "");
    const exists = await strictwire(["eval", "--model", "m", "--out", out], { env: { STRICTWIRE_API_KEY: KEY } });
    expect(exists.code).toBe(2);
    expect(exists.stderr).toMatch(/exists: add --resume/);
  });

  it("resumes after a kill: every trial recorded exactly once, none sent again once recorded", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server, workflows } = await scriptedModel(suite, 120);
    const out = join(dir, "results.jsonl");
    const args = [
      "eval",
      "--api",
      "anthropic",
      "--endpoint",
      server.url,
      "--model",
      "m",
      "--suite",
      suite,
      "--arms",
      "control,tagged,native",
      "--repeat",
      "2",
      "--out",
      out,
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, STRICTWIRE_API_KEY: KEY },
      stdio: "ignore",
    });
    const exited = new Promise((done) => child.on("close", done));
    const lines = async (): Promise<string[]> =>
      (await readFile(out, "utf8").catch(() => "")).split("\n").filter((l) => l.startsWith('{"type":"trial"'));
    for (let i = 0; i < 200 && (await lines()).length < 5; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill("SIGKILL");
    await exited;
    const beforeKill = (await lines()).map((l) => (JSON.parse(l) as TrialRecord).key);
    expect(beforeKill.length).toBeGreaterThanOrEqual(5);
    expect(beforeKill.length).toBeLessThan(24);
    const sentBefore = server.seen.length;

    const resumed = await strictwire([...args, "--resume", "--json"], { env: { STRICTWIRE_API_KEY: KEY } });
    expect(resumed.code).toBe(0);
    const keys = (await lines()).map((l) => (JSON.parse(l) as TrialRecord).key);
    expect(keys).toHaveLength(24);
    expect(new Set(keys).size).toBe(24);
    // After the resume, no request was for a trial already recorded before the kill.
    const keyOf = (seen: Seen): string => {
      const scenario = SCENARIOS.find(([, instruction]) => userMessage(seen).endsWith(instruction))?.[0];
      return `${armOf(seen, workflows)}|${scenario}`;
    };
    const recordedPairs = new Map<string, number>();
    for (const k of beforeKill) {
      const pair = k.split("|").slice(0, 2).join("|");
      recordedPairs.set(pair, (recordedPairs.get(pair) ?? 0) + 1);
    }
    const sentAfter = new Map<string, number>();
    for (const s of server.seen.slice(sentBefore)) sentAfter.set(keyOf(s), (sentAfter.get(keyOf(s)) ?? 0) + 1);
    for (const [pair, n] of sentAfter) expect(n + (recordedPairs.get(pair) ?? 0), pair).toBe(2);
    expect([...sentAfter.values()].reduce((a, b) => a + b, 0)).toBe(24 - beforeKill.length);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ ok: true, report: { planned: 24, finished: 24 } });
  });
});

describe("eval never writes one output over another, or over its suite", () => {
  it("refuses, before any request, a --report (or its chart) that is the results file or a suite file", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const scenarios = join(suite, "scenarios.json");
    const suiteBefore = await readFile(scenarios);
    const base = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control", "--json"];
    for (const [out, report] of [
      [join(dir, "same.jsonl"), join(dir, "same.jsonl")],
      [join(dir, "r.svg"), join(dir, "r.md")],
      [join(dir, "r.jsonl"), scenarios],
    ] as const) {
      const run = await strictwire([...base, "--out", out, "--report", report], { env: { STRICTWIRE_API_KEY: KEY } });
      expect(run.code, report).toBe(2);
      expect(JSON.parse(run.stdout), report).toMatchObject({ ok: false, error: { code: "overwrites-input" } });
    }
    expect(server.seen).toHaveLength(0);
    expect((await readFile(scenarios)).equals(suiteBefore)).toBe(true);
  });
});

describe("eval's chart goes beside its report", () => {
  it("beside the report the kernel reaches through a link and '..', not beside its spelling", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    // A chart kept from before, where the spelling linked/../r.md would put the new one.
    await writeFile(join(dir, "r.svg"), "kept");
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control"];
    const run = await strictwire([...args, "--out", "r.jsonl", "--report", "linked/../r.md"], {
      cwd: dir,
      env: { STRICTWIRE_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(await readFile(join(dir, "r.svg"), "utf8")).toBe("kept");
    expect(await readFile(join(dir, "elsewhere", "r.md"), "utf8")).toContain("](r.svg)");
    expect(await readFile(join(dir, "elsewhere", "r.svg"), "utf8")).toMatch(/^<\?xml /);
  });
});

describe("eval reads the suite the kernel reaches", () => {
  it("--suite spelled through a link and '..' is the folder beside the link's target", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    const suite = await ownSuite(join(dir, "elsewhere"));
    const { server } = await scriptedModel(suite);
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    // linked/../suite is elsewhere/suite; there is no ./suite for the spelling to land in.
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", "linked/../suite", "--arms", "control"];
    const run = await strictwire([...args, "--out", "r.jsonl"], { cwd: dir, env: { STRICTWIRE_API_KEY: KEY } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(server.seen).toHaveLength(SCENARIOS.length);
  });
});

describe("eval's table shows the endpoint's words printable", () => {
  it("a model name the endpoint gives cannot forge a line or send an escape sequence", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const loaded = await loadSuite(suite);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const workflows = [...loaded.value.workflows.values()];
    const w = workflows[0] as Workflow;
    const server = await startLoopback((seen) => ({
      kind: "calls",
      model: "m\u001b[2J\n100/100 trials",
      calls: [{ name: w.tool.name, arguments: argumentsFor(armOf(seen, workflows), w, { theme: "light" }) }],
    }));
    cleanups.push(() => server.close());
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control"];
    const run = await strictwire([...args, "--out", join(dir, "r.jsonl")], { env: { STRICTWIRE_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).not.toMatch(/^100\/100 trials/m);
    expect(run.stdout).toContain("m\\u001b[2J\\u000a100/100 trials");
  });
});

describe("eval --resume reads results it did not write", () => {
  it("a trial line edited out of shape is refused with results-file and its line, not an internal error", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const out = join(dir, "results.jsonl");
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control"];
    const env = { STRICTWIRE_API_KEY: KEY };
    expect((await strictwire([...args, "--out", out], { env })).code).toBe(0);
    const lines = (await readFile(out, "utf8")).trim().split("\n");
    // Line 3: a finished trial whose attempt lost its judgement (an edit, another tool, another version).
    const edited = JSON.parse(lines[2] as string) as { first: Record<string, unknown> };
    delete edited.first.judgement;
    lines[2] = JSON.stringify(edited);
    await writeFile(out, `${lines.join("\n")}\n`);
    const sent = server.seen.length;

    const run = await strictwire([...args, "--out", out, "--resume", "--json"], { env });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: "results-file" } });
    expect(run.stderr).toMatch(/results\.jsonl line 3: /);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(server.seen.length).toBe(sent);
  });
});

describe("eval --resume reads its results file line by line, each line bounded", () => {
  it("a line longer than any eval writes is refused with results-file, the file and the line, before any request", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const out = join(dir, "results.jsonl");
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control"];
    const env = { STRICTWIRE_API_KEY: KEY };
    await writeFile(out, "");
    // Line 1: a run of zero bytes one past the bound (a sparse file: cheap to make, costly to read whole).
    await truncate(out, 64 * 1024 * 1024 + 1);
    const run = await strictwire([...args, "--out", out, "--resume", "--json"], { env });
    expect(run.code).toBe(2);
    const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("results-file");
    expect(error.message).toBe(`${out} line 1: the line is longer than 67108864 bytes`);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(server.seen).toHaveLength(0);
  });
});

describe("eval, its standard output closed early", () => {
  it("ends by SIGPIPE, as a Unix tool does, with every trial recorded and no stack trace", async () => {
    const dir = await tempDir();
    const suite = await ownSuite(dir);
    const { server } = await scriptedModel(suite);
    const out = join(dir, "results.jsonl");
    const args = ["eval", "--endpoint", server.url, "--model", "m", "--suite", suite, "--arms", "control"];
    const child = spawn(process.execPath, [BIN, ...args, "--out", out], {
      env: { ...process.env, STRICTWIRE_API_KEY: KEY },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The reader is gone before the table (`| head` done, a consumer that died).
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString("utf8");
    });
    const signal = await new Promise((done) => child.on("close", (_code, signal) => done(signal)));
    expect(signal).toBe("SIGPIPE");
    expect(stderr).not.toMatch(/internal error|\n\s+at /);
    const trials = (await readFile(out, "utf8")).split("\n").filter((l) => l.startsWith('{"type":"trial"'));
    expect(trials).toHaveLength(SCENARIOS.length);
  });
});
