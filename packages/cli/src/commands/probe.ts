/**
 * probe: ask a live endpoint whether it takes each tool in strict mode. The
 * library (@strictwire/eval `probeTools`) sends the requests; this reads the
 * bundles (each compiled for the API's target, as `check` and the dispatcher
 * require), the key and the flags, and prints what the provider said.
 * Exit 0: every request accepted; 1: the provider refused one; 2: usage or
 * environment (a bad flag, a missing key, a bundle that does not load, or no
 * verdict: a refused key, an unknown model, a timeout, the budget).
 */
import { outputFormat, outputProbeRequest, toolDefinition } from "@strictwire/codec";
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_TIMER_MS } from "@strictwire/codec/http";
import { printableDeep } from "@strictwire/codec/printable";
import type { RequestTool } from "@strictwire/codec/providers";
import {
  API_NAMES,
  type ExchangeApiName,
  exchangeApi,
  type ProbeAnswer,
  type ProbeResult,
  probeTools,
} from "@strictwire/eval";
import { apiKey, missingKeyMessage } from "../api-key.js";
import { endpointFor } from "../endpoint.js";
import { EXIT_OK, EXIT_REJECTED, EXIT_USAGE, type ExitCode, succeed, usage } from "../failure.js";
import { oneStdin } from "../input.js";
import { numberFlag } from "../number-flag.js";
import type { Reporter } from "../report.js";
import { readCodec } from "./bundle-input.js";
import { MAX_OUTPUT_TOKENS, MAX_RETRIES } from "./eval-options.js";

export interface ProbeFlags {
  readonly api?: string;
  readonly endpoint?: string;
  readonly model?: string;
  readonly maxRequests?: string;
  readonly maxTokens?: string;
  readonly timeout?: string;
  readonly retries?: string;
  /** The bundles are answer formats (structured outputs), not tools. */
  readonly outputFormat?: boolean;
  readonly maxResponseBytes?: string;
}

export async function runProbeCommand(
  files: readonly string[],
  flags: ProbeFlags,
  reporter: Reporter,
): Promise<ExitCode> {
  const bad = (message: string): ExitCode => reporter.fail(usage(message).error);
  const api = (flags.api ?? "chat") as ExchangeApiName;
  const providerApi = exchangeApi(api);
  if (providerApi === undefined) return bad(`--api must be one of ${API_NAMES.join(", ")}`);
  if (flags.model === undefined || flags.model.trim() === "") return bad("--model is required");
  const numbers: Record<string, number> = {};
  // eval's bounds for the flags the two share: a timer over MAX_TIMER_MS would fire at once.
  for (const [name, raw, fallback, bound] of [
    ["max-requests", flags.maxRequests, undefined, { min: 0, integer: true }],
    ["max-tokens", flags.maxTokens, 16, { min: 1, max: MAX_OUTPUT_TOKENS, integer: true }],
    ["timeout", flags.timeout, 60_000, { min: 1, max: MAX_TIMER_MS, integer: true }],
    ["retries", flags.retries, 2, { min: 0, max: MAX_RETRIES, integer: true }],
    ["max-response-bytes", flags.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, { min: 1, integer: true }],
  ] as const) {
    const n = raw === undefined ? succeed(fallback ?? Number.NaN) : numberFlag(`--${name}`, raw, bound);
    if (!n.ok) return reporter.fail(n.error);
    numbers[name] = n.value;
  }
  const base = endpointFor(flags.endpoint, api);
  if (!base.ok) return bad(base.error);
  const endpoint = base.value;

  const single = oneStdin(files);
  if (!single.ok) return reporter.fail(single.error);
  const tools: RequestTool[] = [];
  const answers: ProbeAnswer[] = [];
  for (const file of files) {
    const codec = await readCodec(file, reporter);
    if (!codec.ok) return reporter.fail(codec.error);
    if (flags.outputFormat === true) {
      // The API's answer format around the wire, as the library sends it, in a minimal request.
      const format = outputFormat(codec.value, providerApi);
      if (!format.ok) return bad(`${file}: ${format.error.message}`);
      const request = outputProbeRequest(providerApi, flags.model, numbers["max-tokens"] as number, format.value);
      answers.push({ name: codec.value.name, request });
      continue;
    }
    // The wire is sent as compiled, so it must be compiled for this API's target.
    const definition = toolDefinition(codec.value.bundle, providerApi);
    if (!definition.ok) return bad(`${file}: ${definition.error.message}`);
    if (tools.some((t) => t.name === codec.value.name))
      return bad(`two bundles are tool ${codec.value.name}: a request holds each tool once`);
    const { bundle } = codec.value;
    tools.push({
      name: bundle.name,
      ...(bundle.description !== undefined ? { description: bundle.description } : {}),
      parameters: bundle.wire,
      strict: true,
    });
  }

  // Checked last: a missing key must not hide a mistake in the command itself.
  const key = apiKey(reporter.io.env, api);
  if (key === undefined) return bad(missingKeyMessage(api));

  const maxRequests = numbers["max-requests"] as number;
  const report = await probeTools({
    api,
    endpoint,
    key,
    model: flags.model,
    tools,
    ...(answers.length > 0 ? { answers } : {}),
    maxTokens: numbers["max-tokens"] as number,
    ...(Number.isNaN(maxRequests) ? {} : { maxRequests }),
    timeoutMs: numbers.timeout as number,
    retries: numbers.retries as number,
    maxResponseBytes: numbers["max-response-bytes"] as number,
  });

  const refused = report.results.some((r) => r.verdict === "refused");
  const failed = report.results.some((r) => r.verdict === "failed");
  const exit: ExitCode = refused ? EXIT_REJECTED : failed ? EXIT_USAGE : EXIT_OK;
  if (reporter.json) {
    reporter.data({
      ok: exit === EXIT_OK,
      api,
      model: flags.model,
      endpoint,
      requests: report.requests,
      results: report.results,
    });
  } else {
    // The provider's words are its own: shown printable, as the JSON form escapes them.
    reporter.result(render(printableDeep(report.results), reporter));
    reporter.note(
      `${report.requests} request${report.requests === 1 ? "" : "s"} sent to ${endpoint} (${api}, ${flags.model})`,
    );
  }
  return exit;
}

function render(results: readonly ProbeResult[], reporter: Reporter): string {
  const s = reporter.out;
  const width = Math.max(...results.map((r) => label(r).length));
  return results
    .map((r) => {
      if (r.verdict === "accepted") return `${s.green("accepted")}  ${label(r)}`;
      const name = label(r).padEnd(width);
      if (r.verdict === "refused") {
        const rule = r.rule !== undefined ? ` [${r.rule}]` : "";
        return `${s.red("refused ")}  ${name}  ${r.status}${rule}: ${r.message}`;
      }
      const status = r.status !== undefined ? ` ${r.status}` : "";
      return `${s.yellow("failed  ")}  ${name}  ${r.reason}${status}: ${r.message}`;
    })
    .join("\n");
}

const label = (r: ProbeResult): string =>
  r.tool === "*" ? `all ${r.tools.length} tools together` : r.tools.length === 0 ? `${r.tool} (answer format)` : r.tool;
