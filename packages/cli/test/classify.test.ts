import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { makeTempDir, readJson, removeDir, SETTINGS, SETTINGS_VALUE, STACK, strictwire, writeJson } from "./helpers.js";

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

  test("usage and environment errors exit 2: no input, a missing file, --ids without OPENAI_API_KEY", async () => {
    const ids = join(dir, "ids.txt");
    await writeFile(ids, "resp_1\n");
    const cases: [string[], string][] = [
      [["classify"], "--responses"],
      [["classify", "--responses", join(dir, "missing.json")], "no such file"],
      [["classify", "--ids", ids], "OPENAI_API_KEY"],
    ];
    for (const [args, message] of cases) {
      const run = await strictwire(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(STACK);
    }
  });
});
