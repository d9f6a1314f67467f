import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, type RunProgress, runClassify } from "../src/index.js";
import { capture } from "./support/io.js";
import { json, type StoredServer, startStoredServer, storedResponse } from "./support/server.js";

const KEY = "sk-proj-NEVER-PRINT-9f8e7d6c5b4a";
const FAST = { baseDelayMs: 5, maxRetryWaitMs: 100, timeoutMs: 2_000 };
const pad = (state: string) => state.padEnd(27);

const GOOD = storedResponse("resp_good", '{"amount_cents": 1200}');
const BAD = storedResponse("resp_bad", '{"amount_cents": "1200"}');
const LOOSE = storedResponse("resp_loose", '{"amount_cents": 5}', false);
const PARALLEL = {
  id: "resp_par",
  tools: (GOOD as { tools: unknown }).tools,
  output: [
    { type: "function_call", name: "charge", call_id: "call_a", arguments: '{"amount_cents": 1}' },
    { type: "function_call", name: "refund", call_id: "call_b", arguments: "{}" },
  ],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "strictwire-classify-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function idsFile(text: string): Promise<string> {
  const path = join(dir, `ids-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(path, text);
  return path;
}

describe("offline runs", () => {
  test("the seed's lines: findings with repairs, notes, parallel calls, and the count", async () => {
    const c = capture();
    const code = await runClassify({ responsesText: JSON.stringify([GOOD, BAD, LOOSE, PARALLEL]) }, c.io);
    expect(code).toBe(EXIT_FINDINGS);
    expect(c.outLines()).toEqual([
      `${pad("arguments-violate-schema")} resp_bad charge/call_resp_bad  the arguments parse cleanly and break the ` +
        "declared schema in 1 place(s): arguments.amount_cents: expected integer, got string",
      expect.stringMatching(/^ {2}repair: Validate arguments against the tool schema before dispatch/),
      // charge is declared strict: it is not told to set strict, but what strict did not hold.
      expect.stringMatching(/^ {2}repair: The tool was declared with strict: true and this still got through/),
      `${pad("dispatchable-unconstrained")} resp_loose charge/call_resp_loose  this call matches the schema, but the ` +
        "tool was declared without strict: true, so nothing guaranteed that it would",
      "  note: This call was fine. Set strict: true on the tool anyway, because nothing about this response promised it would be.",
      `${pad("parallel-calls")} resp_par  2 call(s) in one turn`,
      `${pad("unknown-tool")} resp_par refund/call_b  the arguments parse cleanly and no tool named 'refund' was ` +
        "declared on this response. A dispatcher that indexes a handler map by name raises here, not at the parse.",
      expect.stringMatching(/^ {2}repair: Handle an unknown tool name explicitly/),
      expect.stringMatching(/^ {2}repair: Check that the tool list sent on this call matches the handler map/),
      "5 tool call(s) checked, 2 your dispatcher cannot use",
    ]);
    expect(c.err()).toBe("");
  });

  test("--show-all adds the dispatchable calls", async () => {
    const c = capture();
    expect(await runClassify({ responsesText: JSON.stringify(GOOD), showAll: true }, c.io)).toBe(EXIT_CLEAN);
    expect(c.outLines()).toEqual([
      `${pad("dispatchable")} resp_good charge/call_resp_good  parses and matches the declared schema`,
      "1 tool call(s) checked, 0 your dispatcher cannot use",
    ]);
  });

  test("a clean input exits 0 and prints only the count", async () => {
    const c = capture();
    expect(await runClassify({ responsesText: JSON.stringify([GOOD, LOOSE]) }, c.io)).toBe(EXIT_CLEAN);
    expect(c.outLines().at(-1)).toBe("2 tool call(s) checked, 0 your dispatcher cannot use");
  });

  test("JSON lines in, one JSON object per call out, every call, then the summary", async () => {
    const text = [GOOD, BAD, PARALLEL, 7].map((r) => JSON.stringify(r)).join("\n");
    const c = capture();
    expect(await runClassify({ responsesText: text, json: true }, c.io)).toBe(EXIT_FINDINGS);
    const objects = c.outLines().map((line) => JSON.parse(line));
    expect(objects).toHaveLength(5);
    expect(objects[0]).toEqual({
      state: "dispatchable",
      responseId: "resp_good",
      name: "charge",
      callId: "call_resp_good",
      detail: "parses and matches the declared schema",
      repairs: [],
      declaredBy: "response",
    });
    expect(Object.keys(objects[1])).toEqual([
      "state",
      "responseId",
      "name",
      "callId",
      "detail",
      "repairs",
      "declaredBy",
    ]);
    expect(objects[1].repairs).toHaveLength(2);
    expect(objects[4]).toEqual({
      summary: {
        checked: 4,
        findings: 2,
        byState: {
          "arguments-truncated": 0,
          "arguments-unparseable": 0,
          "unknown-tool": 1,
          "schema-invalid": 0,
          "arguments-violate-schema": 1,
          "dispatchable-unconstrained": 0,
          dispatchable: 2,
        },
        unreadable: [{ responseId: "#4", reason: "line 4: entry 4 is integer, not a response object" }],
        parallel: [{ responseId: "resp_par", calls: 2 }],
      },
    });
    expect(c.err()).toBe(`${pad("unreadable")} #4  line 4: entry 4 is integer, not a response object\n`);
  });

  test("a truncated response gets the truncation note, not a finding", async () => {
    const cut = {
      ...(storedResponse("resp_cut", '{"amount_c') as object),
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    };
    const c = capture();
    expect(await runClassify({ responsesText: JSON.stringify(cut) }, c.io)).toBe(EXIT_CLEAN);
    expect(c.outLines()[0]).toMatch(/^arguments-truncated {9}resp_cut charge\/call_resp_cut {2}the arguments string/);
    expect(c.outLines()[1]).toMatch(/^ {2}note: Not a schema problem/);
  });

  test("a record that is not JSON is unreadable with its line; the run goes on, and is incomplete: exit 2", async () => {
    const c = capture();
    const text = `{oops\n${JSON.stringify(LOOSE)}\n`;
    expect(await runClassify({ responsesText: text }, c.io)).toBe(EXIT_USAGE);
    expect(c.err()).toBe(
      `${pad("unreadable")} #1  line 1: invalid-json: unquoted member name "oops"\n` +
        "1 record(s) could not be read, so this check is incomplete\n",
    );
    expect(c.outLines().at(-1)).toBe("1 tool call(s) checked, 0 your dispatcher cannot use");
  });

  test("with findings, unreadable records still report, and the exit is the findings' 1", async () => {
    const c = capture();
    expect(await runClassify({ responsesText: `${JSON.stringify(BAD)}\nnope\n` }, c.io)).toBe(EXIT_FINDINGS);
    expect(c.err()).toMatch(/^unreadable {18}#2 {2}line 2: invalid-json/);
  });

  test("neither input, or both, is a usage error", async () => {
    const neither = capture();
    expect(await runClassify({}, neither.io)).toBe(EXIT_USAGE);
    expect(neither.err()).toContain("--responses");
    const both = capture();
    expect(await runClassify({ responsesText: "[]", idsFile: "ids.txt" }, both.io)).toBe(EXIT_USAGE);
    expect(both.err()).toContain("not both");
  });
});

describe("live runs against a real server", () => {
  let server: StoredServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const env = (s: StoredServer) => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: s.baseUrl });

  test("fetches the ids in order, reports a 404 as unreadable, and never prints the key", async () => {
    server = await startStoredServer({
      resp_good: () => ({ ...json(GOOD), delayMs: 50 }),
      resp_bad: () => json(BAD),
      resp_flaky: (n) => (n === 1 ? { status: 502 } : json(storedResponse("resp_flaky", '{"amount_cents": 2}'))),
    });
    const file = await idsFile("# last week\nresp_good\n\nresp_gone\nresp_bad\nresp_flaky\n");
    const c = capture(env(server));
    const code = await runClassify({ idsFile: file, showAll: true, fetch: FAST }, c.io);
    expect(code).toBe(EXIT_FINDINGS);
    expect(c.outLines().filter((line) => !line.startsWith("  "))).toEqual([
      `${pad("dispatchable")} resp_good charge/call_resp_good  parses and matches the declared schema`,
      expect.stringMatching(/^arguments-violate-schema {4}resp_bad charge\/call_resp_bad/),
      `${pad("dispatchable")} resp_flaky charge/call_resp_flaky  parses and matches the declared schema`,
      "3 tool call(s) checked, 1 your dispatcher cannot use",
    ]);
    expect(c.err()).toBe(
      `${pad("unreadable")} resp_gone  not found. Stored responses expire, and a response created without storage was never readable.\n`,
    );
    expect(server.hits.every((hit) => hit.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(c.out() + c.err()).not.toContain(KEY);
  });

  test("401 stops the run with a clear message and exit 2; the key is not printed though the body quotes it", async () => {
    const denied = () => json({ error: { message: `Incorrect API key provided: ${KEY}` } }, 401);
    server = await startStoredServer({ a: denied, b: denied });
    const c = capture(env(server));
    const code = await runClassify({ idsFile: await idsFile("a\nb\n"), json: true, fetch: FAST }, c.io);
    expect(code).toBe(EXIT_USAGE);
    expect(c.err()).toBe("401 from OpenAI: this needs a project key that can read stored responses\n");
    expect(c.out()).toBe("");
    expect(c.out() + c.err()).not.toContain(KEY);
  });

  test("403 stops the run too", async () => {
    server = await startStoredServer({ a: () => ({ status: 403 }) });
    const c = capture(env(server));
    expect(await runClassify({ idsFile: await idsFile("a\n"), fetch: FAST }, c.io)).toBe(EXIT_USAGE);
    expect(c.err()).toMatch(/^403 from OpenAI/);
  });

  test("a response that cannot be fetched leaves the check incomplete: exit 2 when nothing else was found", async () => {
    server = await startStoredServer({ resp_good: () => json(GOOD), down: () => ({ status: 503 }) });
    const c = capture(env(server));
    const code = await runClassify(
      { idsFile: await idsFile("resp_good\ndown\n"), fetch: { ...FAST, maxAttempts: 2 } },
      c.io,
    );
    expect(code).toBe(EXIT_USAGE);
    expect(c.err()).toContain(`${pad("unreadable")} down  HTTP 503, after 2 attempt(s)`);
    expect(c.err()).toContain("1 response(s) could not be read, so this check is incomplete");
    expect(c.outLines()).toEqual(["1 tool call(s) checked, 0 your dispatcher cannot use"]);
  });

  test("findings still exit 1 when another response could not be fetched", async () => {
    server = await startStoredServer({ resp_bad: () => json(BAD), slow: () => ({ ...json(GOOD), delayMs: 3_000 }) });
    const c = capture(env(server));
    const tuning = { ...FAST, timeoutMs: 80, maxAttempts: 1 };
    expect(await runClassify({ idsFile: await idsFile("slow\nresp_bad\n"), fetch: tuning }, c.io)).toBe(EXIT_FINDINGS);
    expect(c.err()).toContain("no answer within 80 ms, after 1 attempt(s)");
  });

  test("no key: exit 2 before any request", async () => {
    server = await startStoredServer({});
    const c = capture({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "  " });
    expect(await runClassify({ idsFile: await idsFile("a\n") }, c.io)).toBe(EXIT_USAGE);
    expect(c.err()).toBe("set OPENAI_API_KEY, a project key set to Read Only\n");
    expect(server.hits).toHaveLength(0);
  });

  test("a key with a space or line break inside is refused without being echoed", async () => {
    const c = capture({ OPENAI_API_KEY: `${KEY} extra` });
    expect(await runClassify({ idsFile: await idsFile("a\n") }, c.io)).toBe(EXIT_USAGE);
    expect(c.err()).toMatch(/^OPENAI_API_KEY holds spaces/);
    expect(c.err()).not.toContain(KEY);
  });

  test("a missing ids file: exit 2", async () => {
    const c = capture({ OPENAI_API_KEY: KEY });
    expect(await runClassify({ idsFile: join(dir, "no-such-ids.txt") }, c.io)).toBe(EXIT_USAGE);
    expect(c.err()).toMatch(/^cannot read the ids file \(not-found: no such file or directory\)/);
  });

  test("--resume: ids listed are skipped, the rest fetched and added; a failed id is left to the next run", async () => {
    server = await startStoredServer({
      a: () => json(storedResponse("a", '{"amount_cents": 1}')),
      b: () => json(storedResponse("b", '{"amount_cents": 2}')),
      c: () => ({ status: 503 }),
      d: () => json(storedResponse("d", '{"amount_cents": 4}')),
    });
    const journal = join(dir, "resume-1.txt");
    // "b" was classified by a run that was killed while writing "x" (no newline: not done).
    await writeFile(journal, "a\nb\nx");
    const c = capture(env(server));
    const code = await runClassify(
      { idsFile: await idsFile("a\nb\nc\nd\nx\n"), resumeFile: journal, fetch: { ...FAST, maxAttempts: 1 } },
      c.io,
    );
    expect(code).toBe(EXIT_USAGE); // c could not be fetched: incomplete
    expect(server.hits.map((hit) => hit.id)).toEqual(["c", "d", "x"]);
    expect(await readFile(journal, "utf8")).toBe("a\nb\nx\nd\nx\n");
    expect(c.outLines().at(-1)).toBe("1 tool call(s) checked, 0 your dispatcher cannot use");
  });

  test("--resume only goes with --ids, and must be a regular file", async () => {
    const offline = capture();
    expect(await runClassify({ responsesText: "[]", resumeFile: join(dir, "r.txt") }, offline.io)).toBe(EXIT_USAGE);
    expect(offline.err()).toContain("--resume goes with --ids");
    const live = capture({ OPENAI_API_KEY: KEY });
    expect(await runClassify({ idsFile: await idsFile("a\n"), resumeFile: dir }, live.io)).toBe(EXIT_USAGE);
    expect(live.err()).toMatch(/is not a regular file/);
    const ids = await idsFile("a\n");
    const same = capture({ OPENAI_API_KEY: KEY });
    expect(await runClassify({ idsFile: ids, resumeFile: ids }, same.io)).toBe(EXIT_USAGE);
    expect(same.err()).toBe("the resume file cannot be the ids file; name another\n");
    expect(await readFile(ids, "utf8")).toBe("a\n");
  });

  test("429 with Retry-After and 5xx are retried while later ids go on, and the output keeps the ids' order", async () => {
    server = await startStoredServer({
      first: (n) => (n === 1 ? { status: 429, headers: { "retry-after": "0.2" } } : json(GOOD)),
      second: (n) => (n === 1 ? { status: 500 } : json(BAD)),
      third: () => json(LOOSE),
      fourth: () => json(storedResponse("fourth", '{"amount_cents": 4}')),
    });
    const c = capture(env(server));
    const code = await runClassify(
      {
        idsFile: await idsFile("first\nsecond\nthird\nfourth\n"),
        json: true,
        fetch: { ...FAST, concurrency: 2, maxRetryWaitMs: 1_000 },
      },
      c.io,
    );
    expect(code).toBe(EXIT_FINDINGS);
    const ids = c.outLines().map((line) => JSON.parse(line).responseId ?? "summary");
    expect(ids).toEqual(["first", "second", "third", "fourth", "summary"]);
    const first = server.hits.filter((hit) => hit.id === "first");
    expect(first).toHaveLength(2);
    expect(first[1]!.at - first[0]!.at).toBeGreaterThanOrEqual(190);
    // While "first" waited out its Retry-After, the next ids were fetched.
    expect(server.hits.findIndex((hit) => hit.id === "fourth")).toBeLessThan(server.hits.lastIndexOf(first[1]!));
  });

  test("a live run tells the progress display after every response, and once more at the end", async () => {
    server = await startStoredServer({ resp_good: () => json(GOOD), resp_bad: () => json(BAD) });
    const c = capture(env(server));
    const told: RunProgress[] = [];
    const code = await runClassify(
      { idsFile: await idsFile("resp_good\nresp_bad\n"), fetch: FAST },
      { ...c.io, progress: (state) => told.push(state) },
    );
    expect(code).toBe(EXIT_FINDINGS);
    expect(told).toEqual([
      { records: 1, calls: 1, findings: 0, done: false },
      { records: 2, calls: 2, findings: 1, done: false },
      { records: 2, calls: 2, findings: 1, done: true },
    ]);
  });
});

test("an offline run tells the progress display every 512 records, with what was found written out first", async () => {
  const lines = Array.from({ length: 1100 }, (_, n) => JSON.stringify(n === 3 ? BAD : GOOD)).join("\n");
  let out = "";
  const told: { state: RunProgress; outSoFar: string }[] = [];
  await runClassify(
    { responsesText: lines },
    {
      stdout: (text) => {
        out += text;
      },
      stderr: () => undefined,
      env: {},
      progress: (state) => told.push({ state, outSoFar: out }),
    },
  );
  expect(told.map((t) => [t.state.records, t.state.done])).toEqual([
    [512, false],
    [1024, false],
    [1100, true],
  ]);
  expect(told[0]!.outSoFar).toContain("arguments-violate-schema");
});
