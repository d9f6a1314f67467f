/**
 * compile --output-format: the structured-output request fragment for each
 * API, compiled for that API's target unless --target says otherwise.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { makeTempDir, removeDir, SETTINGS, strictwire, writeJson } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

async function fragment(api: string, ...more: string[]): Promise<Record<string, unknown>> {
  const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
  const run = await strictwire(["compile", schema, "--output-format", api, ...more]);
  expect(run.code, run.stderr).toBe(0);
  // The compile summary goes to stderr, as for a bundle; stdout is the fragment alone.
  expect(run.stderr).toContain("compiled settings");
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("compile --output-format", () => {
  test("chat: response_format, strict, named after the schema file, the openai wire", async () => {
    const out = await fragment("chat");
    const format = out.response_format as { type: string; json_schema: Record<string, unknown> };
    expect(Object.keys(out)).toEqual(["response_format"]);
    expect(format.type).toBe("json_schema");
    expect(format.json_schema).toMatchObject({ name: "settings", strict: true });
    // The openai wire: the optional member travels tagged.
    expect(JSON.stringify(format.json_schema.schema)).toContain('"state"');
  });

  test("responses: text.format", async () => {
    const out = await fragment("responses");
    expect((out.text as { format: Record<string, unknown> }).format).toMatchObject({
      type: "json_schema",
      name: "settings",
      strict: true,
    });
  });

  test("anthropic: output_config.format with the anthropic wire", async () => {
    const out = await fragment("anthropic");
    const format = (out.output_config as { format: Record<string, unknown> }).format;
    expect(format.type).toBe("json_schema");
    expect(JSON.stringify(format.schema)).not.toContain('"state"');
  });

  test("gemini: generationConfig with responseJsonSchema", async () => {
    const out = await fragment("gemini");
    expect(out.generationConfig).toMatchObject({ responseMimeType: "application/json" });
    expect((out.generationConfig as Record<string, unknown>).responseJsonSchema).toBeTypeOf("object");
  });

  test("a --target another API's answer format cannot take is refused with exit 2", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--output-format", "anthropic", "--target", "openai"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('compile it with target "anthropic"');
    expect(run.stdout).toBe("");
  });

  test("with --emit too is a usage error", async () => {
    const schema = await writeJson(join(dir, "settings.json"), SETTINGS);
    const run = await strictwire(["compile", schema, "--output-format", "chat", "--emit", "types"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--output-format or --emit");
  });
});
