import { mkdirSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkToolSet, compile } from "@strictwire/codec";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Hostile, type HostileServer, settled, startHostileServer } from "../../codec/test/kit/hostile-server.js";
import {
  type Api,
  BUILTIN_ARMS,
  BUNDLED_SUITE,
  holdsNoTrial,
  loadOracle,
  loadSuite,
  type Oracle,
  type RunOptions,
  runEval,
  type Suite,
  summarise,
  type TrialRecord,
  type Workflow,
} from "../src/index.js";
import {
  type Answer,
  argumentsFor,
  armOf,
  type Loopback,
  offeredTools,
  type Seen,
  startLoopback,
  userMessage,
} from "./loopback.js";

const KEY = "sk-test-SECRET-7f3a9c";
const APIS: readonly Api[] = ["chat", "responses", "anthropic"];
let full: Suite;
let oracle: Oracle;
let dir: string;
const servers: Loopback[] = [];

beforeAll(async () => {
  const s = await loadSuite(BUNDLED_SUITE);
  if (!s.ok) throw new Error(s.error.message);
  full = s.value;
  const o = await loadOracle(BUNDLED_SUITE, full);
  if (!o.ok) throw new Error(o.error.message);
  oracle = o.value;
});

const hostileServers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(hostileServers.splice(0).map((s) => s.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const only = (...ids: string[]): Suite => ({ ...full, scenarios: full.scenarios.filter((s) => ids.includes(s.id)) });
const arms = (...names: string[]) => names.map((n) => BUILTIN_ARMS.find((a) => a.name === n) ?? expect.unreachable(n));
const scenarioOf = (seen: Seen) => full.scenarios.find((s) => userMessage(seen).endsWith(`Request: ${s.instruction}`));
const workflowOf = (id: string): Workflow => full.workflows.get(id) as Workflow;
const isRepair = (seen: Seen): boolean =>
  ((seen.api === "responses" ? seen.body.input : seen.body.messages) as unknown[]).length >
  (seen.api === "chat" ? 2 : 1);

async function serve(script: (seen: Seen, index: number) => Answer): Promise<Loopback> {
  const server = await startLoopback(script);
  servers.push(server);
  return server;
}

async function options(server: Loopback, api: Api, over: Partial<RunOptions>): Promise<RunOptions> {
  dir = await mkdtemp(join(tmpdir(), "strictwire-eval-"));
  return {
    suite: full,
    oracle,
    arms: arms("control", "tagged"),
    api,
    endpoint: server.url,
    key: KEY,
    settings: { model: "scripted", maxTokens: 256, temperature: 0 },
    repeat: 1,
    seed: 7,
    concurrency: 2,
    repair: 0,
    timeoutMs: 5000,
    retries: 2,
    backoffMs: 5,
    resultsFile: join(dir, "results.jsonl"),
    resume: false,
    countTokens: (t) => Math.ceil(t.length / 4),
    ...over,
  };
}

const byScenario = (records: readonly TrialRecord[], arm: string, id: string): TrialRecord =>
  records.find((r) => r.arm === arm && r.scenario === id) ?? expect.unreachable(`${arm} ${id}`);

describe.each(APIS)("a run against %s", (api) => {
  it("scores every path: right, wrong presence, wrong action, no call, two calls", async () => {
    const server = await serve((seen) => {
      const s = scenarioOf(seen);
      const arm = armOf(seen, full.workflows.values());
      const w = workflowOf(s?.workflow ?? "");
      const update = (value: unknown): Answer => ({
        kind: "calls",
        calls: [{ name: w.tool.name, arguments: argumentsFor(arm, w, value) }],
      });
      switch (s?.id) {
        case "null-01":
          return update({ timezone: null });
        case "omission-04": // control right; the strict arm also rewrites the stored theme
          return update(arm === "control" ? { timezone: "UTC" } : { timezone: "UTC", theme: "dark" });
        case "ambiguous-01": // guesses instead of asking
          return update({ quota: 0 });
        case "invalid-01":
          return {
            kind: "calls",
            calls: [{ name: "refuse_request", arguments: '{"reason":"5000 GB is above the 1000 GB maximum"}' }],
          };
        case "update-03": {
          const call = { name: w.tool.name, arguments: argumentsFor(arm, w, { user_id: "u-17", quota: 350 }) };
          return { kind: "calls", calls: arm === "control" ? [] : [call, call] };
        }
        default:
          return { kind: "status", status: 400, body: { error: { message: "unexpected" } } };
      }
    });
    const o = await options(server, api, {
      suite: only("null-01", "omission-04", "ambiguous-01", "invalid-01", "update-03"),
    });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    const { records } = run.value;
    expect(records).toHaveLength(10);
    for (const arm of ["control", "tagged"]) {
      const right = byScenario(records, arm, "null-01").first;
      expect(right?.judgement).toMatchObject({
        action: "update",
        actionRight: true,
        argsExact: true,
        finalStateRight: true,
        correct: true,
      });
      expect(right?.value).toEqual({ timezone: null });
      const guess = byScenario(records, arm, "ambiguous-01").first;
      expect(guess?.judgement).toMatchObject({
        action: "update",
        actionRight: false,
        correct: false,
        finalStateRight: false,
      });
      expect(byScenario(records, arm, "invalid-01").first?.judgement).toMatchObject({
        action: "reject",
        correct: true,
        finalStateRight: true,
      });
    }
    const redundant = byScenario(records, "tagged", "omission-04").first?.judgement;
    expect(redundant).toMatchObject({
      argsExact: false,
      finalStateRight: true,
      redundantWrites: ["/theme"],
      correct: false,
    });
    expect(byScenario(records, "control", "update-03").first?.judgement).toMatchObject({
      action: "none",
      correct: false,
    });
    expect(byScenario(records, "tagged", "update-03").first).toMatchObject({
      calls: 2,
      judgement: { action: "several", correct: false },
    });

    const report = summarise(run.value, ["control", "tagged"], { input: 1, output: 2 });
    const [control, tagged] = report.arms;
    expect(control).toMatchObject({ trials: 5, exact: 3, accepted: 5, oneToolCall: 4 });
    expect(tagged).toMatchObject({
      trials: 5,
      exact: 2,
      oneToolCall: 4,
      redundantWriteTrials: 1,
      vsControl: { pairs: 5, wins: 0, losses: 1 },
    });
    expect(tagged?.tokens).toEqual({ input: 500, output: 100 });
    expect(tagged?.costPerCorrect).toBeCloseTo((500 * 1 + 100 * 2) / 1e6 / 2, 12);

    // What was sent: the same instruction for both arms; control the original schema with strict off,
    // the strict arm strict: true with a wire schema that fits the target.
    const first = server.seen.filter((s) => scenarioOf(s)?.id === "null-01");
    expect(first).toHaveLength(2);
    const flat = workflowOf("flat");
    for (const seen of first) {
      const [main, clarify, refuse] = offeredTools(seen);
      expect([clarify?.name, refuse?.name]).toEqual(["ask_clarification", "refuse_request"]);
      if (armOf(seen, full.workflows.values()) === "control") {
        expect(main?.parameters).toEqual(flat.tool.parameters);
        expect(main?.strict).toBe(api === "anthropic" ? undefined : false);
      } else {
        expect(main?.strict).toBe(true);
        const bundle = compile(flat.tool.parameters, { name: flat.tool.name });
        if (!bundle.ok) expect.unreachable();
        const target = api === "anthropic" ? "anthropic" : "openai";
        expect(checkToolSet([{ ...bundle.value, wire: main?.parameters as never }], target)).toEqual([]);
        expect(main?.parameters).not.toEqual(flat.tool.parameters);
      }
    }
    expect(userMessage(first[0] as Seen)).toBe(userMessage(first[1] as Seen));
    // The key went in the auth header only, and was never written.
    const auth = api === "anthropic" ? first[0]?.headers["x-api-key"] : first[0]?.headers.authorization;
    expect(auth).toContain(KEY);
    expect(await readFile(o.resultsFile, "utf8")).not.toContain(KEY);
  });

  it("sends strictwire's feedback back once and scores the repair apart: one repaired, one not", async () => {
    const server = await serve((seen) => {
      const s = scenarioOf(seen);
      const w = workflowOf("flat");
      // Undecodable first: a bare null where the wire wants a presence tag.
      const broken =
        '{"timezone":null,"display_name":{"state":"absent"},"theme":{"state":"absent"},"email_digest":{"state":"absent"},"quota":{"state":"absent"}}';
      if (!isRepair(seen)) return { kind: "calls", calls: [{ name: w.tool.name, arguments: broken }] };
      const good = s?.id === "null-01" ? argumentsFor("tagged", w, { timezone: null }) : broken;
      return { kind: "calls", calls: [{ name: w.tool.name, arguments: good }] };
    });
    const o = await options(server, api, { suite: only("null-01", "null-02"), arms: arms("tagged"), repair: 1 });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    const fixed = byScenario(run.value.records, "tagged", "null-01");
    const still = byScenario(run.value.records, "tagged", "null-02");
    for (const r of [fixed, still]) {
      expect(r.first?.decodeError?.code).toBe("wire-violation");
      expect(r.first?.judgement.correct).toBe(false);
    }
    expect(fixed.repair?.judgement.correct).toBe(true);
    expect(still.repair?.decodeError?.code).toBe("wire-violation");
    const repairs = server.seen.filter(isRepair);
    expect(repairs).toHaveLength(2);
    for (const seen of repairs) {
      const last = JSON.stringify((seen.api === "responses" ? seen.body.input : seen.body.messages) as unknown[]).slice(
        -2000,
      );
      expect(last).toMatch(/timezone/);
      expect(last).toContain(
        api === "anthropic" ? "tool_result" : api === "chat" ? '"role":"tool"' : "function_call_output",
      );
    }
    expect(summarise(run.value, ["tagged"]).arms[0]?.repair).toEqual({ attempted: 2, exact: 1 });
  });
});

describe("running safely", () => {
  it("honours Retry-After on 429 and retries a 500, then scores the answer", async () => {
    let calls = 0;
    const server = await serve(() => {
      calls += 1;
      if (calls === 1) return { kind: "status", status: 429, headers: { "retry-after": "1" } };
      if (calls === 2) return { kind: "status", status: 500 };
      return { kind: "calls", calls: [{ name: "update_profile_settings", arguments: '{"timezone":null}' }] };
    });
    const o = await options(server, "chat", { suite: only("null-01"), arms: arms("control"), backoffMs: 1 });
    const started = Date.now();
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    // Honouring Retry-After is a wait: a lower bound, which load only lengthens, so it cannot flake.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(run.value.records[0]?.first).toMatchObject({
      accepted: true,
      httpAttempts: 3,
      judgement: { correct: true },
    });
  });

  it("gives up on a hanging request after the timeout and records it as not accepted", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    const o = await options(server, "responses", {
      suite: only("null-01"),
      arms: arms("control"),
      timeoutMs: 150,
      retries: 1,
    });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    expect(run.value.records[0]?.first).toMatchObject({
      accepted: false,
      httpAttempts: 2,
      judgement: { correct: false },
    });
    expect(run.value.records[0]?.first?.error).toMatch(/^timeout/);
  });

  it("stops before exceeding --max-requests and --max-cost, and says so", async () => {
    const server = await serve(() => ({
      kind: "calls",
      calls: [{ name: "ask_clarification", arguments: '{"question":"which?"}' }],
    }));
    const five = only("null-01", "null-02", "null-03", "ambiguous-01", "ambiguous-02");
    const byCount = await runEval(
      await options(server, "chat", { suite: five, arms: arms("control"), maxRequests: 3, concurrency: 1 }),
    );
    if (!byCount.ok) expect.unreachable();
    expect(byCount.value.records).toHaveLength(3);
    expect(server.seen).toHaveLength(3);
    expect(byCount.value.stopped).toMatch(/max-requests 3/);
    await rm(dir, { recursive: true, force: true });
    // Each request reserves its worst case (input estimate + max tokens) before it is sent.
    const price = { input: 1, output: 1 };
    // Worst case per request: (1000 + 256 max tokens) / 1e6 = $0.001256; each answer costs (100 + 20) / 1e6.
    const countTokens = () => 1000;
    const byCost = await runEval(
      await options(server, "chat", {
        suite: five,
        arms: arms("control"),
        concurrency: 1,
        price,
        maxCost: 0.0015,
        countTokens,
      }),
    );
    if (!byCost.ok) expect.unreachable();
    const spent = byCost.value.records.reduce(
      (s, r) => s + (r.first?.usage ? (r.first.usage.input + r.first.usage.output) / 1e6 : 0),
      0,
    );
    // After 3 answers: 0.00036 spent + 0.001256 reserved > 0.0015, so the fourth is never sent.
    expect(byCost.value.records).toHaveLength(3);
    expect(spent).toBeCloseTo(0.00036, 12);
    expect(byCost.value.stopped).toMatch(/max-cost/);
  });

  it("a key the endpoint refuses stops the run as an error, not as scores", async () => {
    const server = await serve(() => ({ kind: "status", status: 401, body: { error: { message: `bad key ${KEY}` } } }));
    const o = await options(server, "chat", { suite: only("null-01", "null-02", "null-03"), concurrency: 1 });
    const run = await runEval(o);
    expect(run).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect(server.seen).toHaveLength(1);
    // Only the run's provenance line was written: no trial, and no key.
    const lines = (await readFile(o.resultsFile, "utf8")).trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(["run"]);
    expect(lines.join("\n")).not.toContain(KEY);
  });

  it.each(APIS)("a redirect to another origin is not followed: no key, no body reaches it (%s)", async (api) => {
    const elsewhere = await serve(() => ({
      kind: "calls",
      calls: [{ name: "ask_clarification", arguments: '{"question":"?"}' }],
    }));
    const path = {
      chat: "/chat/completions",
      responses: "/responses",
      anthropic: "/messages",
      gemini: "/models/m:generateContent",
    }[api];
    const redirecting = await serve(() => ({
      kind: "status",
      status: 307,
      headers: { location: `${elsewhere.url}${path}` },
      body: {},
    }));
    const o = await options(redirecting, api, { suite: only("null-01", "null-02"), concurrency: 1 });
    const run = await runEval(o);
    expect(elsewhere.seen).toEqual([]);
    expect(redirecting.seen).toHaveLength(1);
    expect(run).toMatchObject({ ok: false, error: { code: "redirected" } });
    if (!run.ok) {
      expect(run.error.message).toContain(`redirect to ${new URL(elsewhere.url).host}, not followed`);
      expect(run.error.message).not.toContain(KEY);
    }
  });

  it("an error text that quotes the key is redacted before it is cut, and echoed arguments are redacted", async () => {
    // The key straddles the 300-character cut: cutting first would leave its first half in the file.
    const quoted = `${"x".repeat(300 - KEY.length / 2)}${KEY} and more`;
    const server = await serve((seen) =>
      scenarioOf(seen)?.id === "null-01"
        ? { kind: "status", status: 400, body: { error: { message: quoted } } }
        : {
            kind: "calls",
            model: `echo ${KEY}`,
            calls: [{ name: "refuse_request", arguments: JSON.stringify({ reason: `you sent ${KEY}` }) }],
          },
    );
    const o = await options(server, "chat", {
      suite: only("null-01", "invalid-01"),
      arms: arms("control"),
      concurrency: 1,
    });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    const file = await readFile(o.resultsFile, "utf8");
    expect(file).not.toContain(KEY.slice(0, KEY.length / 2));
    expect(file).not.toContain(KEY.slice(KEY.length / 2));
    const refused = byScenario(run.value.records, "control", "invalid-01").first;
    expect(refused?.argumentsText).toBe('{"reason":"you sent [redacted]"}');
    expect(refused?.answeredModel).toBe("echo [redacted]");
    expect(refused?.judgement.correct).toBe(true);
    const failed = byScenario(run.value.records, "control", "null-01").first;
    expect(failed?.error).toMatch(/^HTTP 400: x+\[redacted\]/);
  });

  it("an unreachable endpoint is a run error, not a score", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    const url = server.url;
    await server.close();
    servers.length = 0;
    const run = await runEval(
      await options({ ...server, url } as Loopback, "anthropic", { suite: only("null-01"), retries: 0 }),
    );
    expect(run.ok).toBe(false);
    if (!run.ok) expect(run.error.code).toBe("unreachable");
  });
});

