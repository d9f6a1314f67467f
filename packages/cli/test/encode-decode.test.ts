import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ANSI,
  BIN,
  ERROR_KEYS,
  jsonOf,
  makeTempDir,
  readJson,
  removeDir,
  SETTINGS,
  SETTINGS_VALUE,
  STACK,
  strictwire,
  writeJson,
} from "./helpers.js";

// One bundle and its encoded value for every test: no test changes either, and each spawn costs time.
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
  encoded = run.stdout;
});
afterAll(async () => {
  await removeDir(dir);
});

describe("encode", () => {
  test("prints the wire value as one line of JSON", async () => {
    const value = await writeJson(join(dir, "value.json"), SETTINGS_VALUE);
    const run = await strictwire(["encode", bundle, value]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(encoded);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(run.stdout.trimEnd()).not.toContain("\n");
    const wire = JSON.parse(run.stdout);
    expect(wire.id).toBe("abc");
    expect(wire.nickname).toEqual({ state: "present", value: null });
    expect(wire.labels).toEqual({ state: "present", value: [{ key: "team", value: "core" }] });
    expect(wire.parent).toEqual({ state: "absent" });
    expect(run.stderr).toBe("");
  });

  test("reads the value from standard input for - and for a missing argument", async () => {
    const dash = await strictwire(["encode", bundle, "-"], { stdin: JSON.stringify(SETTINGS_VALUE) });
    expect(dash.code).toBe(0);
    expect(dash.stdout).toBe(encoded); // and beforeAll encoded with no value argument
  });

  test("--json wraps the wire value", async () => {
    const run = await strictwire(["encode", bundle, "--json"], { stdin: JSON.stringify(SETTINGS_VALUE) });
    expect(run.code).toBe(0);
    expect(jsonOf(run)).toEqual({ ok: true, wire: JSON.parse(encoded) });
  });

  test("a value that breaks the schema is rejected, exit 1", async () => {
    const run = await strictwire(["encode", bundle, "--json"], { stdin: JSON.stringify({ id: "abc", extra: 1 }) });
    expect(run.code).toBe(1);
    const error = jsonOf(run).error as Record<string, unknown>;
    // The codec's issues come along, each with its path as a pointer and as steps.
    expect(Object.keys(error).sort()).toEqual([...ERROR_KEYS, "issues"].sort());
    expect(error.code).toBe("invalid-value");
    expect(error.issues).toContainEqual(expect.objectContaining({ path: "/extra", rule: "additionalProperties" }));
    expect(run.stderr).toContain("invalid-value");
  });

  test("a value file that is not JSON is rejected, exit 1", async () => {
    const run = await strictwire(["encode", bundle, "-"], { stdin: "{id: 'abc'}" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("invalid-json");
    expect(run.stderr).not.toMatch(STACK);
  });
});

describe("decode", () => {
  test("gives back the original value, from a file, from - and from standard input", async () => {
    const file = join(dir, "arguments.txt");
    await writeFile(file, encoded);
    for (const [args, stdin] of [
      [["decode", bundle, file], ""],
      [["decode", bundle, "-"], encoded],
      [["decode", bundle], encoded],
    ] as const) {
      const run = await strictwire(args, { stdin });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(SETTINGS_VALUE);
      expect(run.stdout + run.stderr).not.toMatch(ANSI);
    }
  });

  test("--json wraps the value", async () => {
    const run = await strictwire(["decode", bundle, "--json"], { stdin: encoded });
    expect(run.code).toBe(0);
    expect(jsonOf(run)).toEqual({ ok: true, value: SETTINGS_VALUE });
  });

  test("a duplicate key, as the model wrote it, is rejected: exit 1", async () => {
    const text =
      '{"id":"abc","id":"xyz","nickname":{"state":"absent"},"labels":{"state":"absent"},"parent":{"state":"absent"}}';
    const run = await strictwire(["decode", bundle, "--json"], { stdin: text });
    expect(run.code).toBe(1);
    const result = jsonOf(run);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: "duplicate-key", path: "/id" });
    expect((result.error as { feedback: string }).feedback).toContain("id");
  });

  test("the raw bytes reach the parser: invalid UTF-8 is rejected, not replaced", async () => {
    const wire = Buffer.from(encoded, "utf8");
    const at = wire.indexOf("abc");
    const bytes = Buffer.concat([wire.subarray(0, at), Buffer.from([0x61, 0xff, 0x62]), wire.subarray(at + 3)]);
    const run = await strictwire(["decode", bundle, "--json"], { stdin: bytes });
    expect(run.code).toBe(1);
    expect(jsonOf(run).error).toMatchObject({ code: "invalid-utf8" });
  });

  test("a text that breaks the wire schema is a wire violation, exit 1", async () => {
    const run = await strictwire(["decode", bundle, "--json"], { stdin: '{"id":"abc"}' });
    expect(run.code).toBe(1);
    expect(jsonOf(run).error).toMatchObject({ code: "wire-violation" });
    expect(run.stderr).toContain("wire-violation");
  });

  test("a wire-valid text that breaks the original contract is a contract violation, exit 1", async () => {
    const wire = JSON.parse(encoded);
    wire.id = "ab"; // minLength 3 is relaxed on the wire and enforced by the final validation
    const run = await strictwire(["decode", bundle, "--json"], { stdin: JSON.stringify(wire) });
    expect(run.code).toBe(1);
    const error = jsonOf(run).error as Record<string, string>;
    expect(error).toMatchObject({ code: "contract-violation", path: "/id" });
    expect(error.feedback).toContain("call settings again");
  });

  test("a damaged bundle is an environment error (exit 2), never blamed on the arguments", async () => {
    const damaged = await readJson(bundle);
    damaged.name = "renamed";
    const file = await writeJson(join(dir, "damaged.json"), damaged);
    const run = await strictwire(["decode", file, "--json"], { stdin: encoded });
    expect(run.code).toBe(2);
    expect(jsonOf(run).error).toMatchObject({ code: "digest-mismatch" });
  });

  test("a missing bundle, and standard input asked to feed both inputs, are usage errors", async () => {
    const missing = await strictwire(["decode", join(dir, "none.json")], { stdin: "{}" });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
    const twice = await strictwire(["decode", "-"], { stdin: "{}" });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("standard input can feed only one input");
  });
});

test("encode | decode is the identity, through a real pipe", async () => {
  const encode = spawn(process.execPath, [BIN, "encode", bundle], { stdio: ["pipe", "pipe", "inherit"] });
  const decode = spawn(process.execPath, [BIN, "decode", bundle], { stdio: ["pipe", "pipe", "inherit"] });
  encode.stdout.pipe(decode.stdin);
  encode.stdin.end(JSON.stringify(SETTINGS_VALUE));
  const chunks: Buffer[] = [];
  decode.stdout.on("data", (b: Buffer) => chunks.push(b));
  const code = await new Promise<number | null>((done) => decode.on("close", done));
  expect(code).toBe(0);
  expect(JSON.parse(Buffer.concat(chunks).toString("utf8"))).toEqual(SETTINGS_VALUE);
});
