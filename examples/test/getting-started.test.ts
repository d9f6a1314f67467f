/**
 * docs/getting-started.md: every step it shows whole from src/getting-started/ runs as a user would run it
 * (a child process, tsx, against its local stand-in server) and prints exactly the output the page shows.
 * That the page shows the files as they are is scripts/test/doc-blocks.test.ts.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { blocksOf } from "../../scripts/doc-blocks.js";

const run = promisify(execFile);
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const examples = fileURLToPath(new URL("..", import.meta.url));
const PREFIX = "file=examples/";

const steps = blocksOf("docs/getting-started.md")
  .map((b) => ({ file: b.marks.find((m) => m.startsWith(PREFIX))?.slice(PREFIX.length), output: b.output }))
  .filter(
    (s): s is { file: string; output: string } =>
      s.file?.startsWith("src/getting-started/") === true && s.output !== undefined,
  );

describe("docs/getting-started.md", { timeout: 120_000 }, () => {
  it("shows the output of the OpenAI Responses, Chat, Anthropic, Gemini and structured-output steps", () => {
    expect(steps.map((s) => s.file).sort()).toEqual(
      ["anthropic", "gemini", "openai-chat", "openai-responses", "structured-output"].map(
        (f) => `src/getting-started/${f}.ts`,
      ),
    );
  });

  it.each(steps.map((s) => [s.file, s.output] as const))("%s prints what the page shows", async (file, output) => {
    const { stdout, stderr } = await run(process.execPath, [tsx, "--conditions=strictwire-source", file], {
      cwd: examples,
      timeout: 90_000,
      env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", HTTPS_PROXY: "", HTTP_PROXY: "" },
    });
    expect(stderr).toBe("");
    expect(stdout.replace(/\n$/, "")).toBe(output);
  });
});
