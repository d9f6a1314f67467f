import { spawn } from "node:child_process";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { json, type StoredServer, startStoredServer, storedResponse } from "../../classifier/test/support/server.js";
import {
  BIN,
  cleanEnv,
  makeTempDir,
  readJson,
  removeDir,
  SETTINGS,
  SETTINGS_VALUE,
  STACK,
  strictwire,
  writeJson,
} from "./helpers.js";

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const CHARGE = {
  type: "object",
  additionalProperties: false,
  required: ["account_id", "amount_cents"],
  properties: { account_id: { type: "string" }, amount_cents: { type: "integer" } },
};

/** A stored Responses API response with one strict function call. */
function stored(id: string, args: string, parameters: unknown = CHARGE, name = "charge") {
  return {
    id,
    status: "completed",
    tools: [{ type: "function", name, strict: true, parameters }],
    output: [{ type: "function_call", name, call_id: `call_${id}`, arguments: args }],
  };
}

const GOOD = stored("resp_good", '{"account_id":"a","amount_cents":5}');
const BAD = stored("resp_bad", '{"account_id":"a","amount_cents":"5"}');

describe("classify", () => {
  test("clean calls: exit 0 and the summary on stdout", async () => {
    const file = await writeJson(join(dir, "responses.json"), [GOOD]);
    const run = await strictwire(["classify", "--responses", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 tool call(s) checked, 0 your dispatcher cannot use");
  });

  test("findings: exit 1, each with its repairs", async () => {
    const file = await writeJson(join(dir, "responses.json"), [GOOD, BAD]);
    const run = await strictwire(["classify", "--responses", file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^arguments-violate-schema +resp_bad charge\/call_resp_bad/m);
    expect(run.stdout).toContain("repair:");
    expect(run.stdout).not.toContain("resp_good");
  });

  test("--responses - reads JSON lines from standard input; --json --show-all lists every call and a summary", async () => {
    const lines = `${JSON.stringify(GOOD)}\n${JSON.stringify(BAD)}\n`;
    const run = await strictwire(["classify", "--responses", "-", "--json", "--show-all"], { stdin: lines });
    expect(run.code).toBe(1);
    const docs = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(docs.map((d) => d.state ?? "summary")).toEqual(["dispatchable", "arguments-violate-schema", "summary"]);
    expect(docs[2].summary).toMatchObject({ checked: 2, findings: 1 });
  });

  test("--bundles: calls of a strictwire tool are decoded and judged by the original contract", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    await mkdir(join(dir, "bundles"));
    const bundlePath = join(dir, "bundles", "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", bundlePath])).code).toBe(0);
    const wire = (await readJson(bundlePath)).wire;
    const encoded = (await strictwire(["encode", bundlePath], { stdin: JSON.stringify(SETTINGS_VALUE) })).stdout.trim();
    const broken = JSON.parse(encoded);
    broken.id = "ab"; // breaks the relaxed minLength: only the decoded value shows it
    const file = await writeJson(join(dir, "responses.json"), [
      stored("resp_ok", encoded, wire, "settings"),
      stored("resp_short", JSON.stringify(broken), wire, "settings"),
    ]);
    const run = await strictwire(["classify", "--responses", file, "--bundles", join(dir, "bundles")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^arguments-violate-schema +resp_short settings\//m);
    expect(run.stdout).toContain("1 your dispatcher cannot use");
  });

  test("--bundles reads a bundle through a symbolic link, as every other input is read", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    await mkdir(join(dir, "real"));
    await mkdir(join(dir, "bundles"));
    const real = join(dir, "real", "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", real])).code).toBe(0);
    // A bundles folder of links into where the bundles are built is a common layout.
    await symlink("../real/settings.bundle.json", join(dir, "bundles", "settings.bundle.json"));
    const encoded = (await strictwire(["encode", real], { stdin: JSON.stringify(SETTINGS_VALUE) })).stdout.trim();
    const chat = {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "settings", arguments: encoded } }],
          },
        },
      ],
    };
    const file = await writeJson(join(dir, "chat.json"), chat);
    const run = await strictwire(["classify", "--responses", file, "--bundles", join(dir, "bundles"), "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [call] = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(call).toMatchObject({ state: "dispatchable", declaredBy: "bundles" });
  });

  test("--bundles spelled through a link and '..' reads each bundle in the directory it listed", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    await mkdir(join(dir, "elsewhere", "deep"), { recursive: true });
    await mkdir(join(dir, "elsewhere", "bundles"));
    await symlink(join(dir, "elsewhere", "deep"), join(dir, "linked"));
    const real = join(dir, "elsewhere", "bundles", "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", real])).code).toBe(0);
    const wire = (await readJson(real)).wire;
    const encoded = (await strictwire(["encode", real], { stdin: JSON.stringify(SETTINGS_VALUE) })).stdout.trim();
    await writeJson(join(dir, "responses.json"), [stored("resp_ok", encoded, wire, "settings")]);
    // linked/../bundles is elsewhere/bundles; there is no ./bundles.
    const run = await strictwire(["classify", "--responses", "responses.json", "--bundles", "linked/../bundles"], {
      cwd: dir,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  test("text from the log cannot forge a line or reach the terminal as an escape sequence", async () => {
    // Ids, names and arguments are whatever the log holds: a newline, a screen clear, a colour.
    const hostile = stored("resp_x\nfake 0 tool call(s) checked\u001b[31m", '{"amount_cents":"\u001b[2J"}');
    const file = await writeJson(join(dir, "responses.json"), [
      { ...hostile, output: [{ ...hostile.output[0], name: "charge\u009b2J", call_id: "c\r1" }] },
      { id: "resp_bad\u001b]0;title\u0007", oops: "not a response" },
      "\u001b[2J",
    ]);
    const run = await strictwire(["classify", "--responses", file, "--show-all"]);
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      // Every line is the CLI's own: a state or note, a repair, or the summary.
      for (const line of text.trimEnd().split("\n"))
        expect(line).toMatch(/^(\S+ {2,}| {2}(repair|note): |\d+ tool call|\d+ record)/);
    }
    expect(run.stdout).toContain("resp_x\\u000afake");
  });

  test("usage and environment errors exit 2: no input, a missing file, --ids without OPENAI_API_KEY", async () => {
    const ids = join(dir, "ids.txt");
    await writeFile(ids, "resp_1\n");
    const cases: [string[], string][] = [
      [["classify"], "--responses"],
      [["classify", "--responses", join(dir, "missing.json")], "no such file"],
      [["classify", "--ids", ids], "OPENAI_API_KEY"],
      // A device never ends: refused unopened (a file or a pipe streams).
      [["classify", "--responses", "/dev/zero"], "not a regular file or a pipe"],
    ];
    for (const [args, message] of cases) {
      const run = await strictwire(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(STACK);
    }
  });
});

