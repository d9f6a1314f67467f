import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { BUILTIN_ARMS, BUNDLED_SUITE, loadOracle, loadSuite } from "../src/index.js";

describe("the bundled suite", () => {
  it("has at least 64 scenarios over at least 4 workflows, 8 in each category", async () => {
    const suite = await loadSuite(BUNDLED_SUITE);
    if (!suite.ok) expect.unreachable(suite.error.message);
    expect(suite.value.scenarios.length).toBeGreaterThanOrEqual(64);
    expect(suite.value.workflows.size).toBeGreaterThanOrEqual(4);
    const counts = new Map<string, number>();
    for (const s of suite.value.scenarios) counts.set(s.category, (counts.get(s.category) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      omission: 8,
      null: 8,
      update: 8,
      nested: 8,
      map: 8,
      union: 8,
      ambiguous: 8,
      invalid: 8,
    });
  });

  it("every expected update is valid under its contract and encodes in every strict arm", async () => {
    const suite = await loadSuite(BUNDLED_SUITE);
    if (!suite.ok) expect.unreachable();
    const oracle = await loadOracle(BUNDLED_SUITE, suite.value);
    if (!oracle.ok) expect.unreachable(oracle.error.message);
    let updates = 0;
    const codecs = new Map<string, ReturnType<typeof compileCodec>[]>();
    for (const s of suite.value.scenarios) {
      const e = oracle.value.expected.get(s.id);
      const w = suite.value.workflows.get(s.workflow);
      if (e?.action !== "update" || w === undefined) continue;
      updates += 1;
      let compiled = codecs.get(w.id);
      if (compiled === undefined) {
        compiled = (["tagged", "compact"] as const).map((presence) =>
          compileCodec(w.tool.parameters, { name: w.tool.name, presence }),
        );
        codecs.set(w.id, compiled);
      }
      for (const c of compiled) {
        if (!c.ok) expect.unreachable(c.error.message);
        expect(c.value.validate(e.arguments), s.id).toMatchObject({ ok: true });
        expect(c.value.encode(e.arguments).ok, `${s.id} ${c.value.name}`).toBe(true);
      }
    }
    expect(updates).toBe(48);
  });

  it("every workflow's tool prepares in every arm the API allows", async () => {
    const suite = await loadSuite(BUNDLED_SUITE);
    if (!suite.ok) expect.unreachable();
    for (const w of suite.value.workflows.values())
      for (const arm of BUILTIN_ARMS)
        for (const api of ["chat", "anthropic"] as const)
          if (arm.unavailable(api) === undefined)
            expect(arm.prepare(w.tool, api).ok, `${arm.name} ${w.id} ${api}`).toBe(true);
  });
});

describe("a suite that does not parse", () => {
  const scenarios = {
    workflows: { w: { tool: "tools/t.json", policy: "p" } },
    scenarios: [{ id: "a", workflow: "w", instruction: "do it" }],
  };
  const tool = { name: "t", parameters: { type: "object", properties: { x: { type: "string" } } } };

  async function suiteDir(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "strictwire-suite-"));
    await mkdir(join(dir, "tools"));
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it.each([
    ["a missing scenarios.json", {}, /scenarios\.json: cannot read it/],
    ["scenarios.json that is not JSON", { "scenarios.json": "{" }, /not JSON/],
    [
      "an unknown workflow",
      {
        "scenarios.json": JSON.stringify({
          ...scenarios,
          scenarios: [{ id: "a", workflow: "nope", instruction: "x" }],
        }),
        "tools/t.json": JSON.stringify(tool),
      },
      /must name a workflow/,
    ],
    [
      "a tool without parameters",
      { "scenarios.json": JSON.stringify(scenarios), "tools/t.json": JSON.stringify({ name: "t" }) },
      /parameters/,
    ],
  ])("%s is an invalid-suite error", async (_, files, message) => {
    const dir = await suiteDir(files);
    const r = await loadSuite(dir);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("invalid-suite");
      expect(r.error.message).toMatch(message);
    }
    await rm(dir, { recursive: true });
  });

  it.each([
    ["a path that climbs out", "../outside.json", /"\.\.\/outside\.json" is outside the suite folder/],
    ["an absolute path", "/etc/passwd", /"\/etc\/passwd" is outside the suite folder/],
    ["a symbolic link that leads out", "tools/link.json", /"tools\/link\.json" leads outside the suite folder/],
  ])("a tool file outside the suite folder is refused: %s", async (_, name, message) => {
    const dir = await suiteDir({
      "scenarios.json": JSON.stringify({ ...scenarios, workflows: { w: { tool: name, policy: "p" } } }),
    });
    const outside = `${dir}-outside.json`;
    await writeFile(outside, JSON.stringify(tool));
    await symlink(outside, join(dir, "tools", "link.json"));
    const r = await loadSuite(dir);
    expect(r).toMatchObject({ ok: false, error: { code: "invalid-suite", message: expect.stringMatching(message) } });
    await rm(dir, { recursive: true });
    await rm(outside);
  });

  it("a FIFO as a tool file or as scenarios.json is refused at once, not waited on", async () => {
    const dir = await suiteDir({ "scenarios.json": JSON.stringify(scenarios) });
    execFileSync("mkfifo", [join(dir, "tools", "t.json")]);
    const r = await loadSuite(dir);
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/t\.json: not a regular file/) } });
    await rm(join(dir, "scenarios.json"));
    execFileSync("mkfifo", [join(dir, "scenarios.json")]);
    const again = await loadSuite(dir);
    expect(again).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/scenarios\.json: not a regular file/) },
    });
    await rm(dir, { recursive: true });
  });

  it("an oracle missing a scenario, or answering an unknown one, is refused", async () => {
    const dir = await suiteDir({ "scenarios.json": JSON.stringify(scenarios), "tools/t.json": JSON.stringify(tool) });
    const suite = await loadSuite(dir);
    if (!suite.ok) expect.unreachable(suite.error.message);
    await writeFile(join(dir, "expected.json"), JSON.stringify({ expected: {} }));
    expect(await loadOracle(dir, suite.value)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/missing/) },
    });
    await writeFile(
      join(dir, "expected.json"),
      JSON.stringify({ expected: { a: { action: "clarify" }, b: { action: "reject" } } }),
    );
    expect(await loadOracle(dir, suite.value)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/no scenario/) },
    });
    await writeFile(join(dir, "expected.json"), JSON.stringify({ expected: { a: { action: "update" } } }));
    expect(await loadOracle(dir, suite.value)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/exact arguments/) },
    });
    await rm(dir, { recursive: true });
  });
});
