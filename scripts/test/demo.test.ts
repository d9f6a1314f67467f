/**
 * The Quick start's `pnpm demo` keeps its promise (issue 31): for every fixture it shows, one exact round
 * trip and one call the decoder refuses, with the feedback the model would get, and one call streamed
 * (`decode --stream`). Runs the built CLI.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../conformance/io.js";

const run = promisify(execFile);

describe("pnpm demo", () => {
  it("shows a round trip and a refused call for every fixture, the one-member settings-nested-patch included", async () => {
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, "scripts/demo.mjs")], {
      cwd: REPO_ROOT,
      timeout: 240_000,
      env: { ...process.env, NO_COLOR: "1" },
    });
    const summary = /(\d+) of (\d+) fixtures compiled and round-tripped/.exec(stdout);
    expect(summary).not.toBeNull();
    const [, passed, shown] = summary!;
    expect(passed).toBe(shown);
    const fixtures = Number(shown);
    expect(fixtures).toBeGreaterThan(0);
    expect(stdout.match(/^ {2}✓ decoded value equals the original$/gm)?.length).toBe(fixtures);
    const refusals = [
      ...stdout.matchAll(/^refused call\n {2}model {4}(.+)\n {2}error {4}duplicate-key at (\S+)\n {2}feedback (.+)$/gm),
    ];
    expect(refusals.length).toBe(fixtures);
    for (const [, , path, feedback] of refusals) expect(feedback).toContain(`duplicate-key at ${path}`);
    // One call streamed: partial values before the decoded one, which equals the original.
    const streamed =
      /━━ .+, streamed ━━\n.+\n((?: {2}partial {2}.+\n)+) {2}decoded {2}.+\n {2}✓ the streamed call decodes to the original/.exec(
        stdout,
      );
    expect(streamed).not.toBeNull();
    expect(streamed![1]!.trim().split("\n").length).toBeGreaterThan(0);
    // The fixture whose wire value has a single root member.
    expect(stdout).toMatch(/"settings":\{[^\n]*\},"settings":\{[^\n]*\n {2}error {4}duplicate-key at \/settings/);
  }, 300_000);
});
