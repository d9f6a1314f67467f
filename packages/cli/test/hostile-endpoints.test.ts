/**
 * Every command that reads an HTTP body (probe, eval, classify --ids), as a
 * user runs it: the built CLI in a child process against a server on
 * 127.0.0.1 that sends a body with no end, a body over the cap, or a redirect.
 * Each read stops at --max-response-bytes (a few MiB by default) with an
 * error naming the cap, closes the connection, and follows no redirect. And
 * the key: echoed in pieces it reaches no output; a key of one character
 * leaves a model named gpt-x alone in the report, the chart and the provenance.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../codec/src/kit/http.js";
import { type Hostile, type HostileServer, settled, startHostileServer } from "../../codec/test/kit/hostile-server.js";
import { type Script, startLoopback } from "../../eval/test/loopback.js";
import { makeTempDir, removeDir, SETTINGS, strictwire, writeJson } from "./helpers.js";

const KEY = "sk-live-DO-NOT-LEAK-hostile-4e1d9a";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function hostile(how: Hostile): Promise<HostileServer> {
  const s = await startHostileServer(how, 8000);
  cleanups.push(() => s.close());
  return s;
}

async function tempDir(): Promise<string> {
  const dir = await makeTempDir();
  cleanups.push(() => removeDir(dir));
  return dir;
}

const NO_STACK = /\n\s+at /;

/** A suite of two scenarios: an invalid request and a vague one. */
async function tinySuite(dir: string): Promise<string> {
  const suite = join(dir, "suite");
  await mkdir(join(suite, "tools"), { recursive: true });
  await writeFile(
    join(suite, "tools", "set_theme.json"),
    JSON.stringify({
      name: "set_theme",
      description: "Set the theme.",
      parameters: { type: "object", properties: { theme: { enum: ["light", "dark"] } }, additionalProperties: false },
    }),
  );
  const scenarios = [
    ["bad", "Make the theme purple.", { action: "reject" }],
    ["vague", "Change something.", { action: "clarify" }],
  ] as const;
  await writeFile(
    join(suite, "scenarios.json"),
    JSON.stringify({
      workflows: {
        prefs: { tool: "tools/set_theme.json", resource: "preferences", policy: "Light or dark.", state: {} },
      },
      scenarios: scenarios.map(([id, instruction]) => ({ id, workflow: "prefs", category: id, instruction })),
    }),
  );
  await writeFile(
    join(suite, "expected.json"),
    JSON.stringify({ expected: Object.fromEntries(scenarios.map(([id, , e]) => [id, e])) }),
  );
  return suite;
}

/** Every request refused through refuse_request, the response naming the given model. */
const refusing =
  (model: string, reason: string): Script =>
  () => ({ kind: "calls", model, calls: [{ name: "refuse_request", arguments: JSON.stringify({ reason }) }] });

