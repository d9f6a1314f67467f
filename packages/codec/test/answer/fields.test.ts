/**
 * Structured outputs live in each provider API's module: the answer format's
 * and the answer's field names are written nowhere else in any package's
 * source (targets/ excepted: a profile's facts quote the API definition they
 * were read from).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const PACKAGES = join(ROOT, "packages");
const HOMES = [join(PACKAGES, "codec", "src", "providers"), join(PACKAGES, "codec", "src", "targets")];
/** The names the providers give an answer format and an answer's text. */
const FIELDS = /\b(response_format|output_config|responseJsonSchema|responseMimeType|output_text|text_delta)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

test("no answer field is named outside providers/, in any package's source", () => {
  const files = readdirSync(PACKAGES)
    .map((p) => join(PACKAGES, p, "src"))
    .filter((src) => existsSync(src))
    .flatMap(sources);
  expect(files.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const file of files) {
    if (HOMES.some((home) => file.startsWith(home))) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (FIELDS.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
  // The homes do write them: the pattern is not one that can never match.
  const home = readFileSync(join(HOMES[0]!, "openai-chat.ts"), "utf8");
  expect(FIELDS.test(home)).toBe(true);
});
