import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ANSI, ERROR_KEYS, jsonOf, makeTempDir, removeDir, SETTINGS, STACK, strictwire, writeJson } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

/** An object schema with `optional` optional string members and `unions` required nullable ones. */
function schemaWith(optional: number, unions = 0): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < optional; i++) properties[`o${i}`] = { type: "string" };
  for (let i = 0; i < unions; i++) properties[`u${i}`] = { type: ["string", "null"] };
  return {
    type: "object",
    properties,
    required: Object.keys(properties).filter((k) => k.startsWith("u")),
    additionalProperties: false,
  };
}

/** Compiles schemas (by tool name) into bundles in one run of the binary; returns the bundle paths, in order. */
async function bundles(schemas: Record<string, unknown>, target: string): Promise<string[]> {
  const inputs: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) inputs.push(await writeJson(join(dir, `${name}.json`), schema));
  const out = join(dir, target);
  const run = await strictwire(["compile", ...inputs, "--out-dir", out, "--target", target]);
  expect(run.code, run.stderr).toBe(0);
  return Object.keys(schemas).map((name) => join(out, `${name}.bundle.json`));
}

describe("check: a set that fits", () => {
  test("exits 0 and says so, checked against the target the bundles were compiled for", async () => {
    const files = await bundles({ a: schemaWith(10), b: schemaWith(10) }, "anthropic");
    const run = await strictwire(["check", ...files]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("this set of 2 tools fits the anthropic target's limits\n");
    expect(run.stderr).toBe("");
  });

  test("--json: ok, the target, the tools and no findings", async () => {
    const files = await bundles({ a: schemaWith(3), b: SETTINGS }, "openai");
    const run = await strictwire(["check", ...files, "--target", "openai", "--json"]);
    expect(run.code).toBe(0);
    expect(jsonOf(run)).toEqual({
      ok: true,
      target: "openai",
      tools: [
        { name: "a", input: files[0] },
        { name: "b", input: files[1] },
      ],
      findings: [],
      // Optional members travel as presence tags: told apart by the constants of a shared first member.
      advisories: ["a", "b"].map((tool, i) => ({
        kind: "firstKeyReading",
        tool,
        reading: "shared-name-constants",
        path: expect.stringMatching(/^\/properties\//),
        member: "state",
        sites: 3,
        message: expect.stringContaining("undocumented reading"),
        probe: `strictwire probe ${files[i]} --api responses --model <model>`,
      })),
    });
  });

  test("a wire that passes OpenAI's first-key rule only by an unconfirmed reading: advised, with the probe that settles it", async () => {
    const files = await bundles(
      { a: schemaWith(3), closed: { type: "object", properties: { s: { type: "string" } }, required: ["s"] } },
      "openai",
    );
    const run = await strictwire(["check", ...files]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^firstKeyReading {2}a passes OpenAI's first-key rule only by an undocumented reading of it, that branches may share a first member name when its constants differ: .* share their first member state, told apart by its constants; .*: strictwire probe \S+a\.bundle\.json --api responses --model <model>$/,
    );
    expect(lines[1]).toBe("this set of 2 tools fits the openai target's limits");
  });

  test("Anthropic's grammar size: an advisory past 6,000 bytes of strict schemas, never a rejection", async () => {
    // 14 tools of 20 required members with long names: about 9,000 bytes of wire together.
    const big = (i: number) => {
      const properties: Record<string, unknown> = {};
      for (let k = 0; k < 20; k++) properties[`tool${i}_member_with_a_long_name_${k}`] = { type: "string" };
      return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
    };
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 7; i++) schemas[`t${i}`] = big(i);
    const files = await bundles(schemas, "anthropic");
    const run = await strictwire(["check", ...files]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^grammarSize {2}advisory: the strict schemas of this request come to \d+ bytes \(t0 \d+/);
    expect(lines[0]).toContain("not a refusal");
    expect(lines[1]).toBe("this set of 7 tools fits the anthropic target's limits");
    const json = await strictwire(["check", ...files, "--json"]);
    expect(json.code).toBe(0);
    const advisories = jsonOf(json).advisories as { kind: string; estimate: { bytes: number; level: string } }[];
    expect(advisories.map((a) => a.kind)).toEqual(["grammarSize"]);
    expect(advisories[0]!.estimate.bytes).toBeGreaterThan(7354);
    expect(advisories[0]!.estimate.level).toBe("over");
    // One of them alone is well under: no advisory.
    const one = await strictwire(["check", files[0]!, "--json"]);
    expect(jsonOf(one).advisories).toEqual([]);
  });
});

describe("check: a set that crosses a limit", () => {
  test("Anthropic's 24 optional parameters across the request: exit 1, one line per finding, a summary", async () => {
    // 10 each: every tool compiles alone, three together have 30.
    const files = await bundles({ a: schemaWith(10), b: schemaWith(10), c: schemaWith(10) }, "anthropic");
    const run = await strictwire(["check", ...files, "--target", "anthropic"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    // The total is the set's (10 + 10 + 10), not c's; the line says how to get under the cap.
    expect(lines[0]).toMatch(
      /^maxOptionalParameters {2}the request's tools together: 30 optional parameters \(a 10, b 10, c 10\)/,
    );
    expect(lines[0]).toContain("To fit: split these tools across requests");
    expect(lines[0]).toContain("at most 24");
    // The 25th optional parameter is c's fifth.
    expect(lines[0]).toContain("/properties/o4");
    expect(lines[1]).toBe("this set of 3 tools does not fit the anthropic target: 1 limit crossed");
    expect(run.stdout + run.stderr).not.toMatch(ANSI);
  });

  test("--json: the findings as data, and the first as a target-limit error", async () => {
    const files = await bundles({ a: schemaWith(10), b: schemaWith(10), c: schemaWith(10) }, "anthropic");
    const run = await strictwire(["check", ...files, "--json"]);
    expect(run.code).toBe(1);
    const report = jsonOf(run);
    expect(report).toMatchObject({ ok: false, target: "anthropic" });
    expect(report.tools).toEqual(["a", "b", "c"].map((name, i) => ({ name, input: files[i] })));
    expect(report.findings).toEqual([
      {
        limit: "maxOptionalParameters",
        measured: 30,
        max: 24,
        tool: "c",
        input: files[2],
        path: "/properties/o4",
        scope: "request",
        across: ["a", "b", "c"].map((tool) => ({ tool, measured: 10 })),
        message: expect.stringContaining("30 optional parameters"),
      },
    ]);
    const error = report.error as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(ERROR_KEYS);
    expect(error).toMatchObject({ code: "target-limit", path: "/properties/o4" });
  });

  test("several caps at once: optional and union parameters", async () => {
    const files = await bundles({ a: schemaWith(12, 9), b: schemaWith(13, 9) }, "anthropic");
    const run = await strictwire(["check", ...files, "--json"]);
    expect(run.code).toBe(1);
    const findings = jsonOf(run).findings as { limit: string; measured: number; max: number }[];
    expect(findings.map((f) => [f.limit, f.measured, f.max])).toEqual([
      ["maxOptionalParameters", 25, 24],
      ["maxUnionParameters", 18, 16],
    ]);
  });

  test("Anthropic's 20 strict tools", async () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 21; i++) schemas[`t${String(i).padStart(2, "0")}`] = schemaWith(0);
    const files = await bundles(schemas, "anthropic");
    const run = await strictwire(["check", ...files, "--json"]);
    expect(run.code).toBe(1);
    expect(jsonOf(run).findings).toEqual([
      expect.objectContaining({ limit: "maxStrictTools", measured: 21, max: 20, tool: "t20" }),
    ]);
  });
});

describe("check: what it will not judge (exit 2)", () => {
  test("a bundle compiled for another target than --target: its wire is not what that target gets", async () => {
    const files = await bundles({ a: SETTINGS }, "openai");
    const run = await strictwire(["check", ...files, "--target", "anthropic", "--json"]);
    expect(run.code).toBe(2);
    expect(jsonOf(run).error).toMatchObject({ code: "usage" });
    expect(run.stderr).toContain("was compiled for openai, not anthropic");
  });

  test("bundles of different targets and no --target", async () => {
    const [a] = await bundles({ a: SETTINGS }, "openai");
    const [b] = await bundles({ b: SETTINGS }, "gemini");
    const run = await strictwire(["check", a!, b!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("compiled for different targets (openai, gemini)");
  });

  test("two tools of one name", async () => {
    const [a] = await bundles({ a: SETTINGS }, "openai");
    const run = await strictwire(["check", a!, a!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("are both tool a");
  });

  test("a missing file, a damaged bundle, a file that is no bundle: exit 2, one JSON document, no stack", async () => {
    const [good] = await bundles({ a: SETTINGS }, "openai");
    const damaged = join(dir, "damaged.bundle.json");
    const bundle = JSON.parse(await readFile(good!, "utf8"));
    await writeJson(damaged, { ...bundle, name: "renamed" });
    const notJson = join(dir, "not.json");
    await writeFile(notJson, "{");
    for (const [file, code] of [
      [join(dir, "missing.json"), "not-found"],
      [damaged, "digest-mismatch"],
      [notJson, "invalid-bundle"],
    ] as const) {
      const run = await strictwire(["check", good!, file, "--json"]);
      expect(run.code).toBe(2);
      expect(jsonOf(run)).toMatchObject({ ok: false, error: { code } });
      expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).not.toMatch(STACK);
    }
  });

  test("no bundle at all, and an unknown target, are commander's usage errors", async () => {
    expect((await strictwire(["check"])).code).toBe(2);
    const [a] = await bundles({ a: SETTINGS }, "openai");
    const run = await strictwire(["check", a!, "--target", "mistral"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Allowed choices are openai, openai-finetuned, anthropic, gemini");
  });
});

describe("--strict auto: a tool over the target's limits", () => {
  /** Objects nested 11 deep: one past OpenAI's 10 levels. */
  function deep(): Record<string, unknown> {
    let schema: Record<string, unknown> = {
      type: "object",
      properties: { leaf: { type: "string" } },
      required: ["leaf"],
    };
    for (let i = 1; i < 11; i++) schema = { type: "object", properties: { down: schema }, required: ["down"] };
    return schema;
  }

  test("compile refuses it by default; with --strict auto it compiles with a loud warning, and check reports it", async () => {
    const schema = await writeJson(join(dir, "deep.json"), deep());
    const refused = await strictwire(["compile", schema]);
    expect(refused.code).toBe(1);
    const out = join(dir, "deep.bundle.json");
    const run = await strictwire(["compile", schema, "--strict", "auto", "-o", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: deep is over the target's limits \(maxNesting: .*strict mode OFF/);
    const json = await strictwire(["compile", schema, "--strict", "auto", "--json"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toContain("strict mode OFF");
    expect((jsonOf(json).nonStrict as { limit: string }).limit).toBe("maxNesting");

    const check = await strictwire(["check", out]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^nonStrict {2}deep is sent with strict mode OFF/);
    const checked = await strictwire(["check", out, "--json"]);
    expect((jsonOf(checked).advisories as { kind: string }[]).map((a) => a.kind)).toEqual(["nonStrict"]);
    expect(jsonOf(checked).findings).toEqual([]);
  });
});

describe("check --answer: the answer format counts in the request's caps", () => {
  test("a tool and an answer that fit apart cross Anthropic's optional-parameter cap together", async () => {
    const [tool, answer] = await bundles({ a: schemaWith(15), triage: schemaWith(15) }, "anthropic");
    expect((await strictwire(["check", tool!])).code).toBe(0);
    expect((await strictwire(["check", "--answer", answer!])).stdout).toBe(
      "this answer format fits the anthropic target's limits\n",
    );
    const run = await strictwire(["check", tool!, "--answer", answer!, "--json"]);
    expect(run.code).toBe(1);
    const report = jsonOf(run);
    expect(report.answer).toEqual({ name: "triage", input: answer });
    expect(report.findings).toEqual([
      expect.objectContaining({
        limit: "maxOptionalParameters",
        measured: 30,
        max: 24,
        scope: "request",
        tool: "triage (answer format)",
        input: answer,
        across: [
          { tool: "a", measured: 15 },
          { tool: "triage (answer format)", measured: 15 },
        ],
      }),
    ]);
  });

  test("an answer compiled for another target than the tools is a usage error", async () => {
    const [tool] = await bundles({ a: schemaWith(2) }, "anthropic");
    const [answer] = await bundles({ triage: schemaWith(2) }, "openai");
    const run = await strictwire(["check", tool!, "--answer", answer!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("different targets");
  });
});
