/**
 * The whole classify run, for the CLI to wrap. Output streams: every result
 * (call lines, repairs, notes, parallel-call notes, the summary, and every
 * JSON object) goes to stdout, because the findings are the product and
 * belong in a pipe; what stops or limits the run (usage, credentials,
 * responses that could not be read, bundles skipped) goes to stderr.
 */
import type { ParseLimits } from "@strictwire/codec";
import { loadBundlesDir, readTextFile } from "./bundles.js";
import { type CallState, FINDINGS } from "./classify.js";
import type { ToolCodec } from "./codecs.js";
import { type FetchTuning, fetchStoredResponses } from "./fetch.js";
import { parseResponsesText, type ResponseEntry, readIds, responseEntry } from "./input.js";
import {
  type CallReport,
  emptyByState,
  humanLines,
  NOT_FOUND,
  parallelLine,
  reportCalls,
  type Summary,
  summaryLine,
  unreadableLine,
} from "./report.js";

export interface RunOptions {
  /** Offline: the text of one response, an array of them, or JSON lines. */
  readonly responsesText?: string | undefined;
  /** Live: a file of stored response ids, fetched with OPENAI_API_KEY. */
  readonly idsFile?: string | undefined;
  readonly bundlesDir?: string | undefined;
  /** Bundles already loaded, in place of or besides bundlesDir. */
  readonly codecs?: readonly ToolCodec[] | undefined;
  /** Also print calls that parse and validate (human output; JSON lists every call). */
  readonly showAll?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly fetch?: FetchTuning | undefined;
  /** Bounds for each arguments string. */
  readonly limits?: Partial<ParseLimits> | undefined;
}

export interface RunIO {
  /** Each call writes whole lines, newline included. */
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** Defence in depth: whatever a message quotes, the key itself never reaches an output. */
function redacting(io: RunIO, secret: string | undefined): RunIO {
  if (!secret) return io;
  const clean = (text: string): string => text.replaceAll(secret, "[redacted]");
  return { env: io.env, stdout: (text) => io.stdout(clean(text)), stderr: (text) => io.stderr(clean(text)) };
}

type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

// A header value must be visible ASCII; anything else would make fetch throw
// an error that quotes the value.
const KEY_SHAPE = /^[\x21-\x7e]+$/;

interface Gathered {
  readonly entries: readonly ResponseEntry[];
  /** Responses that could not be fetched for a reason other than 404. */
  readonly failed: number;
}

async function gatherLive(idsFile: string, options: RunOptions, env: RunIO["env"]): Promise<Step<Gathered>> {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return { ok: false, message: "set OPENAI_API_KEY, a project key set to Read Only" };
  if (!KEY_SHAPE.test(apiKey)) {
    return { ok: false, message: "OPENAI_API_KEY holds spaces, control or non-ASCII characters; set the key alone" };
  }
  const read = await readTextFile(idsFile);
  if (!read.ok) return { ok: false, message: `cannot read the ids file (${read.error.message})` };
  const text = read.value;
  const fetched = await fetchStoredResponses(readIds(text), {
    ...options.fetch,
    apiKey,
    baseUrl: env.OPENAI_BASE_URL?.trim() || undefined,
  });
  if (!fetched.ok) return { ok: false, message: fetched.error.message };
  let failed = 0;
  const entries = fetched.value.map((outcome, index): ResponseEntry => {
    if (outcome.kind === "not-found") return { kind: "unreadable", responseId: outcome.id, reason: NOT_FOUND };
    if (outcome.kind === "failed") {
      failed += 1;
      return { kind: "unreadable", responseId: outcome.id, reason: outcome.reason };
    }
    const entry = responseEntry(outcome.response, index + 1);
    return entry.kind === "response" ? { ...entry, responseId: outcome.id } : entry;
  });
  return { ok: true, value: { entries, failed } };
}

function gatherOffline(text: string): Step<Gathered> {
  const parsed = parseResponsesText(text);
  if (!parsed.ok) return { ok: false, message: parsed.error.message };
  return { ok: true, value: { entries: parsed.value, failed: 0 } };
}

async function gatherCodecs(options: RunOptions, io: RunIO): Promise<Step<readonly ToolCodec[]>> {
  const given = options.codecs ?? [];
  if (options.bundlesDir === undefined) return { ok: true, value: given };
  const loaded = await loadBundlesDir(options.bundlesDir);
  if (!loaded.ok) return { ok: false, message: loaded.error.message };
  for (const skipped of loaded.value.skipped) io.stderr(`skipped ${skipped.file}: ${skipped.message}\n`);
  return { ok: true, value: [...given, ...loaded.value.codecs] };
}

interface Tally {
  checked: number;
  findings: number;
  readonly byState: Record<CallState, number>;
  readonly unreadable: { responseId: string; reason: string }[];
  readonly parallel: { responseId: string; calls: number }[];
}

function emit(report: CallReport, tally: Tally, options: RunOptions, io: RunIO): void {
  tally.checked += 1;
  tally.byState[report.state] += 1;
  if (FINDINGS.has(report.state)) tally.findings += 1;
  if (options.json) io.stdout(`${JSON.stringify(report)}\n`);
  else for (const line of humanLines(report, options.showAll === true)) io.stdout(`${line}\n`);
}

function classifyAll(entries: readonly ResponseEntry[], codecs: readonly ToolCodec[], options: RunOptions, io: RunIO) {
  const tally: Tally = { checked: 0, findings: 0, byState: emptyByState(), unreadable: [], parallel: [] };
  for (const entry of entries) {
    if (entry.kind === "unreadable") {
      io.stderr(`${unreadableLine(entry.responseId, entry.reason)}\n`);
      tally.unreadable.push({ responseId: entry.responseId, reason: entry.reason });
      continue;
    }
    const reports = reportCalls(entry.responseId, entry.response, { codecs, limits: options.limits });
    if (reports.length > 1) {
      tally.parallel.push({ responseId: entry.responseId, calls: reports.length });
      if (!options.json) io.stdout(`${parallelLine(entry.responseId, reports.length)}\n`);
    }
    for (const report of reports) emit(report, tally, options, io);
  }
  return tally;
}

/** Runs one classify and returns the exit code: 0 clean, 1 findings, 2 usage or environment. */
export async function runClassify(options: RunOptions, io: RunIO): Promise<number> {
  const out = redacting(io, io.env.OPENAI_API_KEY?.trim());
  const fail = (message: string): number => {
    out.stderr(`${message}\n`);
    return EXIT_USAGE;
  };
  if (options.responsesText !== undefined && options.idsFile !== undefined) {
    return fail("give the responses to read (--responses) or a file of response ids (--ids), not both");
  }
  if (options.responsesText === undefined && options.idsFile === undefined) {
    return fail("give the responses to read (--responses) or a file of response ids (--ids)");
  }
  const codecs = await gatherCodecs(options, out);
  if (!codecs.ok) return fail(codecs.message);
  const gathered =
    options.idsFile !== undefined
      ? await gatherLive(options.idsFile, options, out.env)
      : gatherOffline(options.responsesText ?? "");
  if (!gathered.ok) return fail(gathered.message);

  const tally = classifyAll(gathered.value.entries, codecs.value, options, out);
  const summary: Summary = tally;
  if (options.json) out.stdout(`${JSON.stringify({ summary })}\n`);
  else out.stdout(`${summaryLine(summary)}\n`);
  if (tally.findings > 0) return EXIT_FINDINGS;
  if (gathered.value.failed > 0) {
    return fail(`${gathered.value.failed} response(s) could not be read, so this check is incomplete`);
  }
  return EXIT_CLEAN;
}