describe("classify at log scale", () => {
  /** Enough JSON lines for several batches on every worker, with findings and broken lines among them. */
  function log(count: number): string {
    const lines: string[] = [];
    for (let n = 1; n <= count; n++) {
      if (n % 101 === 0) lines.push(`{"id": "resp_${n}", oops`);
      else
        lines.push(JSON.stringify(stored(`resp_${n}`, `{"account_id":"a","amount_cents":${n % 9 === 0 ? '"x"' : n}}`)));
    }
    return `${lines.join("\n")}\n`;
  }

  test("--workers 2 prints exactly what --workers 1 prints, in input order; no progress off a terminal", async () => {
    const file = join(dir, "log.jsonl");
    // Past the records classified before the workers start (8192), and several batches for each.
    await writeFile(file, log(10_000));
    const one = await strictwire(["classify", "--responses", file, "--workers", "1", "--json", "--show-all"]);
    const two = await strictwire(["classify", "--responses", file, "--workers", "2", "--json", "--show-all"]);
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    const ids = one.stdout
      .trim()
      .split("\n")
      .slice(0, -1)
      .map((line) => Number(JSON.parse(line).responseId.slice(5)));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(one.stderr).toMatch(/^unreadable +#101 {2}line 101: invalid-json/m);
    // stderr is a pipe here: nothing but the unreadable lines, and no escape sequences.
    expect(one.stderr).not.toContain("\u001b");
    expect(one.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("unreadable"))).toEqual([]);
    const small = join(dir, "small.jsonl");
    await writeFile(small, log(300));
    const human = await strictwire(["classify", "--responses", small]);
    expect(human.stderr).not.toContain("\u001b");
    expect(human.stderr).not.toMatch(/calls\/s/);
  });

  test("a JSON array from standard input is read element by element; a broken element does not stop the run", async () => {
    const text = `[\n${JSON.stringify(GOOD)},\n{"id": 1 2},\n${JSON.stringify(BAD)}\n]\n`;
    const run = await strictwire(["classify", "--responses", "-", "--json"], { stdin: text });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^unreadable +#2 {2}line 3: invalid-json/);
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!).summary;
    expect(summary).toMatchObject({ checked: 2, findings: 1 });
  });

  test("--workers must be a whole number from 1", async () => {
    for (const bad of ["0", "two", "-1", "1.5"]) {
      const run = await strictwire(["classify", "--responses", "-", "--workers", bad], { stdin: "[]" });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--workers must be an integer from 1 to 9999 in decimal digits, not "${bad}"`);
      expect(run.stderr).not.toMatch(STACK);
    }
  });
});

describe("classify --ids --resume, killed and started again", () => {
  let server: StoredServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const response = (id: string) => json(storedResponse(id, '{"amount_cents": 1}'));

  test("the second run fetches only what the first did not finish, and together they cover every id", async () => {
    // d hangs the first time it is asked for, so the first run stops after a, b and c.
    server = await startStoredServer({
      a: () => response("a"),
      b: (n) => (n === 1 ? { status: 429, headers: { "retry-after": "0" } } : response("b")),
      c: (n) => (n === 1 ? { status: 502 } : response("c")),
      d: (n) => (n === 1 ? { ...response("d"), delayMs: 60_000 } : response("d")),
      e: () => response("e"),
      f: () => response("f"),
    });
    const ids = join(dir, "ids.txt");
    const journal = join(dir, "done.txt");
    await writeFile(ids, "a\nb\nc\nd\ne\nf\n");
    const env = { ...cleanEnv(), OPENAI_API_KEY: "sk-test-key", OPENAI_BASE_URL: server.baseUrl };
    const args = [BIN, "classify", "--ids", ids, "--resume", journal, "--json", "--show-all"];

    const first = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let firstOut = "";
    first.stdout.on("data", (b: Buffer) => {
      firstOut += b.toString("utf8");
    });
    const exited = new Promise((done) => first.on("close", done));
    for (let waited = 0; (await readText(journal)) !== "a\nb\nc\n"; waited += 50) {
      if (waited > 20_000) throw new Error(`the first run did not get to d: ${await readText(journal)}`);
      await sleep(50);
    }
    first.kill("SIGKILL");
    await exited;
    const firstHits = server.hits.length;

    const second = await strictwire(["classify", "--ids", ids, "--resume", journal, "--json", "--show-all"], {
      env: { OPENAI_API_KEY: "sk-test-key", OPENAI_BASE_URL: server.baseUrl },
    });
    expect(second.code).toBe(0);
    expect(
      server.hits
        .slice(firstHits)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(["d", "e", "f"]);
    const called = (text: string) =>
      text
        .split("\n")
        .filter((line) => line.startsWith('{"state"'))
        .map((line) => JSON.parse(line).responseId);
    expect(called(firstOut)).toEqual(["a", "b", "c"]);
    expect(called(second.stdout)).toEqual(["d", "e", "f"]);
    expect(await readText(journal)).toBe("a\nb\nc\nd\ne\nf\n");
  });
});

describe("classify --ids --resume, its output closed", () => {
  let server: StoredServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test("an id whose lines could not be written is not marked done: the run ends by SIGPIPE", async () => {
    const response = (id: string) => json(storedResponse(id, '{"amount_cents": 1}'));
    server = await startStoredServer(Object.fromEntries(["a", "b", "c", "d"].map((id) => [id, () => response(id)])));
    const ids = join(dir, "ids.txt");
    const journal = join(dir, "done.txt");
    await writeFile(ids, "a\nb\nc\nd\n");
    const env = { ...cleanEnv(), OPENAI_API_KEY: "sk-test-key", OPENAI_BASE_URL: server.baseUrl };
    const child = spawn(process.execPath, [BIN, "classify", "--ids", ids, "--resume", journal, "--json"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The reader is gone before the first line (a consumer that died, `| head` done): every write meets a closed pipe.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString("utf8");
    });
    const signal = await new Promise((done) => child.on("close", (_code, signal) => done(signal)));
    // Marked done, an id would be skipped by the next run, its results never seen by anyone.
    expect(await readText(journal)).toBe("");
    // As a Unix tool whose reader is gone: no message, no stack trace, status 141 in a shell.
    expect(signal).toBe("SIGPIPE");
    expect(stderr).not.toMatch(STACK);
  });
});
