/**
 * `--api gemini`: a run against a Gemini stand-in on 127.0.0.1 speaking
 * generateContent (functionCall parts in, a functionResponse carrying the
 * feedback out), scored like the other APIs.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileCodec } from "@strictwire/codec";
import { afterEach, expect, it } from "vitest";
import { BUILTIN_ARMS, BUNDLED_SUITE, loadOracle, loadSuite, runEval } from "../src/index.js";
import { type ProbeSeen, type ProbeServer, startProbeServer } from "./probe-server.js";

const KEY = "sk-gemini-SECRET-51c";
let server: ProbeServer | undefined;
let dir = "";
afterEach(async () => {
  await server?.close();
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

const textOf = (seen: ProbeSeen): string => {
  const contents = seen.body.contents as { parts: { text?: string }[] }[];
  return contents[0]?.parts[0]?.text ?? "";
};
const reply = (name: string, args: unknown) => ({
  status: 200,
  body: {
    candidates: [
      { content: { role: "model", parts: [{ functionCall: { id: "fc1", name, args } }] }, finishReason: "STOP" },
    ],
    usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 9 },
  },
});

it("runs, scores and repairs a trial over generateContent", async () => {
  const suite = await loadSuite(BUNDLED_SUITE);
  if (!suite.ok) throw new Error(suite.error.message);
  const oracle = await loadOracle(BUNDLED_SUITE, suite.value);
  if (!oracle.ok) throw new Error(oracle.error.message);
  const scenarios = suite.value.scenarios.filter((s) => s.id === "null-01" || s.id === "null-02");
  const workflow = suite.value.workflows.get("flat");
  if (workflow === undefined) throw new Error("no flat workflow");
  const codec = compileCodec(workflow.tool.parameters, { name: workflow.tool.name });
  if (!codec.ok) throw new Error(codec.error.message);
  const wire = (value: unknown) => {
    const w = codec.value.encode(value);
    if (!w.ok) throw new Error(w.error.message);
    return w.value;
  };

  server = await startProbeServer((seen) => {
    const repair = (seen.body.contents as unknown[]).length > 1;
    if (textOf(seen).endsWith("Clear my saved time zone.")) return reply(workflow.tool.name, wire({ timezone: null }));
    // null-02: first a call that breaks the wire, then, given the feedback, the right one.
    return repair ? reply(workflow.tool.name, wire({ display_name: null })) : reply(workflow.tool.name, {});
  });
  dir = await mkdtemp(join(tmpdir(), "strictwire-gemini-"));
  const run = await runEval({
    suite: { ...suite.value, scenarios },
    oracle: oracle.value,
    arms: BUILTIN_ARMS.filter((a) => a.name === "tagged"),
    api: "gemini",
    endpoint: `${server.url}/v1beta`,
    key: KEY,
    settings: { model: "gemini-x", maxTokens: 256, temperature: 0 },
    repeat: 1,
    seed: 1,
    concurrency: 1,
    repair: 1,
    timeoutMs: 5000,
    retries: 0,
    backoffMs: 5,
    resultsFile: join(dir, "results.jsonl"),
    resume: false,
    countTokens: (t) => Math.ceil(t.length / 4),
  });
  if (!run.ok) expect.unreachable(run.error.message);
  const byId = (id: string) => run.value.records.find((r) => r.scenario === id);
  expect(byId("null-01")?.first?.judgement.correct).toBe(true);
  expect(byId("null-01")?.first?.value).toEqual({ timezone: null });
  expect(byId("null-02")?.first?.decodeError?.code).toBe("wire-violation");
  expect(byId("null-02")?.repair?.judgement.correct).toBe(true);

  const [first] = server.seen;
  expect(first?.path).toBe("/v1beta/models/gemini-x:generateContent");
  expect(first?.headers["x-goog-api-key"]).toBe(KEY);
  expect(first?.body.toolConfig).toEqual({
    functionCallingConfig: {
      mode: "VALIDATED",
      allowedFunctionNames: [workflow.tool.name, "ask_clarification", "refuse_request"],
    },
  });
  const [declarations] = (first?.body.tools ?? []) as { functionDeclarations: Record<string, unknown>[] }[];
  expect(declarations?.functionDeclarations[0]?.parametersJsonSchema).toEqual(codec.value.wire);
  expect(declarations?.functionDeclarations.some((d) => "parameters" in d)).toBe(false);
  // The repair turn: the model's own turn, then the feedback as the call's functionResponse.
  const repair = server.seen.find((s) => (s.body.contents as unknown[]).length === 3);
  const [, model, answer] = (repair?.body.contents ?? []) as { role: string; parts: Record<string, unknown>[] }[];
  expect(model?.role).toBe("model");
  expect(answer?.parts[0]?.functionResponse).toEqual({
    id: "fc1",
    name: workflow.tool.name,
    response: { error: expect.stringContaining("update_profile_settings do not follow the tool's parameter schema") },
  });
});
