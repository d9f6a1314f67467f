import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ANSI, jsonOf, makeTempDir, REFUSED, readJson, removeDir, SETTINGS, strictwire, writeJson } from "./helpers.js";

let dir: string;
let schema: string;
beforeEach(async () => {
  dir = await makeTempDir();
  schema = await writeJson(join(dir, "settings.json"), SETTINGS);
});
afterEach(async () => {
  await removeDir(dir);
});

interface Tree {
  at: string;
  kind: string;
  type: string;
  travels: string;
  optional?: boolean;
  presence?: string;
  def?: string;
  children: Tree[];
}

const child = (tree: Tree, at: string): Tree | undefined => tree.children.find((c) => c.at === at);

describe("inspect a schema", () => {
  test("--json: sizes in bytes and tokens, the ratio, the factored size, relaxed paths, the travel tree", async () => {
    const run = await strictwire(["inspect", schema, "--json"]);
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(doc).toMatchObject({ ok: true, from: "schema", name: "settings" });
    const sizes = doc.sizes as Record<string, { bytes: number; tokens: number }>;
    expect(sizes.source?.bytes).toBe(Buffer.byteLength(JSON.stringify(SETTINGS)));
    for (const key of ["source", "wire", "factored"]) {
      expect(Number.isInteger(sizes[key]?.tokens) && (sizes[key]?.tokens ?? 0) > 0, key).toBe(true);
    }
    expect(sizes.ratio?.bytes).toBeCloseTo((sizes.wire?.bytes ?? 0) / (sizes.source?.bytes ?? 1), 2);
    expect(doc.relaxed).toEqual([{ path: "/properties/id", keyword: "minLength", reason: expect.any(String) }]);

    const tree = doc.tree as Tree;
    expect(tree).toMatchObject({ at: "arguments", kind: "object" });
    expect(child(tree, "id")).toMatchObject({ type: "string", optional: false });
    expect(child(tree, "nickname")).toMatchObject({ type: "string | null", optional: true, presence: "tagged" });
    expect(child(tree, "labels")).toMatchObject({ kind: "map", travels: "entries [{key, value}]" });
    expect(child(tree, "parent")).toMatchObject({ kind: "ref", def: "node" });
    expect(doc.defs).toEqual([{ name: "node", tree: expect.objectContaining({ kind: "object" }) }]);
  });

  test("the human form: aligned sections, how each member travels, no colour off a terminal", async () => {
    const run = await strictwire(["inspect", schema]);
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^settings {2}openai · presence tagged · open objects close · \d+ nodes$/m);
    expect(out).toMatch(/^size +bytes +tokens$/m);
    expect(out).toMatch(/^relaxed {2}1 constraint left to the final validation$/m);
    expect(out).toMatch(/^how each member travels$/m);
    expect(out).toMatch(/^\$defs$/m);
    expect(out).toMatch(/^ {2}wire +[\d,]+ +[\d,]+ +×[\d.]+ bytes, ×[\d.]+ tokens$/m);
    expect(out).toMatch(/^ {2}\/properties\/id +minLength +/m);
    expect(out).toMatch(/├─ id +string +required$/m);
    expect(out).toMatch(/├─ nickname +string \| null +optional, tagged$/m);
    expect(out).toMatch(/├─ labels +map +optional, tagged · entries \[\{key, value\}\]$/m);
    expect(out).toMatch(/└─ parent +→ node +optional, tagged · reference to \$defs\/node$/m);
    expect(out + run.stderr).not.toMatch(ANSI);
  });

  test("a schema's member names and enum values cannot forge a line or send an escape sequence", async () => {
    // A schema is untrusted too (an MCP server's, a vendor's): its names are printed in the tree.
    const hostile = await writeJson(join(dir, "hostile.json"), {
      type: "object",
      properties: {
        "a\u001b[2J\nfake": { type: "string", minLength: 2 },
        mode: { enum: ["x\u001b]0;title\u0007", "y"] },
      },
    });
    const run = await strictwire(["inspect", hostile]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).not.toMatch(/^fake/m);
    expect(run.stdout).toContain("a\\u001b[2J\\u000afake");
  });

  test("compile options shape what is inspected: --presence compact", async () => {
    const run = await strictwire(["inspect", schema, "--presence", "compact", "--json"]);
    expect(run.code).toBe(0);
    const tree = jsonOf(run).tree as Tree;
    expect(child(tree, "labels")).toMatchObject({ presence: "compact" });
    // null already means something for nickname, so it stays tagged.
    expect(child(tree, "nickname")).toMatchObject({ presence: "tagged" });
  });

  test("reads standard input", async () => {
    const run = await strictwire(["inspect", "--json"], { stdin: JSON.stringify(SETTINGS) });
    expect(run.code).toBe(0);
    expect(jsonOf(run)).toMatchObject({ input: "standard input", name: "tool" });
  });

  test("a refused schema is exit 1", async () => {
    const refused = await writeJson(join(dir, "refused.json"), REFUSED);
    const run = await strictwire(["inspect", refused, "--json"]);
    expect(run.code).toBe(1);
    expect(jsonOf(run).error).toMatchObject({ code: "remote-ref" });
  });
});