describe("resuming", () => {
  it("refuses a results file that another suite wrote, by the suite's digest", async () => {
    const server = await serve(() => ({
      kind: "calls",
      calls: [{ name: "refuse_request", arguments: '{"reason":"scripted"}' }],
    }));
    const o = await options(server, "chat", { suite: only("invalid-01"), arms: arms("control") });
    expect((await runEval(o)).ok).toBe(true);
    const same = await runEval({ ...o, resume: true });
    expect(same).toMatchObject({ ok: true, value: { resumed: 1 } });
    const other = await runEval({ ...o, resume: true, suite: only("invalid-01", "invalid-02") });
    expect(other).toMatchObject({
      ok: false,
      error: { code: "results-file", message: expect.stringMatching(/holds trials of another suite \(sha256:/) },
    });
    expect(server.seen).toHaveLength(1);
  });
});

describe("the oracle never reaches a request", () => {
  it("no first-turn body of the whole bundled suite holds an expected argument object", async () => {
    const server = await serve(() => ({
      kind: "calls",
      calls: [{ name: "refuse_request", arguments: '{"reason":"scripted"}' }],
    }));
    const run = await runEval(await options(server, "chat", { arms: arms("control"), concurrency: 4 }));
    if (!run.ok) expect.unreachable(run.error.message);
    expect(server.seen).toHaveLength(full.scenarios.length);
    const oracleTexts = [...oracle.expected.values()].flatMap((e) =>
      e.arguments ? [JSON.stringify(e.arguments)] : [],
    );
    expect(oracleTexts.length).toBeGreaterThan(40);
    for (const seen of server.seen) {
      for (const t of oracleTexts) expect(seen.text).not.toContain(t);
      expect(seen.text).not.toMatch(/"expected"|"action":"(update|clarify|reject)"/);
    }
  });
});

describe("hostile bodies, echoes, the budget on an unreachable endpoint, a leftover results file (issue 43)", () => {
  const hostile = async (how: Hostile) => {
    const s = await startHostileServer(how, 5000);
    hostileServers.push(s);
    return s;
  };
  const at = (url: string) => ({ url }) as Loopback;

  it.each(APIS)("an endless body stops the run with response-too-large, naming the cap (%s)", async (api) => {
    const s = await hostile({ kind: "endless" });
    const o = await options(at(s.url), api, { suite: only("null-01"), arms: arms("control"), maxResponseBytes: 65536 });
    const run = await runEval(o);
    expect(run).toMatchObject({ ok: false, error: { code: "response-too-large", path: "" } });
    if (!run.ok) expect(run.error.message).toContain("over the cap of 65536 bytes");
    expect(s.hits).toHaveLength(1);
    await settled(s);
    expect(s.closedByClient).toEqual([true]);
    // Not a trial: nothing but the run's provenance line was written.
    expect((await readFile(o.resultsFile, "utf8")).trim().split("\n")).toHaveLength(1);
  });

  it("a body over the cap is refused by its Content-Length and without one", async () => {
    for (const declare of [true, false]) {
      const s = await hostile({ kind: "sized", bytes: 70_000, declare });
      const run = await runEval(
        await options(at(s.url), "chat", { suite: only("null-01"), arms: arms("control"), maxResponseBytes: 65536 }),
      );
      expect(run).toMatchObject({ ok: false, error: { code: "response-too-large" } });
    }
  });

  it("a redirect stops the run (no redirect followed by the capped reader either)", async () => {
    const target = await hostile({ kind: "sized", bytes: 2, fill: "{}" });
    const s = await hostile({ kind: "redirect", status: 302, location: `${target.url}/v1/chat/completions` });
    const run = await runEval(await options(at(s.url), "chat", { suite: only("null-01"), arms: arms("control") }));
    expect(run).toMatchObject({ ok: false, error: { code: "redirected" } });
    expect(target.hits).toEqual([]);
  });

  it("--max-requests that ends the retries against an unreachable endpoint is still unreachable", async () => {
    const server = await serve(() => ({ kind: "hang" }));
    const url = server.url;
    await server.close();
    servers.length = 0;
    for (const maxRequests of [1, 2, 3]) {
      const run = await runEval(
        await options(at(url), "chat", { suite: only("null-01", "null-02"), retries: 3, backoffMs: 1, maxRequests }),
      );
      expect(run).toMatchObject({ ok: false, error: { code: "unreachable" } });
    }
  });

  it("echoed prefixes, suffixes and middles of the key never reach the results file", async () => {
    const key = "sk-proj-SECRETKEY1234567890abcdefghij";
    const pieces = [key.slice(0, 12), key.slice(-9), key.slice(11, 23)];
    const server = await serve((seen) =>
      scenarioOf(seen)?.id === "null-01"
        ? { kind: "status", status: 400, body: { error: { message: `bad key ${pieces[0]}…${pieces[1]}` } } }
        : {
            kind: "calls",
            model: `gpt-${pieces[2]}-mini`,
            calls: [{ name: "refuse_request", arguments: JSON.stringify({ reason: `you sent ${pieces.join(" ")}` }) }],
          },
    );
    const o = await options(server, "chat", { suite: only("null-01", "invalid-01"), arms: arms("control"), key });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    const file = await readFile(o.resultsFile, "utf8");
    for (let i = 0; i + 8 <= key.length; i++) expect(file).not.toContain(key.slice(i, i + 8));
    const refused = byScenario(run.value.records, "control", "invalid-01").first;
    expect(refused?.answeredModel).toBe("gpt-[redacted]-mini");
    expect(refused?.argumentsText).toBe('{"reason":"you sent [redacted] [redacted] [redacted]"}');
  });

  it("with a one-character key, a model named gpt-x stays gpt-x in the records and the provenance", async () => {
    const server = await serve(() => ({
      kind: "calls",
      model: "gpt-x",
      calls: [{ name: "refuse_request", arguments: JSON.stringify({ reason: "x" }) }],
    }));
    const o = await options(server, "chat", {
      suite: only("invalid-01"),
      arms: arms("control"),
      key: "x",
      settings: { model: "gpt-x", maxTokens: 256, temperature: 0 },
    });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    expect(run.value.provenance.model).toBe("gpt-x");
    expect(run.value.records[0]?.model).toBe("gpt-x");
    expect(run.value.records[0]?.first?.answeredModel).toBe("gpt-x");
    // The key standing alone as a value is still taken out.
    expect(run.value.records[0]?.first?.argumentsText).toBe('{"reason":"[redacted]"}');
  });

  it("call arguments that are no text are scored as their JSON text, never a crash: an object, {toString: 5}", async () => {
    const reply = (args: unknown) => ({
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "refuse_request", arguments: args } }],
          },
        },
      ],
    });
    for (const args of [{ toString: 5 }, { reason: "x" }]) {
      const server = await serve(() => ({ kind: "status", status: 200, body: reply(args) }));
      const o = await options(server, "chat", { suite: only("invalid-01"), arms: arms("control"), concurrency: 1 });
      const run = await runEval(o);
      if (!run.ok) expect.unreachable(run.error.message);
      // String() threw on the first and gave "[object Object]" for the second.
      expect(run.value.records[0]?.first?.argumentsText).toBe(JSON.stringify(args));
    }
  });

  it("Anthropic input nested past JSON.stringify's stack is scored as no arguments, never a crash", async () => {
    const depth = 200_000;
    const prefix =
      '{"id":"msg","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","content":[{"type":"tool_use","id":"t1","name":"refuse_request","input":{"reason":';
    const suffix = `${"]".repeat(depth)}}}],"usage":{"input_tokens":1,"output_tokens":1}}`;
    const s = await hostile({
      kind: "sized",
      status: 200,
      bytes: prefix.length + 2 * depth + suffix.length - depth,
      fill: "[",
      prefix,
      suffix,
    });
    const o = await options(at(s.url), "anthropic", { suite: only("invalid-01"), arms: arms("control"), retries: 0 });
    const run = await runEval(o);
    if (!run.ok) expect.unreachable(run.error.message);
    expect(run.value.records[0]?.first).toMatchObject({ toolName: "refuse_request", argumentsText: "" });
  });

  it("only a failed write is a results-file error: a trial line that cannot be appended, a head that cannot", async () => {
    let resultsFile = "";
    // The file becomes a directory while the trial runs: the run line was written, the trial line cannot be.
    const server = await serve(() => {
      rmSync(resultsFile);
      mkdirSync(resultsFile);
      return { kind: "calls", calls: [{ name: "refuse_request", arguments: '{"reason":"r"}' }] };
    });
    const o = await options(server, "chat", { suite: only("invalid-01"), arms: arms("control") });
    resultsFile = o.resultsFile;
    const run = await runEval(o);
    expect(run).toMatchObject({ ok: false, error: { code: "results-file" } });
    if (!run.ok) expect(run.error.message).toMatch(/^cannot append to .*results\.jsonl \(EISDIR/);
    expect(server.seen).toHaveLength(1);
    // The run line itself: the path is a directory from the start.
    const head = await runEval(o);
    expect(head).toMatchObject({ ok: false, error: { code: "results-file" } });
    expect(server.seen).toHaveLength(1);
  });

  it("a throw while a trial runs is a bug naming the trial, never reported as a results-file error", async () => {
    const server = await serve(() => ({
      kind: "calls",
      calls: [{ name: "refuse_request", arguments: '{"reason":"r"}' }],
    }));
    const o = await options(server, "chat", {
      suite: only("invalid-01"),
      arms: arms("control"),
      countTokens: () => {
        throw new TypeError("the counter broke");
      },
    });
    await expect(runEval(o)).rejects.toThrow("eval: trial control|invalid-01|0 threw: the counter broke");
    // The run line was written; the trial was not.
    expect((await readFile(o.resultsFile, "utf8")).trim().split("\n")).toHaveLength(1);
  });

  it("a repair turn that would carry back a reply nested past JSON's stack is recorded as not sent, budget or not", async () => {
    const depth = 200_000;
    const prefix =
      '{"id":"msg","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","content":[{"type":"tool_use","id":"t1","name":"update_profile_settings","input":{"display_name":';
    const suffix = `${"]".repeat(depth)}}}],"usage":{"input_tokens":1,"output_tokens":1}}`;
    const bytes = prefix.length + depth + suffix.length;
    for (const budget of [{}, { maxCost: 10, price: { input: 1, output: 1 } }]) {
      const s = await hostile({ kind: "sized", status: 200, bytes, fill: "[", prefix, suffix });
      const o = await options(at(s.url), "anthropic", {
        suite: only("omission-01"),
        arms: arms("tagged"),
        repair: 1,
        retries: 0,
        ...budget,
      });
      const run = await runEval(o);
      if (!run.ok) expect.unreachable(run.error.message);
      const trial = run.value.records[0];
      // The first answer is scored as no arguments; its repair turn, holding that answer, is never sent.
      expect(trial?.first).toMatchObject({ toolName: "update_profile_settings", argumentsText: "" });
      expect(trial?.repair).toMatchObject({ accepted: false, httpAttempts: 0, calls: 0 });
      expect(trial?.repair?.error).toMatch(/^not-sent: the request cannot be written as JSON \(/);
      expect(s.hits).toHaveLength(1);
    }
  });

  it("a leftover results file holding no trial is replaced, atomically; one holding a trial is not", async () => {
    const server = await serve(() => ({
      kind: "calls",
      calls: [{ name: "refuse_request", arguments: '{"reason":"r"}' }],
    }));
    const o = await options(server, "chat", { suite: only("invalid-01"), arms: arms("control") });
    const stale = `${JSON.stringify({ type: "run", date: "earlier" })}\n{"type":"run","da`;
    await writeFile(o.resultsFile, stale);
    expect(await holdsNoTrial(o.resultsFile)).toBe(true);
    const run = await runEval({ ...o, replace: true });
    if (!run.ok) expect.unreachable(run.error.message);
    const lines = (await readFile(o.resultsFile, "utf8")).trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(["run", "trial"]);
    expect(lines[0]).not.toContain("earlier");
    expect(await holdsNoTrial(o.resultsFile)).toBe(false);
    // A file eval did not write is not a leftover either.
    await writeFile(o.resultsFile, "my notes\n");
    expect(await holdsNoTrial(o.resultsFile)).toBe(false);
    await writeFile(o.resultsFile, "\n");
    expect(await holdsNoTrial(o.resultsFile)).toBe(false);
  });
});
