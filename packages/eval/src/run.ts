/**
 * A run: the deterministic interleaved schedule, a worker pool, the budget,
 * and results appended to a JSONL file as they arrive (so a run resumes).
 */
import { appendFile } from "node:fs/promises";
import type { Result } from "@strictwire/codec";
import { readFileCapped, readLinesCapped, writeFileAtomic } from "@strictwire/codec/files";
import type { Reply, RequestSettings } from "@strictwire/codec/providers";
import type { Arm, ArmTool } from "./arms.js";
import { postJson, requestJson } from "./http.js";
import { endpointHost, isLoopback, type Provenance, strictwireCommit, strictwireVersion } from "./provenance.js";
import { buildRequest, type ExchangeApiName, exchangeApi, exchangeOf } from "./providers.js";
import { redact, redactDeep } from "./redact.js";
import { type Judgement, judge, type Observed } from "./score.js";
import { prng, shuffle } from "./stats.js";
import { type Json, type Oracle, type Scenario, type Suite, suiteDigest, type Workflow } from "./suite.js";

export interface RunOptions {
  readonly suite: Suite;
  readonly oracle: Oracle;
  readonly arms: readonly Arm[];
  readonly api: ExchangeApiName;
  readonly endpoint: string;
  readonly key: string;
  readonly settings: RequestSettings;
  readonly repeat: number;
  readonly seed: number;
  readonly concurrency: number;
  readonly repair: 0 | 1;
  readonly maxRequests?: number;
  readonly maxCost?: number;
  /** Dollars per million tokens. */
  readonly price?: { readonly input: number; readonly output: number };
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  /** Bytes of one response body read at most (DEFAULT_MAX_RESPONSE_BYTES of @strictwire/codec/http). */
  readonly maxResponseBytes?: number;
  readonly resultsFile: string;
  readonly resume: boolean;
  /**
   * The results file is a leftover holding no trial (see `holdsNoTrial`): it is
   * replaced, atomically, rather than appended to.
   */
  readonly replace?: boolean;
  readonly countTokens: (text: string) => number;
  readonly onTrial?: (done: number, total: number) => void;
}

export interface AttemptRecord {
  readonly accepted: boolean;
  readonly status?: number;
  readonly error?: string;
  readonly calls: number;
  readonly toolName?: string;
  readonly argumentsText?: string;
  readonly argumentTokens?: number;
  readonly decodeError?: { code: string; message: string };
  readonly value?: Json;
  readonly judgement: Judgement;
  readonly usage?: { input: number; output: number };
  /** The model name the response gave, when it gave one. */
  readonly answeredModel?: string;
  readonly latencyMs: number;
  readonly httpAttempts: number;
}

export interface TrialRecord {
  readonly type: "trial";
  readonly key: string;
  readonly arm: string;
  readonly scenario: string;
  readonly workflow: string;
  readonly category: string;
  readonly repetition: number;
  readonly api: ExchangeApiName;
  readonly model: string;
  readonly unsupported?: string;
  readonly first?: AttemptRecord;
  readonly repair?: AttemptRecord;
}

export interface RunOutcome {
  readonly provenance: Provenance;
  /** The suite's categories in the order its scenarios name them. */
  readonly categories: readonly string[];
  readonly records: readonly TrialRecord[];
  readonly planned: number;
  readonly resumed: number;
  readonly stopped?: string;
}

export interface RunError {
  readonly code: "usage" | "unreachable" | "unauthorized" | "redirected" | "response-too-large" | "results-file";
  readonly path: string;
  readonly message: string;
  readonly feedback: string;
}

export interface Planned {
  readonly key: string;
  readonly arm: Arm;
  readonly scenario: Scenario;
  readonly repetition: number;
}

export const trialKey = (arm: string, scenario: string, repetition: number): string =>
  `${arm}|${scenario}|${repetition}`;

