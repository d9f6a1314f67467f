/**
 * strictwire eval: run the intent benchmark against a model endpoint. The
 * library (@strictwire/eval) does the work; this reads flags, the key and the
 * suite, shows progress on a terminal and prints the report.
 */
import { access } from "node:fs/promises";
import {
  API_NAMES,
  type Api,
  type Arm,
  BUILTIN_ARMS,
  BUNDLED_SUITE,
  DEFAULT_ARMS,
  DEFAULT_ENDPOINTS,
  loadOracle,
  loadPeerArms,
  loadSuite,
  renderMarkdown,
  renderTable,
  runEval,
  summarise,
} from "@strictwire/eval";
import { apiKey, missingKeyMessage } from "../api-key.js";
import { writeAtomic } from "../atomic.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode, type Failure, usage } from "../failure.js";
import { progress } from "../progress.js";
import type { Reporter } from "../report.js";
import { tokenCounter } from "../tokens.js";

export interface EvalFlags {
  readonly api?: string;
  readonly endpoint?: string;
  readonly model?: string;
  readonly suite?: string;
  readonly arms?: string;
  readonly repeat?: string;
  readonly seed?: string;
  readonly concurrency?: string;
  readonly maxRequests?: string;
  readonly maxCost?: string;
  readonly priceIn?: string;
  readonly priceOut?: string;
  readonly repair?: string;
  readonly timeout?: string;
  readonly retries?: string;
  readonly backoff?: string;
  readonly maxTokens?: string;
  readonly temperature?: string;
  readonly out?: string;
  readonly resume?: boolean;
  readonly report?: string;
  readonly json?: boolean;
}

const envFailure = (code: string, message: string): Failure => ({
  exit: EXIT_USAGE,
  error: { code, path: "", message, feedback: message },
});

function number(
  flag: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  integer: boolean,
): number | string {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    return `--${flag} must be ${integer ? "an integer" : "a number"} of at least ${min}, not ${JSON.stringify(raw)}`;
  return n;
}

