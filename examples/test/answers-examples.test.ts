/**
 * The structured-output examples run as a user would run them (a child
 * process, tsx, source conditions) against their local stand-in, and each
 * prints the decoded answer whole and streamed, and an intermediate partial
 * in the source form that is a subset of the final value.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SCRIPTED } from "../src/answers/stand-in.js";

const run = promisify(execFile);
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const examples = fileURLToPath(new URL("..", import.meta.url));

async function example(file: string): Promise<string> {
  const { stdout } = await run(process.execPath, [tsx, "--conditions=strictwire-source", `src/answers/${file}`], {
    cwd: examples,
    timeout: 90_000,
    env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", HTTPS_PROXY: "", HTTP_PROXY: "" },
  });
  return stdout;
}

function line(out: string, label: string): unknown {
  const found = out.split("\n").find((l) => l.startsWith(`${label} `));
  expect(found, `${label} in\n${out}`).toBeDefined();
  return JSON.parse((found ?? "").slice(label.length + 1));
}

/** Every member of `partial` is in `final`, as given or as the start of its string. */
function isSubset(partial: unknown, final: unknown): boolean {
  if (typeof partial === "string") return typeof final === "string" && final.startsWith(partial);
  if (Array.isArray(partial)) {
    return Array.isArray(final) && partial.every((p, i) => isSubset(p, final[i]));
  }
  if (typeof partial === "object" && partial !== null) {
    if (typeof final !== "object" || final === null || Array.isArray(final)) return false;
    return Object.entries(partial).every(([k, v]) => Object.hasOwn(final, k) && isSubset(v, (final as never)[k]));
  }
  return Object.is(partial, final);
}

describe("structured-output examples", { timeout: 120_000 }, () => {
  for (const file of [
    "openai-chat.ts",
    "openai-responses.ts",
    "anthropic.ts",
    "gemini.ts",
    "bedrock.ts",
    "ai-sdk.ts",
  ]) {
    it(file, async () => {
      const out = await example(file);
      // Exact: `due` absent (no key at all), `assignee` and `team` null, the map an object, the tuple an array.
      expect(line(out, "whole: decoded")).toStrictEqual(SCRIPTED);
      expect(line(out, "streamed: decoded")).toStrictEqual(SCRIPTED);
      const partial = line(out, "streamed: partial");
      expect(partial).not.toStrictEqual(SCRIPTED);
      expect(isSubset(partial, SCRIPTED)).toBe(true);
      expect(JSON.stringify(partial)).not.toMatch(/"state":|"key":/);
      expect(out).toMatch(/streamed: \d+ partials/);
      expect(out).not.toContain("streamed: cut");
    });
  }
});