/** Each repetition is one shuffled round over every (arm, scenario), so arms interleave in time. */
export function schedule(
  arms: readonly Arm[],
  scenarios: readonly Scenario[],
  repeat: number,
  seed: number,
): Planned[] {
  const random = prng(seed);
  const plan: Planned[] = [];
  for (let repetition = 0; repetition < repeat; repetition++) {
    const round = arms.flatMap((arm) =>
      scenarios.map((scenario) => ({ arm, scenario, repetition, key: trialKey(arm.name, scenario.id, repetition) })),
    );
    plan.push(...shuffle(round, random));
  }
  return plan;
}

export const SYSTEM_PREAMBLE =
  "You change stored data through tools. The stored state is in the user's message. Call exactly one tool: " +
  "the workflow's tool to carry out a request that is valid and fully specified; ask_clarification when the request " +
  "does not determine every value you would write; refuse_request when the request is invalid, out of range or not allowed.";

export function systemText(workflow: Workflow): string {
  return `${SYSTEM_PREAMBLE}\n\nPolicy for ${workflow.tool.name}: ${workflow.policy}`;
}

export function userText(workflow: Workflow, scenario: Scenario): string {
  return `Stored ${workflow.resource}:\n${JSON.stringify(scenario.state)}\n\nRequest: ${scenario.instruction}`;
}

export interface Finished {
  readonly trials: TrialRecord[];
  /** The provenance line of every run that wrote to the file. */
  readonly runs: Provenance[];
}

/**
 * A results line holds one trial: its arguments text is one response's at most
 * (--max-response-bytes), escaped. A longer line is no line eval wrote.
 */
const MAX_RESULTS_LINE_BYTES = 64 * 1024 * 1024;
/** The results file is read into memory trial by trial: bounded, as every input. */
const MAX_RESULTS_BYTES = 1024 * 1024 * 1024;

/**
 * Finished trials from an earlier run of the same model and API; a torn last line (a kill mid-write) is ignored.
 * Read line by line, each line and the whole file bounded: a results file is an input, maybe not eval's own.
 */
