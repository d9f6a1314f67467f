/**
 * The code in the READMEs and docs is run, so an example cannot drift from the packages (issue 31). Every
 * fenced TypeScript or JavaScript block says what it is in its info string:
 *
 *   ```ts run           a whole program: written to a temporary project that resolves @strictwire/* to the
 *                       built packages, run by a real node child process (tsx); it must exit 0 with nothing on
 *                       stderr, and when the next block is ```text output, print exactly that
 *   ```ts file=<path>   a file of the repository shown whole: it must equal that file (which is typechecked,
 *                       linted and run by its own test)
 *   ```ts fragment      part of a program (an excerpt, a declaration, output): not run
 *
 * A ```sh run block runs in bash from the repository root and must exit 0. Other shell blocks are not run
 * (they install, call paid APIs, or stand for a user's own files).
 */
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../conformance/io.js";
import { type Block, blocksOf, CODE, documents, SHELL } from "../doc-blocks.js";

const run = promisify(execFile);
const TSX = createRequire(import.meta.url).resolve("tsx/cli");

const all = documents().flatMap(blocksOf);
const code = all.filter((b) => CODE.has(b.lang));
const runnable = code.filter((b) => b.marks.includes("run"));
const included = code.filter((b) => b.marks.some((m) => m.startsWith("file=")));
const shell = all.filter((b) => SHELL.has(b.lang) && b.marks.includes("run"));
const where = (b: Block) => `${b.file}:${b.line}`;

/** A project outside the repository whose node_modules hold the workspace packages and the SDKs the docs use. */
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "strictwire-docs-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "docs", private: true, type: "module" }));
  const modules = join(project, "node_modules");
  for (const pkg of readdirSync(join(REPO_ROOT, "packages"))) {
    const manifest = join(REPO_ROOT, "packages", pkg, "package.json");
    if (!existsSync(manifest)) continue;
    const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name;
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(REPO_ROOT, "packages", pkg), join(modules, name), "dir");
  }
  // Third-party packages from the workspace members that depend on them (pnpm links them there).
  const THIRD_PARTY = ["zod", "openai", "@anthropic-ai/sdk", "ai", "@openai/agents", "@modelcontextprotocol/sdk"];
  for (const name of THIRD_PARTY) {
    const from = ["examples", "packages/mcp", "packages/codec", "."]
      .map((dir) => join(REPO_ROOT, dir, "node_modules", name))
      .find((dir) => existsSync(dir));
    if (from === undefined) continue;
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(from, join(modules, name), "dir");
  }
});
afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe("code blocks in the READMEs and docs", () => {
  it("every TypeScript or JavaScript block says whether it runs, is a file, or is a fragment", () => {
    const unmarked = code.filter((b) => !b.marks.some((m) => m === "run" || m === "fragment" || m.startsWith("file=")));
    expect(unmarked.map(where)).toEqual([]);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it.each(included.map((b) => [where(b), b] as const))("%s is the file it shows", (_, block) => {
    const path = block.marks.find((m) => m.startsWith("file="))!.slice("file=".length);
    expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    expect(block.body).toBe(readFileSync(join(REPO_ROOT, path), "utf8").replace(/\n$/, ""));
  });

  it.each(runnable.map((b) => [where(b), b] as const))(
    "%s runs against the built packages",
    async (_, block) => {
      const name = `${relative(REPO_ROOT, join(REPO_ROOT, block.file)).replace(/[^A-Za-z0-9]+/g, "_")}_${block.line}`;
      const path = join(
        project,
        `${name}.${block.lang === "js" || block.lang === "javascript" || block.lang === "mjs" ? "mjs" : "mts"}`,
      );
      writeFileSync(path, `${block.body}\n`);
      const { stdout, stderr } = await run(process.execPath, [TSX, path], {
        cwd: project,
        timeout: 60_000,
        env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", HTTPS_PROXY: "", HTTP_PROXY: "" },
      });
      expect(stderr).toBe("");
      if (block.output !== undefined) expect(stdout.replace(/\n$/, "")).toBe(block.output);
    },
    90_000,
  );

  it.each(shell.map((b) => [where(b), b] as const))(
    "%s (shell) exits 0",
    async (_, block) => {
      const { stdout } = await run("bash", ["-euo", "pipefail", "-c", block.body], { cwd: REPO_ROOT, timeout: 60_000 });
      if (block.output !== undefined) expect(stdout.replace(/\n$/, "")).toBe(block.output);
    },
    90_000,
  );
});
