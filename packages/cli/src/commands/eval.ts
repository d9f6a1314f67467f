/**
 * strictwire eval: run the intent benchmark against a model endpoint. The
 * library (@strictwire/eval) does the work; this reads flags, the key and the
 * suite, shows progress on a terminal and prints the report.
 */
import { access } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { printableDeep } from "@strictwire/codec/printable";
import {
  API_NAMES,
  type Arm,
  BUILTIN_ARMS,
  BUNDLED_SUITE,
  type ExchangeApiName,
  exchangeApi,
  holdsNoTrial,
  loadOracle,
  loadPeerArms,
  loadSuite,
  renderChart,
  renderMarkdown,
  renderTable,
  runEval,
  summarise,
} from "@strictwire/eval";
import { apiKey, missingKeyMessage } from "../api-key.js";
import { checkOutput, guardInputs, writeAtomic } from "../atomic.js";
import { endpointFor } from "../endpoint.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode, type Failure, overwritesInput, usage } from "../failure.js";
import { numberFlag } from "../number-flag.js";
import { progress } from "../progress.js";
import type { Reporter } from "../report.js";
import { tokenCounter } from "../tokens.js";
import { EVAL_OPTIONS, flagKey } from "./eval-options.js";

/** report.md → report.svg; a report without the .md ending gets .svg added. */
export function chartPath(report: string): string {
  const ext = extname(report);
  // The report's own spelling with its ending swapped: path.join would cancel "link/.." that the kernel follows.
  return ext.toLowerCase() === ".md" ? `${report.slice(0, -ext.length)}.svg` : `${report}.svg`;
}

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
  readonly maxResponseBytes?: string;
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

/** A flag as given, or the table's default: the one source of both. */
function flagValue(flags: EvalFlags, key: string): string | undefined {
  const given = (flags as Record<string, unknown>)[key];
  if (typeof given === "string") return given;
  return EVAL_OPTIONS.find((o) => flagKey(o.flag) === key)?.default;
}

export async function runEvalCommand(flags: EvalFlags, reporter: Reporter): Promise<ExitCode> {
  const bad = (message: string): ExitCode => reporter.fail(usage(message).error);
  // Any name or earlier spelling of an API the harness calls; the run records it as given.
  const api = flagValue(flags, "api") as ExchangeApiName;
  if (exchangeApi(api) === undefined) return bad(`--api must be one of ${API_NAMES.join(", ")}`);
  if (flags.model === undefined || flags.model.trim() === "") return bad("--model is required");
  const nums = new Map<string, number>();
  for (const o of EVAL_OPTIONS) {
    const key = flagKey(o.flag);
    const raw = flagValue(flags, key);
    if (o.number === undefined || raw === undefined) continue;
    const n = numberFlag(o.flag, raw, o.number);
    if (!n.ok) return reporter.fail(n.error);
    nums.set(key, n.value);
  }
  /** A number flag that has a default in the table. */
  const get = (key: string): number => nums.get(key) as number;
  if (get("repair") > 1) return bad("--repair must be 0 or 1");
  const priceIn = nums.get("priceIn");
  const priceOut = nums.get("priceOut");
  if ((priceIn === undefined) !== (priceOut === undefined)) return bad("give both --price-in and --price-out");
  const price = priceIn !== undefined && priceOut !== undefined ? { input: priceIn, output: priceOut } : undefined;
  if (nums.has("maxCost") && price === undefined) return bad("--max-cost needs --price-in and --price-out");

  const names = (flagValue(flags, "arms") ?? "")
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
  const base = endpointFor(flags.endpoint, api);
  if (!base.ok) return bad(base.error);
  const endpoint = base.value;

  const dir = flags.suite ?? BUNDLED_SUITE;
  const suite = await loadSuite(dir);
  if (!suite.ok) return reporter.fail(envFailure(suite.error.code, suite.error.message));
  const oracle = await loadOracle(dir, suite.value);
  if (!oracle.ok) return reporter.fail(envFailure(oracle.error.code, oracle.error.message));

  const resultsFile = flagValue(flags, "out") ?? "strictwire-eval.jsonl";
  let replace = false;
  if (flags.resume !== true) {
    const exists = await access(resultsFile).then(
      () => true,
      () => false,
    );
    // What a run that stopped before its first trial leaves (its run line only) holds nothing to resume: replaced.
    if (exists && !(await holdsNoTrial(resultsFile)))
      return bad(`${resultsFile} exists: add --resume to continue that run, or choose another --out`);
    replace = exists;
  }
  // Before any request is paid for: the results are appended to, and the report and its chart replace, a
  // regular file only, and none of them lands on another or on a file of the suite (the report, written last,
  // would replace the results or the suite's own scenarios.json).
  const outputs = flags.report !== undefined ? [resultsFile, flags.report, chartPath(flags.report)] : [resultsFile];
  const inputs = [...suite.value.files, join(suite.value.dir, "expected.json")];
  const landing = new Map<string, string>();
  for (const output of outputs) {
    const checked = checkOutput(output);
    if (!checked.ok) return reporter.fail(checked.error);
    const other = landing.get(checked.value);
    if (other !== undefined) return reporter.fail(overwritesInput(output, other).error);
    const guarded = await guardInputs(output, [...inputs, ...landing.values()]);
    if (!guarded.ok) return reporter.fail(guarded.error);
    landing.set(checked.value, output);
  }

  const countTokens = await tokenCounter();
  const total = arms.length * suite.value.scenarios.length * get("repeat");
  const bar = progress(reporter.io.stderr, total);
  const outcome = await runEval({
    suite: suite.value,
    oracle: oracle.value,
    arms,
    api,
    endpoint,
    key,
    settings: { model: flags.model, maxTokens: get("maxTokens"), temperature: get("temperature") },
    repeat: get("repeat"),
    seed: get("seed"),
    concurrency: get("concurrency"),
    repair: get("repair") === 1 ? 1 : 0,
    ...(nums.has("maxRequests") ? { maxRequests: get("maxRequests") } : {}),
    ...(nums.has("maxCost") ? { maxCost: get("maxCost") } : {}),
    ...(price !== undefined ? { price } : {}),
    timeoutMs: get("timeout"),
    retries: get("retries"),
    backoffMs: get("backoff"),
    maxResponseBytes: get("maxResponseBytes"),
    resultsFile,
    resume: flags.resume === true,
    replace,
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
  let chartFile: string | undefined;
  if (flags.report !== undefined) {
    const title = `strictwire eval: ${flags.model} via ${api}`;
    // The chart goes beside the report (GitHub does not show images embedded as data: URIs).
    chartFile = chartPath(flags.report);
    const chart = await writeAtomic(chartFile, renderChart(report));
    if (!chart.ok) return reporter.fail(chart.error);
    const markdown = renderMarkdown(report, outcome.value.records, title, basename(chartFile));
    const written = await writeAtomic(flags.report, markdown);
    if (!written.ok) return reporter.fail(written.error);
  }
  if (reporter.json)
    return reporter.ok({
      results: resultsFile,
      ...(flags.report !== undefined ? { markdown: flags.report, chart: chartFile } : {}),
      report,
    });
  // Model names and error texts are the endpoint's own: shown printable, as the JSON form escapes them.
  reporter.result(renderTable(printableDeep(report)));
  return EXIT_OK;
}
