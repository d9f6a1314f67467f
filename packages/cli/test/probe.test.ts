/**
 * strictwire probe as a user runs it: the built CLI in a child process,
 * bundles compiled by the CLI, a provider stand-in on 127.0.0.1 answering
 * with recorded refusal bodies. No key or model is ever needed.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ACCEPTED,
  type ProbeAnswer,
  type ProbeSeen,
  type ProbeServer,
  REFUSALS,
  startProbeServer,
} from "../../eval/test/probe-server.js";
import { jsonOf, makeTempDir, removeDir, SETTINGS, STACK, strictwire, writeJson } from "./helpers.js";

const KEY = "sk-live-DO-NOT-LEAK-probe-9b1";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const NO_KEYS = { STRICTWIRE_API_KEY: "", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" };

/** Answers in order, the last one repeated; or by what a request holds. */
type Answers = readonly ProbeAnswer[] | ((seen: ProbeSeen) => ProbeAnswer);

async function setup(target: string, answers: Answers): Promise<{ server: ProbeServer; bundles: string[] }> {
  const dir = await makeTempDir();
  cleanups.push(() => removeDir(dir));
  const server = await startProbeServer((seen, i) =>
    typeof answers === "function" ? answers(seen) : (answers[Math.min(i, answers.length - 1)] ?? ACCEPTED),
  );
  cleanups.push(() => server.close());
  const bundles: string[] = [];
  for (const name of ["settings", "profile"]) {
    const schema = await writeJson(join(dir, `${name}.json`), SETTINGS);
    const out = join(dir, `${name}.bundle.json`);
    const compiled = await strictwire(["compile", schema, "-o", out, "--target", target]);
    expect(compiled.code, compiled.stderr).toBe(0);
    bundles.push(out);
  }
  return { server, bundles };
}

describe("strictwire probe", { timeout: 60_000 }, () => {
  it("exit 0 when every request is accepted; one per tool, then the set", async () => {
    const { server, bundles } = await setup("openai", [ACCEPTED]);
    const run = await strictwire(
      ["probe", ...bundles, "--api", "responses", "--model", "m-1", "--endpoint", `${server.url}/v1`],
      { env: { ...NO_KEYS, OPENAI_API_KEY: KEY } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/accepted +settings\naccepted +profile\naccepted +all 2 tools together\n/);
    expect(run.stderr).toContain("3 requests sent");
    expect(server.seen.map((s) => s.body.tool_choice)).toEqual([
      { type: "function", name: "settings" },
      { type: "function", name: "profile" },
      "required",
    ]);
  });

  it("exit 1 on a refusal, with the provider's own text and the rule, in --json too", async () => {
    // The provider refuses any request that carries the profile tool.
    const holdsProfile = (seen: ProbeSeen) => JSON.stringify(seen.body.tools).includes('"name":"profile"');
    const { server, bundles } = await setup(
      "anthropic",
      (seen: ProbeSeen): ProbeAnswer => (holdsProfile(seen) ? REFUSALS.anthropicGrammar : ACCEPTED),
    );
    const args = ["probe", ...bundles, "--api", "anthropic", "--model", "claude-x", "--endpoint", `${server.url}/v1`];
    const run = await strictwire(args, { env: { ...NO_KEYS, ANTHROPIC_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^accepted {2}settings$/m);
    expect(run.stdout).toMatch(
      /^refused {3}profile +400 \[anthropic-grammar-size\]: The compiled grammar is too large/m,
    );
    const json = await strictwire([...args, "--json"], { env: { ...NO_KEYS, STRICTWIRE_API_KEY: KEY } });
    expect(json.code).toBe(1);
    const doc = jsonOf(json);
    expect(doc.ok).toBe(false);
    expect(doc.api).toBe("anthropic");
    expect(doc.results).toEqual([
      { tool: "settings", tools: ["settings"], verdict: "accepted", status: 200 },
      {
        tool: "profile",
        tools: ["profile"],
        verdict: "refused",
        status: 400,
        rule: "anthropic-grammar-size",
        message: REFUSALS.anthropicGrammar.body.error.message,
      },
      expect.objectContaining({ tool: "*", verdict: "refused" }),
    ]);
  });

  it("a provider's words reach the terminal printable: no forged line, no escape sequence", async () => {
    const hostile: ProbeAnswer = {
      status: 400,
      body: { error: { message: "Invalid schema\u001b[2J\naccepted  profile", type: "invalid_request_error" } },
    };
    const { server, bundles } = await setup("openai", [hostile]);
    const run = await strictwire(
      ["probe", ...bundles, "--api", "responses", "--model", "m-1", "--endpoint", `${server.url}/v1`],
      { env: { ...NO_KEYS, OPENAI_API_KEY: KEY } },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).not.toMatch(/^accepted/m);
    expect(run.stdout).toContain("Invalid schema\\u001b[2J\\u000aaccepted");
  });

  it("gemini: GEMINI_API_KEY, the declarations with VALIDATED, a 400 INVALID_ARGUMENT refused", async () => {
    const { server, bundles } = await setup("gemini", [REFUSALS.geminiInvalid]);
    const run = await strictwire(
      ["probe", bundles[0] ?? "", "--api", "gemini", "--model", "gemini-x", "--endpoint", `${server.url}/v1beta`],
      { env: { ...NO_KEYS, GEMINI_API_KEY: KEY } },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^refused {3}settings +400: INVALID_ARGUMENT: \* GenerateContentRequest/m);
    expect(server.seen[0]?.path).toBe("/v1beta/models/gemini-x:generateContent");
    expect(server.seen[0]?.body.toolConfig).toEqual({
      functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["settings"] },
    });
  });

  it("exit 2: no key, a bundle for another target, a refused key (redacted), the budget", async () => {
    const { server, bundles } = await setup("openai", [
      { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } },
    ]);
    const base = ["probe", ...bundles, "--model", "m-1", "--endpoint", `${server.url}/v1`];
    const noKey = await strictwire([...base, "--json"], { env: NO_KEYS });
    expect(noKey.code).toBe(2);
    expect(jsonOf(noKey).error).toMatchObject({ code: "usage", message: expect.stringContaining("OPENAI_API_KEY") });
    const wrongTarget = await strictwire([...base, "--api", "anthropic"], {
      env: { ...NO_KEYS, STRICTWIRE_API_KEY: KEY },
    });
    expect(wrongTarget.code).toBe(2);
    expect(wrongTarget.stderr).toContain("compiled for the openai target");
    expect(server.seen).toHaveLength(0);
    const badKey = await strictwire([...base, "--retries", "0"], { env: { ...NO_KEYS, STRICTWIRE_API_KEY: KEY } });
    expect(badKey.code).toBe(2);
    expect(badKey.stdout).toMatch(/^failed {4}settings +auth 401: Incorrect API key provided: \[redacted\]$/m);
    expect(badKey.stdout + badKey.stderr).not.toContain(KEY);
    expect(badKey.stderr).not.toMatch(STACK);
    const sent = server.seen.length;
    const budget = await strictwire([...base, "--max-requests", "0", "--json"], {
      env: { ...NO_KEYS, STRICTWIRE_API_KEY: KEY },
    });
    expect(budget.code).toBe(2);
    expect(server.seen).toHaveLength(sent);
    expect((jsonOf(budget).results as { reason: string }[]).map((r) => r.reason)).toEqual([
      "budget",
      "budget",
      "budget",
    ]);
    const usage = await strictwire([...base, "--api", "bard"], { env: { ...NO_KEYS, STRICTWIRE_API_KEY: KEY } });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--api must be one of chat, responses, anthropic, gemini");
  });

  it("a timeout no Node timer holds, absurd retries and max tokens, are usage errors before any request", async () => {
    const { server, bundles } = await setup("openai", [ACCEPTED]);
    const base = ["probe", ...bundles, "--model", "m-1", "--endpoint", `${server.url}/v1`, "--json"];
    const env = { ...NO_KEYS, STRICTWIRE_API_KEY: KEY };
    // Over 2^31 - 1 ms a timer fires at once: every request timed out.
    for (const [flag, value, message] of [
      ["--timeout", "1e12", '--timeout must be an integer from 1 to 2147483647 in decimal digits, not "1e12"'],
      ["--retries", "1e9", '--retries must be an integer from 0 to 100 in decimal digits, not "1e9"'],
      ["--max-tokens", "1e300", '--max-tokens must be an integer from 1 to 2147483647 in decimal digits, not "1e300"'],
    ] as const) {
      const run = await strictwire([...base, flag, value], { env });
      expect(run.code).toBe(2);
      expect(jsonOf(run).error).toMatchObject({ code: "usage", message });
      expect(run.stderr).not.toMatch(STACK);
    }
    expect(server.seen).toHaveLength(0);
  });

  it("--output-format: one request per bundle carrying only its answer format, each API's own", async () => {
    for (const [api, target, key, member] of [
      ["chat", "openai", "OPENAI_API_KEY", "response_format"],
      ["responses", "openai", "OPENAI_API_KEY", "text"],
      ["anthropic", "anthropic", "ANTHROPIC_API_KEY", "output_config"],
      ["gemini", "gemini", "GEMINI_API_KEY", "generationConfig"],
    ] as const) {
      const { server, bundles } = await setup(target, [ACCEPTED, REFUSALS.openaiFirstKey]);
      const run = await strictwire(
        ["probe", ...bundles, "--output-format", "--api", api, "--model", "m-1", "--endpoint", `${server.url}/v1`],
        { env: { ...NO_KEYS, [key]: KEY } },
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/accepted +settings \(answer format\)\nrefused +profile \(answer format\) +400/);
      expect(server.seen).toHaveLength(2);
      for (const seen of server.seen) {
        expect(seen.body.tools).toBeUndefined();
        expect(seen.body[member]).toBeTypeOf("object");
      }
      if (api === "chat") {
        expect(server.seen[0]?.body.response_format).toMatchObject({
          type: "json_schema",
          json_schema: { name: "settings", strict: true },
        });
      }
      if (api === "gemini") {
        expect(server.seen[0]?.body.generationConfig).toMatchObject({ responseMimeType: "application/json" });
      }
    }
  });
});
