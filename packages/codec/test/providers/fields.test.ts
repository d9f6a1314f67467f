/**
 * A provider API is one module: its field names are written nowhere else.
 * Every package's source is read; a provider's call field outside
 * packages/codec/src/providers/ fails, and so does a file standing in for a
 * module that moved there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const PACKAGES = join(ROOT, "packages");
const PROVIDERS = join(PACKAGES, "codec", "src", "providers");
/** The names a provider's response or request gives a tool call. */
const FIELDS = /\b(tool_calls|tool_use|functionCall|toolUse|function_call)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

function allSources(): string[] {
  return readdirSync(PACKAGES)
    .map((p) => join(PACKAGES, p, "src"))
    .filter((src) => existsSync(src))
    .flatMap(sources);
}

test("no provider's call field is named outside providers/, in any package's source", () => {
  const found: string[] = [];
  for (const file of allSources()) {
    if (file.startsWith(PROVIDERS)) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (FIELDS.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

test("the check reads the sources it guards: the modules name each field", () => {
  const modules = sources(PROVIDERS).map((f) => readFileSync(f, "utf8"));
  // Every package's src is read, the classifier's and the eval harness's too.
  const files = allSources().map((f) => relative(PACKAGES, f).split(/[\\/]/)[0]);
  expect(new Set(files)).toEqual(new Set(["classifier", "cli", "codec", "eval", "mcp"]));
  for (const field of ["tool_calls", "tool_use", "functionCall", "toolUse", "function_call"]) {
    expect(
      modules.some((text) => new RegExp(`\\b${field}\\b`).test(text)),
      field,
    ).toBe(true);
  }
});

test("the readers that moved into providers/ left no file behind", () => {
  const src = join(PACKAGES, "codec", "src");
  for (const gone of ["dispatch/providers.ts", "stream/providers.ts", "targets/tools.ts", "targets/gemini-tools.ts"]) {
    expect(existsSync(join(src, gone)), gone).toBe(false);
  }
  expect(existsSync(join(PACKAGES, "eval", "src", "gemini.ts"))).toBe(false);
});