describe("probe", { timeout: 120_000 }, () => {
  async function bundle(dir: string): Promise<string> {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const out = join(dir, "settings.bundle.json");
    const compiled = await strictwire(["compile", schema, "-o", out, "--target", "openai"]);
    expect(compiled.code, compiled.stderr).toBe(0);
    return out;
  }
  const probe = (file: string, url: string, extra: readonly string[] = []) =>
    strictwire(["probe", file, "--endpoint", `${url}/v1`, "--model", "m", "--retries", "2", "--json", ...extra], {
      env: { STRICTWIRE_API_KEY: KEY },
    });

  it("an endless body: exit 2, too-large at the default cap, one request, the connection closed", async () => {
    const file = await bundle(await tempDir());
    const s = await hostile({ kind: "endless" });
    const run = await probe(file, s.url);
    expect(run.code).toBe(2);
    const doc = JSON.parse(run.stdout) as { results: { verdict: string; reason: string; message: string }[] };
    expect(doc.results[0]).toMatchObject({ verdict: "failed", reason: "too-large" });
    expect(doc.results[0]?.message).toContain(`over the cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect(doc.results[0]?.message).toContain("--max-response-bytes");
    expect(s.hits).toHaveLength(1);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
    expect(run.stderr).not.toMatch(NO_STACK);
  });

  it("a body over --max-response-bytes fails; a redirect is not followed", async () => {
    const file = await bundle(await tempDir());
    const big = await hostile({ kind: "sized", bytes: 5000, status: 400 });
    const over = await probe(file, big.url, ["--max-response-bytes", "4096"]);
    expect(over.code).toBe(2);
    expect(JSON.parse(over.stdout)).toMatchObject({ results: [{ verdict: "failed", reason: "too-large" }] });
    const target = await hostile({ kind: "sized", bytes: 2, fill: "{}" });
    const moved = await hostile({ kind: "redirect", status: 301, location: `${target.url}/v1/chat/completions` });
    const redirected = await probe(file, moved.url);
    expect(redirected.code).toBe(2);
    expect(JSON.parse(redirected.stdout)).toMatchObject({ results: [{ verdict: "failed", reason: "redirect" }] });
    expect(target.hits).toEqual([]);
    const bad = await probe(file, big.url, ["--max-response-bytes", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-response-bytes must be an integer of at least 1 in decimal digits/);
  });
});

describe("eval", { timeout: 120_000 }, () => {
  const evalAt = (dir: string, url: string, extra: readonly string[] = [], key = KEY) =>
    strictwire(
      [
        "eval",
        "--endpoint",
        `${url}/v1`,
        "--model",
        "m",
        "--arms",
        "control",
        "--retries",
        "2",
        "--backoff",
        "1",
        "--out",
        join(dir, "r.jsonl"),
        "--json",
        ...extra,
      ],
      { env: { STRICTWIRE_API_KEY: key } },
    );

  it("an endless body: exit 2, response-too-large naming the default cap, the connection closed", async () => {
    const dir = await tempDir();
    const s = await hostile({ kind: "endless" });
    const run = await evalAt(dir, s.url);
    expect(run.code).toBe(2);
    const doc = JSON.parse(run.stdout) as { ok: boolean; error: { code: string; path: string; message: string } };
    expect(doc).toMatchObject({ ok: false, error: { code: "response-too-large", path: "" } });
    expect(doc.error.message).toContain(`over the cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect(doc.error.message).toContain("--max-response-bytes");
    expect(s.hits).toHaveLength(1);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
    expect(run.stderr).not.toMatch(NO_STACK);
  });

  it("a body over --max-response-bytes stops the run; a redirect is not followed", async () => {
    const dir = await tempDir();
    const big = await hostile({ kind: "sized", bytes: 5000 });
    const over = await evalAt(dir, big.url, ["--max-response-bytes", "4096"]);
    expect(over.code).toBe(2);
    expect(JSON.parse(over.stdout)).toMatchObject({ ok: false, error: { code: "response-too-large" } });
    const target = await hostile({ kind: "sized", bytes: 2, fill: "{}" });
    const moved = await hostile({ kind: "redirect", status: 303, location: `${target.url}/v1/chat/completions` });
    // The same --out again: the run before wrote no trial, so its file is replaced.
    const redirected = await evalAt(dir, moved.url);
    expect(redirected.code).toBe(2);
    expect(JSON.parse(redirected.stdout)).toMatchObject({ ok: false, error: { code: "redirected" } });
    expect(target.hits).toEqual([]);
  });

  it("with a one-character key, gpt-x stays gpt-x in the results, the report, the chart and the provenance", async () => {
    const dir = await tempDir();
    const server = await startLoopback(refusing("gpt-x", "x is not a theme"));
    cleanups.push(() => server.close());
    const md = join(dir, "report.md");
    const run = await strictwire(
      [
        "eval",
        "--endpoint",
        server.url,
        "--model",
        "gpt-x",
        "--suite",
        await tinySuite(dir),
        "--arms",
        "control",
        "--out",
        join(dir, "r.jsonl"),
        "--report",
        md,
      ],
      { env: { STRICTWIRE_API_KEY: "x" } },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = await readFile(join(dir, "r.jsonl"), "utf8");
    const provenance = JSON.parse(results.split("\n")[0] as string) as { type: string; model: string };
    expect(provenance).toMatchObject({ type: "run", model: "gpt-x" });
    expect(results).not.toContain("gpt-[redacted]");
    const report = await readFile(md, "utf8");
    expect(report, report).toContain("- Model: `gpt-x` as sent; answered as `gpt-x`");
    expect(report).not.toContain("[redacted]");
    const chart = await readFile(join(dir, "report.svg"), "utf8");
    expect(chart).toContain("gpt-x");
    expect(chart).not.toContain("[redacted]");
  });

  it("a server echoing prefixes, suffixes and middles of the key: none reaches the results, report or chart", async () => {
    const dir = await tempDir();
    const pieces = [KEY.slice(0, 11), KEY.slice(-8), KEY.slice(9, 21)];
    const server = await startLoopback(refusing(`gpt-${pieces[2]}`, `you sent ${pieces[0]}…${pieces[1]}`));
    cleanups.push(() => server.close());
    const md = join(dir, "report.md");
    const run = await strictwire(
      [
        "eval",
        "--endpoint",
        server.url,
        "--model",
        "m",
        "--suite",
        await tinySuite(dir),
        "--arms",
        "control,tagged",
        "--out",
        join(dir, "r.jsonl"),
        "--report",
        md,
        "--json",
      ],
      { env: { STRICTWIRE_API_KEY: KEY } },
    );
    expect(run.code, run.stderr).toBe(0);
    const outputs = [
      run.stdout,
      run.stderr,
      await readFile(join(dir, "r.jsonl"), "utf8"),
      await readFile(md, "utf8"),
      await readFile(join(dir, "report.svg"), "utf8"),
    ].join("\n");
    for (let i = 0; i + 8 <= KEY.length; i++) expect(outputs).not.toContain(KEY.slice(i, i + 8));
    expect(outputs, outputs).toContain("gpt-[redacted]");
  });
});

describe("classify --ids", { timeout: 120_000 }, () => {
  const classify = async (url: string, extra: readonly string[] = []) => {
    const dir = await tempDir();
    const ids = join(dir, "ids.txt");
    await writeFile(ids, "resp_1\n");
    return strictwire(["classify", "--ids", ids, "--json", ...extra], {
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url },
    });
  };
  const unreadable = (stdout: string) =>
    (JSON.parse(stdout) as { summary: { unreadable: { responseId: string; reason: string }[] } }).summary.unreadable;

  it("an endless body: the id is unreadable at the default cap, named, exit 2, the connection closed", async () => {
    const s = await hostile({ kind: "endless" });
    const run = await classify(s.url);
    expect(run.code).toBe(2);
    const [first] = unreadable(run.stdout);
    expect(first?.responseId).toBe("resp_1");
    expect(first?.reason).toContain(`over the cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    expect(first?.reason).toContain("--max-response-bytes");
    expect(s.hits).toHaveLength(1);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
    expect(run.stderr).not.toMatch(NO_STACK);
  });

  it("a body over --max-response-bytes is refused; a redirect is not followed; a bad cap is usage", async () => {
    const big = await hostile({ kind: "sized", bytes: 5000, declare: false });
    const over = await classify(big.url, ["--max-response-bytes", "4096"]);
    expect(over.code).toBe(2);
    expect(unreadable(over.stdout)[0]?.reason).toContain("over the cap of 4096 bytes");
    const target = await hostile({ kind: "sized", bytes: 2, fill: "{}" });
    const moved = await hostile({ kind: "redirect", status: 302, location: `${target.url}/responses/resp_1` });
    const redirected = await classify(moved.url);
    expect(redirected.code).toBe(2);
    expect(unreadable(redirected.stdout)[0]?.reason).toBe(
      `HTTP 302 redirect to ${new URL(target.url).host}, not followed`,
    );
    expect(target.hits).toEqual([]);
    const bad = await classify(big.url, ["--max-response-bytes", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-response-bytes must be an integer of at least 1 in decimal digits, not "lots"/);
  });
});