interface Call {
  call: string;
  value?: unknown;
  wireValue?: unknown;
  source: { bytes: number; tokens: number } | null;
  wire?: { bytes: number; tokens: number };
  ratio?: number;
  reason?: string;
}

describe("inspect: the argument tokens of a typical call", () => {
  test("--json: one call with every optional member, one with the required only, each counted in both forms", async () => {
    const bundle = join(dir, "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", bundle])).code).toBe(0);
    const run = await strictwire(["inspect", bundle, "--json"]);
    expect(run.code).toBe(0);
    const calls = jsonOf(run).calls as Call[];
    expect(calls.map((c) => c.call)).toEqual(["all-optional", "required-only"]);
    const [full, required] = calls as [Call, Call];
    expect(Object.keys(full.value as object).sort()).toEqual(["id", "labels", "nickname", "parent"]);
    expect(Object.keys(required.value as object)).toEqual(["id"]);
    for (const c of calls) {
      const text = JSON.stringify(c.value);
      expect(c.source).toEqual({ bytes: Buffer.byteLength(text), tokens: countTokens(text) });
      expect(c.wire?.tokens).toBe(countTokens(JSON.stringify(c.wireValue)));
      expect(c.ratio).toBeCloseTo((c.wire?.tokens ?? 0) / (c.source?.tokens ?? 1), 2);
      // The wire value is the real wire form: the bundle decodes it back to the call.
      const decoded = await strictwire(["decode", bundle, "--json"], { stdin: JSON.stringify(c.wireValue) });
      expect(jsonOf(decoded)).toEqual({ ok: true, value: c.value });
    }
    // Left-out members cost tokens on the tagged wire: the required-only call writes more than its source.
    expect(required.wire!.tokens).toBeGreaterThan(required.source!.tokens);
  });

  test("compact presence writes fewer tokens for the same call", async () => {
    const tagged = jsonOf(await strictwire(["inspect", schema, "--json"])).calls as Call[];
    const compact = jsonOf(await strictwire(["inspect", schema, "--presence", "compact", "--json"])).calls as Call[];
    expect(compact[1]!.value).toEqual(tagged[1]!.value);
    expect(compact[1]!.wire!.tokens).toBeLessThan(tagged[1]!.wire!.tokens);
  });

  test("the human form: a line per call beside the size table", async () => {
    const run = await strictwire(["inspect", schema]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^a typical call {2}source +wire +\(argument tokens\)$/m);
    expect(run.stdout).toMatch(/^ {2}all optional +\d+ +\d+ +×[\d.]+ tokens$/m);
    expect(run.stdout).toMatch(/^ {2}required only +\d+ +\d+ +×[\d.]+ tokens$/m);
  });

  test("a schema the generator cannot satisfy says so, and the inspection still succeeds", async () => {
    const sha = await writeJson(join(dir, "sha.json"), {
      type: "object",
      properties: { sha: { type: "string", pattern: "^[0-9a-f]{40}$" } },
      required: ["sha"],
    });
    const run = await strictwire(["inspect", sha, "--json"]);
    expect(run.code).toBe(0);
    for (const c of jsonOf(run).calls as Call[]) {
      expect(c.source).toBeNull();
      expect(c.reason).toMatch(/no value/);
    }
    const human = await strictwire(["inspect", sha]);
    expect(human.stdout).toMatch(/^ {2}all optional +no call generated: /m);
  });
});

describe("inspect a bundle", () => {
  test("is detected by its format and inspected as it was compiled", async () => {
    const bundle = join(dir, "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", bundle, "--presence", "compact"])).code).toBe(0);
    const run = await strictwire(["inspect", bundle, "--json"]);
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(doc).toMatchObject({ from: "bundle", digest: (await readJson(bundle)).digest });
    expect(doc.options).toMatchObject({ presence: "compact" });
  });

  test("a compile option recompiles the bundle's source with it: --target anthropic travels natively", async () => {
    const bundle = join(dir, "settings.bundle.json");
    expect((await strictwire(["compile", schema, "-o", bundle])).code).toBe(0);
    const run = await strictwire(["inspect", bundle, "--target", "anthropic", "--json"]);
    expect(run.code).toBe(0);
    const doc = jsonOf(run);
    expect(doc).toMatchObject({ from: "bundle", name: "settings", options: { target: "anthropic" } });
    expect(child(doc.tree as Tree, "nickname")).toMatchObject({ optional: true, presence: "native" });
  });

  test("a damaged bundle is the input being judged: exit 1", async () => {
    const compiled = await strictwire(["compile", schema]);
    const damaged = { ...JSON.parse(compiled.stdout), description: "edited by hand" };
    await writeFile(join(dir, "damaged.json"), JSON.stringify(damaged));
    const run = await strictwire(["inspect", join(dir, "damaged.json"), "--json"]);
    expect(run.code).toBe(1);
    expect(jsonOf(run).error).toMatchObject({ code: "digest-mismatch" });
  });
});