export async function readFinished(file: string): Promise<Result<Finished, RunError>> {
  const trials: TrialRecord[] = [];
  const runs: Provenance[] = [];
  const refuse = (m: string) => ({
    ok: false as const,
    error: { code: "results-file" as const, path: file, message: m, feedback: m },
  });
  const lines = readLinesCapped(file, { maxLineBytes: MAX_RESULTS_LINE_BYTES, maxBytes: MAX_RESULTS_BYTES });
  for await (const read of lines) {
    if (!read.ok) {
      const { code, line, message } = read.error;
      if (code === "not-found") return { ok: true, value: { trials: [], runs: [] } };
      return refuse(line !== undefined ? `${file} line ${line}: ${message}` : `cannot read ${file} (${message})`);
    }
    const { number, text } = read.value;
    if (text.trim() === "") continue;
    let r: TrialRecord | Provenance;
    try {
      r = JSON.parse(text) as TrialRecord | Provenance;
    } catch {
      continue; // an interrupted write: that trial simply runs again
    }
    if (r?.type === "trial" && typeof r.key === "string") {
      // A whole line is no torn write: a trial out of shape (edited, another version) would be summed as if sound.
      const problem = trialProblem(r);
      if (problem !== undefined)
        return refuse(`${file} line ${number}: ${problem}; delete the line to run that trial again`);
      trials.push(r);
    }
    if (r?.type === "run" && typeof r.suite?.digest === "string") runs.push(r);
  }
  return { ok: true, value: { trials, runs } };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** What a results line claiming to be a trial lacks that the summary and report read, or undefined. */
function trialProblem(r: TrialRecord): string | undefined {
  for (const k of ["arm", "scenario", "workflow", "category", "api", "model"] as const)
    if (typeof r[k] !== "string") return `the trial has no string "${k}"`;
  if (!Number.isSafeInteger(r.repetition) || r.repetition < 0) return `the trial has no "repetition"`;
  if (r.key !== trialKey(r.arm, r.scenario, r.repetition)) return `the trial's key is not its arm|scenario|repetition`;
  if (r.unsupported !== undefined && typeof r.unsupported !== "string") return `its "unsupported" is not a string`;
  for (const which of ["first", "repair"] as const) {
    const a: unknown = r[which];
    if (a === undefined) continue;
    const problem = attemptProblem(a);
    if (problem !== undefined) return `its "${which}" attempt ${problem}`;
  }
  return undefined;
}

function attemptProblem(a: unknown): string | undefined {
  if (!isObj(a)) return "is not an object";
  if (typeof a.accepted !== "boolean") return `has no boolean "accepted"`;
  for (const k of ["calls", "latencyMs", "httpAttempts"]) if (!isNum(a[k])) return `has no number "${k}"`;
  for (const k of ["status", "argumentTokens"])
    if (a[k] !== undefined && !isNum(a[k])) return `has a "${k}" that is no number`;
  for (const k of ["error", "toolName", "argumentsText", "answeredModel"])
    if (a[k] !== undefined && typeof a[k] !== "string") return `has a "${k}" that is no string`;
  const d = a.decodeError;
  if (d !== undefined && !(isObj(d) && typeof d.code === "string" && typeof d.message === "string"))
    return `has a "decodeError" without its code and message`;
  const u = a.usage;
  if (u !== undefined && !(isObj(u) && isNum(u.input) && isNum(u.output)))
    return `has a "usage" without its input and output`;
  const j = a.judgement;
  if (!isObj(j)) return `has no "judgement"`;
  for (const k of ["actionRight", "argsExact", "finalStateRight", "correct"])
    if (typeof j[k] !== "boolean") return `has a judgement without its boolean "${k}"`;
  if (typeof j.action !== "string") return `has a judgement without its "action"`;
  if (!Array.isArray(j.redundantWrites) || !j.redundantWrites.every((w) => typeof w === "string"))
    return `has a judgement without its "redundantWrites"`;
  return undefined;
}

const runError = (code: RunError["code"], message: string): { ok: false; error: RunError } => ({
  ok: false,
  error: { code, path: "", message, feedback: message },
});

export async function runEval(o: RunOptions): Promise<Result<RunOutcome, RunError>> {
  const exchange = exchangeOf(o.api);
  const earlier = o.resume ? await readFinished(o.resultsFile) : { ok: true as const, value: { trials: [], runs: [] } };
  if (!earlier.ok) return earlier;
  const previous = earlier.value.trials;
  const host = endpointHost(o.endpoint);
  const provenance: Provenance = redactDeep<Provenance>(
    {
      type: "run",
      date: new Date().toISOString(),
      strictwire: { version: strictwireVersion(), ...optional("commit", strictwireCommit()) },
      endpointHost: host,
      loopback: isLoopback(host),
      api: o.api,
      model: o.settings.model,
      suite: { digest: suiteDigest(o.suite, o.oracle), scenarios: o.suite.scenarios.length },
      seed: o.seed,
      repeat: o.repeat,
      arms: o.arms.map((a) => a.name),
    },
    o.key,
  );
  const otherSuite = earlier.value.runs.find((r) => r.suite.digest !== provenance.suite.digest);
  if (otherSuite !== undefined)
    return runError(
      "results-file",
      `${o.resultsFile} holds trials of another suite (${otherSuite.suite.digest}); resume with the same suite, or use another --out`,
    );
  // Any spelling of the same API resumes it.
  const other = previous.find((r) => r.model !== o.settings.model || exchangeApi(r.api) !== exchangeApi(o.api));
  if (other !== undefined)
    return runError(
      "results-file",
      `${o.resultsFile} holds trials of ${other.api}/${other.model}; resume with the same --api and --model, or use another --out`,
    );
  const categories = [...new Set(o.suite.scenarios.map((s) => s.category))];
  const done = new Map(previous.map((r) => [r.key, r]));
  const plan = schedule(o.arms, o.suite.scenarios, o.repeat, o.seed);
  const todo = plan.filter((p) => !done.has(p.key));
  const records: TrialRecord[] = plan.flatMap((p) => {
    const r = done.get(p.key);
    return r === undefined ? [] : [r];
  });

  const prepared = new Map<string, Result<ArmTool, { message: string }>>();
  const toolOf = (arm: Arm, workflow: Workflow): Result<ArmTool, { message: string }> => {
    const k = `${arm.name}|${workflow.id}`;
    let p = prepared.get(k);
    if (p === undefined) {
      const why = arm.unavailable(o.api);
      p = why !== undefined ? { ok: false, error: { message: why } } : arm.prepare(workflow.tool, o.api);
      prepared.set(k, p);
    }
    return p;
  };

  let requests = 0;
  let spent = 0;
  let reserved = 0;
  let anyAnswer = previous.length > 0;
  let stopped: string | undefined;
  let fatal: RunError | undefined;
  let writes = Promise.resolve();
  const cost = (u: { input: number; output: number } | undefined): number =>
    u === undefined || o.price === undefined ? 0 : (u.input * o.price.input + u.output * o.price.output) / 1e6;

  const unreachable = (message: string): RunError => ({
    code: "unreachable",
    path: "",
    message: `cannot reach ${withoutCredentials(o.endpoint)} (${redact(message, o.key)})`,
    feedback: "",
  });

  /** Sends one request, `text` its JSON, within the budget; undefined when the budget stopped it. */
  const send = async (body: Record<string, unknown>, text: string) => {
    const estimate =
      o.maxCost === undefined || o.price === undefined
        ? 0
        : (o.countTokens(text) * o.price.input + o.settings.maxTokens * o.price.output) / 1e6;
    const mayAttempt = (): boolean => {
      if (stopped !== undefined || fatal !== undefined) return false;
      if (o.maxRequests !== undefined && requests >= o.maxRequests) {
        stopped = `--max-requests ${o.maxRequests} reached`;
        return false;
      }
      // `reserved` already holds this request's own worst case, and every other request in flight.
      if (o.maxCost !== undefined && spent + reserved > o.maxCost) {
        stopped = `--max-cost ${o.maxCost}: the next request could cost up to $${estimate.toFixed(6)} and $${(spent + reserved - estimate).toFixed(6)} is spent or reserved`;
        return false;
      }
      requests += 1;
      return true;
    };
    reserved += estimate;
    try {
      return await postJson(exchange.url(o.endpoint, o.settings.model), exchange.headers(o.key), body, {
        timeoutMs: o.timeoutMs,
        retries: o.retries,
        backoffMs: o.backoffMs,
        mayAttempt,
        ...(o.maxResponseBytes !== undefined ? { maxResponseBytes: o.maxResponseBytes } : {}),
      });
    } finally {
      reserved -= estimate;
    }
  };

  /** One request and its judgement; undefined when the run stopped before sending it. */
  const attempt = async (scenario: Scenario, workflow: Workflow, armTool: ArmTool, body: Record<string, unknown>) => {
    const expected = o.oracle.expected.get(scenario.id) ?? { action: "update" as const };
    const notAccepted = (
      error: string,
      sent: { attempts: number; latencyMs?: number },
      status?: number,
    ): AttemptRecord => ({
      accepted: false,
      ...(status !== undefined ? { status } : {}),
      error,
      calls: 0,
      judgement: judge(scenario, workflow.tool, expected, { calls: 0 }),
      latencyMs: sent.latencyMs ?? 0,
      httpAttempts: sent.attempts,
    });
    // A repair turn carries the reply back: nested past JSON.stringify's stack, it cannot be sent, and is not.
    const json = requestJson(body);
    if (!json.ok)
      return { record: notAccepted(`not-sent: ${json.message}`, { attempts: 0 }), reply: undefined, call: undefined };
    const http = await send(body, json.text);
    if (http.kind === "stopped") {
      // The budget ended the retries of a first request that never connected: unreachable, as without a budget.
      if (http.after?.reason === "network" && !anyAnswer) fatal = unreachable(http.after.message);
      return undefined;
    }
    if (http.kind === "failed") {
      if (http.reason === "redirect")
        fatal = {
          code: "redirected",
          path: "",
          message: `the endpoint answered with a redirect (${redact(http.message, o.key)}); the key is never sent on to another location: give the final base URL as --endpoint`,
          feedback: "",
        };
      else if (http.reason === "network" && !anyAnswer) fatal = unreachable(http.message);
      else if (http.reason === "too-large")
        fatal = {
          code: "response-too-large",
          path: "",
          message: `the endpoint's ${redact(http.message, o.key)}; raise the cap with --max-response-bytes if the endpoint is trusted`,
          feedback: "",
        };
      return {
        record: notAccepted(`${http.reason}: ${http.message}`, http, http.status),
        reply: undefined,
        call: undefined,
      };
    }
    anyAnswer = true;
    if (http.status === 401 || http.status === 403) {
      fatal = {
        code: "unauthorized",
        path: "",
        message: `the endpoint refused the key (HTTP ${http.status})`,
        feedback: "",
      };
    }
    const reply: Reply | undefined = http.status === 200 ? exchange.reply(http.body) : undefined;
    if (reply === undefined) {
      // A provider may quote the request back: redacted first, then cut, so no part of the key survives the cut.
      const message = errorText(http.body, o.key);
      return {
        record: notAccepted(`HTTP ${http.status}${message ? `: ${message}` : ""}`, http, http.status),
        reply: undefined,
        call: undefined,
      };
    }
    spent += cost(reply.usage);
    const call = reply.calls.length === 1 ? reply.calls[0] : undefined;
    let observed: Observed = { calls: reply.calls.length };
    let decodeError: AttemptRecord["decodeError"];
    let value: Json | undefined;
    let feedback: string | undefined;
    if (call !== undefined) {
      observed = { ...observed, toolName: call.name, argumentsText: call.arguments };
      if (call.name === workflow.tool.name) {
        const d = await armTool.decode(call.arguments);
        if (d.ok) {
          value = d.value;
          observed = { ...observed, decoded: { ok: true, value: d.value } };
        } else {
          decodeError = { code: d.error.code, message: d.error.message };
          feedback = d.error.feedback;
          observed = { ...observed, decoded: { ok: false, ...decodeError } };
        }
      }
    }
    const record: AttemptRecord = {
      accepted: true,
      status: http.status,
      calls: reply.calls.length,
      ...(call !== undefined
        ? { toolName: call.name, argumentsText: call.arguments, argumentTokens: o.countTokens(call.arguments) }
        : {}),
      ...(decodeError !== undefined ? { decodeError } : {}),
      ...(value !== undefined ? { value } : {}),
      judgement: judge(scenario, workflow.tool, expected, observed),
      ...(reply.usage !== undefined ? { usage: reply.usage } : {}),
      ...optional("answeredModel", answeredModel(http.body)),
      latencyMs: Math.round(http.latencyMs),
      httpAttempts: http.attempts,
    };
    return { record, reply: http.body, call: feedback !== undefined ? { call, feedback } : undefined };
  };

  const runTrial = async (p: Planned): Promise<TrialRecord | undefined> => {
    const workflow = o.suite.workflows.get(p.scenario.workflow) as Workflow;
    const base = {
      type: "trial" as const,
      key: p.key,
      arm: p.arm.name,
      scenario: p.scenario.id,
      workflow: workflow.id,
      category: p.scenario.category,
      repetition: p.repetition,
      api: o.api,
      model: o.settings.model,
    };
    const armTool = toolOf(p.arm, workflow);
    if (!armTool.ok) return { ...base, unsupported: armTool.error.message };
    const record = await attempts(p, workflow, armTool.value, base);
    // Whatever a server echoes (arguments, error text, model names) may hold the key: none of it is kept unredacted.
    return record === undefined ? undefined : redactDeep(record, o.key);
  };

  const attempts = async (
    p: Planned,
    workflow: Workflow,
    armTool: ArmTool,
    base: Omit<TrialRecord, "first" | "repair" | "unsupported">,
  ): Promise<TrialRecord | undefined> => {
    const body = buildRequest(o.api, o.settings, systemText(workflow), userText(workflow, p.scenario), armTool.tool);
    const first = await attempt(p.scenario, workflow, armTool, body);
    if (first === undefined) return undefined;
    if (o.repair === 1 && first.call !== undefined && first.call.call !== undefined) {
      const again = exchange.repair(body, first.reply, first.call.call, first.call.feedback) as typeof body;
      const second = await attempt(p.scenario, workflow, armTool, again);
      if (second === undefined) return undefined; // the budget stopped the repair: the whole trial runs again on resume
      return { ...base, first: first.record, repair: second.record };
    }
    return { ...base, first: first.record };
  };

  let next = 0;
  let finished = records.length;
  const total = plan.length;
  /** A throw from a trial: a bug, not a file error. The other workers stop, and runEval throws it. */
  let bug: Error | undefined;
  const cannotAppend = (error: unknown) =>
    runError("results-file", `cannot append to ${o.resultsFile} (${(error as Error).message})`);
  const trial = async (p: Planned): Promise<void> => {
    const record = await runTrial(p);
    if (record === undefined || fatal !== undefined) return;
    records.push(record);
    finished += 1;
    const line = `${JSON.stringify(record)}\n`;
    writes = writes.then(() => appendFile(o.resultsFile, line));
    // Only a failed write is a results-file error.
    try {
      await writes;
    } catch (error) {
      fatal ??= cannotAppend(error).error;
      return;
    }
    o.onTrial?.(finished, total);
  };
  const worker = async (): Promise<void> => {
    while (stopped === undefined && fatal === undefined && bug === undefined && next < todo.length) {
      const p = todo[next++] as Planned;
      await trial(p).catch((error: unknown) => {
        bug ??= new Error(`eval: trial ${p.key} threw: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      });
    }
  };
  const head = `${JSON.stringify(provenance)}\n`;
  writes = o.replace === true ? replaceFile(o.resultsFile, head) : appendFile(o.resultsFile, head);
  try {
    await writes;
  } catch (error) {
    return cannotAppend(error);
  }
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  if (bug !== undefined) throw bug;
  if (fatal !== undefined) return { ok: false, error: fatal };
  return {
    ok: true,
    value: {
      provenance,
      categories,
      records,
      planned: total,
      resumed: previous.length,
      ...(stopped !== undefined ? { stopped } : {}),
    },
  };
}

async function replaceFile(file: string, text: string): Promise<void> {
  const written = writeFileAtomic(file, text);
  if (!written.ok) throw new Error(written.error.message);
}

/**
 * Whether a results file holds no trial and nothing but eval's own lines: one
 * or more run lines (the provenance every run writes first), blank lines, and
 * a torn last line. Such a file is what a run that stopped before any trial leaves behind;
 * anything else (a trial, a line eval would not write) is kept.
 */
export async function holdsNoTrial(file: string): Promise<boolean> {
  const read = await readFileCapped(file, LEFTOVER_BYTES);
  if (!read.ok) return false;
  const lines = new TextDecoder().decode(read.value).split("\n");
  const last = lines.length - 1;
  // An empty file is not eval's: every run writes its run line first.
  if (lines.every((line) => line.trim() === "")) return false;
  return lines.every((line, i) => {
    if (line.trim() === "") return true;
    try {
      const r = JSON.parse(line) as { type?: unknown };
      return typeof r === "object" && r !== null && r.type === "run";
    } catch {
      return i === last && line.startsWith('{"type":"run"');
    }
  });
}

/** Run lines are small: a file larger than this holds more than a leftover would. */
const LEFTOVER_BYTES = 1024 * 1024;

function errorText(body: unknown, key: string): string {
  if (typeof body !== "object" || body === null) return "";
  const e = (body as { error?: unknown }).error;
  const m = typeof e === "object" && e !== null ? (e as { message?: unknown }).message : e;
  return typeof m === "string" ? redact(m, key).slice(0, 300) : "";
}

/** The `model` every one of the three APIs puts in its response body. */
function answeredModel(body: unknown): string | undefined {
  const m = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof m === "string" && m !== "" ? m.slice(0, 200) : undefined;
}

/** The endpoint as a message may show it: no user name or password. */
function withoutCredentials(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    u.username = "";
    u.password = "";
    return u.href.replace(/\/$/, endpoint.endsWith("/") ? "/" : "");
  } catch {
    return "(the endpoint)";
  }
}

const optional = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } =>
  (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };
