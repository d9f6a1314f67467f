/**
 * Every number flag reads decimal digits only, with a fraction only where the
 * flag is one: `Number()` took "0x10", "1e3", " 12 ", "0b1", "12." and "" as
 * numbers. Each command in a real child process, as a user runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVAL_OPTIONS } from "../src/commands/eval-options.js";
import { jsonOf, makeTempDir, type Run, removeDir, strictwire } from "./helpers.js";

const STACK = /\n\s+at /;
/** Spellings Number() reads as a number that are no decimal digits. */
const NOT_DIGITS = ["0x10", "1e3", " 12 ", "0b1", "12.", ""];
/** Spellings Number() reads as a fraction that are no decimal fraction. */
const NOT_FRACTIONS = ["1e-1", ".5", "1.", "+1", "0x1", " 0.5", "Infinity", ""];
const NO_KEYS = { STRICTWIRE_API_KEY: "", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" };

let dir = "";
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await removeDir(dir);
});

const flagName = (spelling: string): string => spelling.split(" ")[0] as string;
const EVAL_WHOLE = EVAL_OPTIONS.filter((o) => o.number?.integer === true).map((o) => flagName(o.flag));
const EVAL_FRACTIONS = EVAL_OPTIONS.filter((o) => o.number?.integer === false).map((o) => flagName(o.flag));

interface CommandCase {
  readonly run: (flag: string, value: string) => Promise<Run>;
  readonly flags: readonly string[];
  /** Whether --json prints the error as a document on stdout. */
  readonly json: boolean;
}

const COMMANDS: Record<string, CommandCase> = {
  eval: {
    run: (flag, value) =>
      strictwire(["eval", "--model", "m", "--endpoint", "http://127.0.0.1:9/v1", "--json", flag, value], {
        cwd: dir,
        env: { ...NO_KEYS, STRICTWIRE_API_KEY: "k" },
      }),
    flags: EVAL_WHOLE,
    json: true,
  },
  probe: {
    run: (flag, value) =>
      strictwire(
        ["probe", "absent.bundle.json", "--model", "m", "--endpoint", "http://127.0.0.1:9/v1", "--json", flag, value],
        {
          cwd: dir,
          env: { ...NO_KEYS, STRICTWIRE_API_KEY: "k" },
        },
      ),
    flags: ["--max-requests", "--max-tokens", "--timeout", "--retries", "--max-response-bytes"],
    json: true,
  },
  classify: {
    run: (flag, value) => strictwire(["classify", "--responses", "-", flag, value], { cwd: dir, stdin: "[]" }),
    flags: ["--workers", "--max-response-bytes"],
    json: false,
  },
  "mcp-proxy": {
    // The flags are read before any upstream is started: the command after -- never runs.
    run: (flag, value) => strictwire(["mcp-proxy", flag, value, "--", "absent-server"], { cwd: dir }),
    flags: [
      "--max-pages",
      "--max-tools",
      "--max-list-bytes",
      "--list-timeout",
      "--init-timeout",
      "--max-notifications",
      "--max-client-requests",
      "--request-timeout",
      "--compile-timeout",
      "--max-schema-bytes",
      "--compile-workers",
      "--decode-timeout",
      "--compile-memory",
      "--max-message-bytes",
    ],
    json: false,
  },
};

/** Every flag, and every spelling, at least once: flag i gets spelling i. */
function cases(flags: readonly string[], spellings: readonly string[]): [string, string][] {
  return Array.from({ length: Math.max(flags.length, spellings.length) }, (_, i) => [
    flags[i % flags.length] as string,
    spellings[i % spellings.length] as string,
  ]);
}

function expectRefused(run: Run, json: boolean, flag: string, value: string, allowed: RegExp): void {
  expect(run.code, `${flag} ${JSON.stringify(value)}`).toBe(2);
  expect(run.stderr).not.toMatch(STACK);
  expect(run.stderr).toContain(`${flag} must be `);
  expect(run.stderr).toContain(`, not ${JSON.stringify(value)}`);
  expect(run.stderr).toMatch(allowed);
  if (json)
    expect(jsonOf(run).error).toMatchObject({ code: "usage", path: "", message: expect.stringMatching(allowed) });
}

describe("number flags take decimal digits only", () => {
  for (const [command, { run, flags, json }] of Object.entries(COMMANDS)) {
    it(`${command}: hexadecimal, exponents, spaces, binary, a trailing point and nothing are usage errors`, {
      timeout: 120_000,
    }, async () => {
      for (const [flag, value] of cases(flags, NOT_DIGITS)) {
        expectRefused(
          await run(flag, value),
          json,
          flag,
          value,
          /must be an integer (from|of at least) \d+.* in decimal digits, not/,
        );
      }
    });
  }

  it("eval: a fraction flag takes digits with an optional decimal fraction, nothing else", {
    timeout: 120_000,
  }, async () => {
    for (const [flag, value] of cases(EVAL_FRACTIONS, NOT_FRACTIONS)) {
      expectRefused(
        await COMMANDS.eval!.run(flag, value),
        true,
        flag,
        value,
        /must be a number (from|of at least) \d+.* in decimal digits \(e\.g\. 0\.5\), not/,
      );
    }
  });

  it("digits and decimal fractions are taken: the run goes on to what it lacks next", { timeout: 60_000 }, async () => {
    // No key: eval and probe read every flag first, then refuse for the key.
    const evalRun = await strictwire(
      ["eval", "--model", "m", "--repeat", "12", "--temperature", "0.5", "--price-in", "3", "--price-out", "15.25"],
      { cwd: dir, env: NO_KEYS },
    );
    expect(evalRun.code).toBe(2);
    expect(evalRun.stderr).toContain("no API key");
    const probeRun = await strictwire(["probe", "absent.bundle.json", "--model", "m", "--timeout", "0012"], {
      cwd: dir,
      env: NO_KEYS,
    });
    expect(probeRun.code).toBe(2);
    expect(probeRun.stderr).not.toContain("--timeout");
    // No command after --: mcp-proxy reads every flag first, then asks for the upstream.
    const proxyRun = await strictwire(["mcp-proxy", "--max-pages", "10", "--compile-workers", "2"], { cwd: dir });
    expect(proxyRun.code).toBe(2);
    expect(proxyRun.stderr).toContain("give the upstream server's command");
  });
});