export async function runEvalCommand(flags: EvalFlags, reporter: Reporter): Promise<ExitCode> {
  const bad = (message: string): ExitCode => reporter.fail(usage(message).error);
  const api = (flags.api ?? "chat") as Api;
  if (!API_NAMES.includes(api)) return bad(`--api must be one of ${API_NAMES.join(", ")}`);
  if (flags.model === undefined || flags.model.trim() === "") return bad("--model is required");
  const nums: Record<string, number> = {};
  const specs: [string, string | undefined, number, number, boolean][] = [
    ["repeat", flags.repeat, 1, 1, true],
    ["seed", flags.seed, 1, 0, true],
    ["concurrency", flags.concurrency, 1, 1, true],
    ["max-requests", flags.maxRequests, Number.POSITIVE_INFINITY, 0, true],
    ["max-cost", flags.maxCost, Number.POSITIVE_INFINITY, 0, false],
    ["price-in", flags.priceIn, -1, 0, false],
    ["price-out", flags.priceOut, -1, 0, false],
    ["repair", flags.repair, 0, 0, true],
    ["timeout", flags.timeout, 60_000, 1, true],
    ["retries", flags.retries, 3, 0, true],
    ["backoff", flags.backoff, 1000, 0, true],
    ["max-tokens", flags.maxTokens, 1024, 1, true],
    ["temperature", flags.temperature, 0, 0, false],
  ];
  for (const [name, raw, fallback, min, integer] of specs) {
    const n = number(name, raw, fallback, min, integer);
    if (typeof n === "string") return bad(n);
    nums[name] = n;
  }
  const get = (name: string): number => nums[name] as number;
  if (get("repair") > 1) return bad("--repair must be 0 or 1");
  const priced = get("price-in") >= 0 && get("price-out") >= 0;
  if (get("price-in") >= 0 !== get("price-out") >= 0) return bad("give both --price-in and --price-out");
  if (flags.maxCost !== undefined && !priced) return bad("--max-cost needs --price-in and --price-out");

  const names = (flags.arms ?? DEFAULT_ARMS.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const arms: Arm[] = [];
  // The peer converters are loaded only when asked for: they are large, and optional.
  const builtin = (n: string): boolean => BUILTIN_ARMS.some((a) => a.name === n);
  const known = names.every(builtin) ? BUILTIN_ARMS : [...BUILTIN_ARMS, ...(await loadPeerArms())];
  for (const name of names) {
    const arm = known.find((a) => a.name === name);
    if (arm === undefined)
      return bad(`unknown arm ${JSON.stringify(name)}; arms: ${known.map((a) => a.name).join(", ")}`);
    if (!arms.includes(arm)) arms.push(arm);
  }

  // The key: never printed, logged or written; only sent in the request's auth header.
  const env = reporter.io.env;
  const key = apiKey(env, api);
  if (key === undefined) return reporter.fail(envFailure("usage", missingKeyMessage(api)));
  const endpoint = flags.endpoint ?? DEFAULT_ENDPOINTS[api];
  try {
    const u = new URL(endpoint);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
  } catch {
    return bad(`--endpoint must be an http(s) base URL, not ${JSON.stringify(endpoint)}`);
  }

  const dir = flags.suite ?? BUNDLED_SUITE;
  const suite = await loadSuite(dir);
  if (!suite.ok) return reporter.fail(envFailure(suite.error.code, suite.error.message));
  const oracle = await loadOracle(dir, suite.value);
  if (!oracle.ok) return reporter.fail(envFailure(oracle.error.code, oracle.error.message));

  const resultsFile = flags.out ?? "strictwire-eval.jsonl";
  if (flags.resume !== true) {
    const exists = await access(resultsFile).then(
      () => true,
      () => false,
    );
    if (exists) return bad(`${resultsFile} exists: add --resume to continue that run, or choose another --out`);
  }

  const countTokens = await tokenCounter();
  const price = priced ? { input: get("price-in"), output: get("price-out") } : undefined;
  const total = arms.length * suite.value.scenarios.length * get("repeat");
  const bar = progress(reporter.io.stderr, total);
  const outcome = await runEval({
    suite: suite.value,
    oracle: oracle.value,
    arms,
    api,
    endpoint,
    key,
    settings: { model: flags.model, maxTokens: get("max-tokens"), temperature: get("temperature") },
    repeat: get("repeat"),
    seed: get("seed"),
    concurrency: get("concurrency"),
    repair: get("repair") === 1 ? 1 : 0,
    ...(Number.isFinite(get("max-requests")) ? { maxRequests: get("max-requests") } : {}),
    ...(Number.isFinite(get("max-cost")) ? { maxCost: get("max-cost") } : {}),
    ...(price !== undefined ? { price } : {}),
    timeoutMs: get("timeout"),
    retries: get("retries"),
    backoffMs: get("backoff"),
    resultsFile,
    resume: flags.resume === true,
    countTokens,
    onTrial: (done, all) => bar.show(done, `of ${all} trials`),
  });
  bar.clear();
  if (!outcome.ok) return reporter.fail(envFailure(outcome.error.code, outcome.error.message));
  const report = summarise(
    outcome.value,
    arms.map((a) => a.name),
    price,
  );
  if (outcome.value.stopped !== undefined)
    reporter.warn(`stopped before exceeding the budget (${outcome.value.stopped}); rerun with --resume to continue`);
  if (flags.report !== undefined) {
    const title = `strictwire eval: ${flags.model} via ${api}`;
    const written = await writeAtomic(flags.report, renderMarkdown(report, outcome.value.records, title));
    if (!written.ok) return reporter.fail(written.error);
  }
  if (reporter.json) return reporter.ok({ results: resultsFile, report });
  reporter.result(renderTable(report));
  return EXIT_OK;
}
