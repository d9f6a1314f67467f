/**
 * The whole classify run, for the CLI to wrap. Output streams: every result
 * (call lines, repairs, notes, parallel-call notes, the summary, and every
 * JSON object) goes to stdout, because the findings are the product and
 * belong in a pipe; what stops or limits the run (usage, credentials,
 * responses that could not be read, bundles skipped) goes to stderr.
 *
 * Records are read, classified and written as they come, so a log of any
 * size runs in the memory of a window of records.
 */
import { stat } from "node:fs/promises";
import type { ParseLimits } from "@strictwire/codec";
import { redactKey } from "@strictwire/codec/http";
import { loadBundlesDir, readTextFile } from "./bundles.js";
import { type CallState, FINDINGS } from "./classify.js";
import type { ToolCodec } from "./codecs.js";
import { type FetchTuning, streamStoredResponses } from "./fetch.js";
import { readIds } from "./input.js";
import { errorMessage } from "./json.js";
import { splitRecords } from "./records.js";
import {
  type CallReport,
  emptyByState,
  humanLines,
  NOT_FOUND,
  parallelLine,
  type Summary,
  summaryLine,
  unreadableLine,
} from "./report.js";
import { openResume, type Resume } from "./resume.js";
import { classifyRecord, classifyStream, prepareClassifier, type ResponseResult } from "./stream.js";

export interface RunOptions {
  /** Offline: the text of one response, an array of them, or JSON lines. */
  readonly responsesText?: string | undefined;
  /** Offline, streamed: the same, as chunks (a file, standard input). */
  readonly responses?: AsyncIterable<Uint8Array | string> | undefined;
  /** Live: a file of stored response ids, fetched with OPENAI_API_KEY. */
  readonly idsFile?: string | undefined;
  /** Live: ids listed here are skipped, and each id classified is added, so a killed run can carry on. */
  readonly resumeFile?: string | undefined;
  readonly bundlesDir?: string | undefined;
  /** Bundles already loaded, in place of or besides bundlesDir (these classify on this thread only). */
  readonly codecs?: readonly ToolCodec[] | undefined;
  /** Also print calls that parse and validate (human output; JSON lists every call). */
  readonly showAll?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly fetch?: FetchTuning | undefined;
  /** Bounds for each arguments string. */
  readonly limits?: Partial<ParseLimits> | undefined;
  /** Threads to classify offline records on; 1 (the default) classifies on this one. */
  readonly workers?: number | undefined;
}

/** How far a run has got, for a progress display. */
export interface RunProgress {
  readonly records: number;
  readonly calls: number;
  readonly findings: number;
  /** The last report of the run. */
  readonly done: boolean;
}

export interface RunIO {
  /** Each call writes whole lines, newline included. */
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Told how far the run has got, now and then and once at the end. */
  readonly progress?: ((state: RunProgress) => void) | undefined;
  /**
   * Resolves once everything given to `stdout` so far is written, and rejects if it could not be (a closed
   * pipe): a live run with a resume file marks an id done only then.
   */
  readonly written?: (() => Promise<void>) | undefined;
}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** Defence in depth: whatever a message quotes, the key itself never reaches an output. */
function redacting(io: RunIO, secret: string | undefined): RunIO {
  if (!secret) return io;
  const clean = (text: string): string => redactKey(text, secret);
  return { ...io, stdout: (text) => io.stdout(clean(text)), stderr: (text) => io.stderr(clean(text)) };
}

type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

// A header value must be visible ASCII; anything else would make fetch throw
// an error that quotes the value.
const KEY_SHAPE = /^[\x21-\x7e]+$/;

interface Bundles {
  readonly codecs: readonly ToolCodec[];
  readonly texts: readonly string[];
}

async function gatherBundles(options: RunOptions, io: RunIO): Promise<Step<Bundles>> {
  const given = options.codecs ?? [];
  if (options.bundlesDir === undefined) return { ok: true, value: { codecs: given, texts: [] } };
  const loaded = await loadBundlesDir(options.bundlesDir);
  if (!loaded.ok) return { ok: false, message: loaded.error.message };
  for (const skipped of loaded.value.skipped) io.stderr(`skipped ${skipped.file}: ${skipped.message}\n`);
  return { ok: true, value: { codecs: [...given, ...loaded.value.codecs], texts: loaded.value.texts } };
}

// Output is gathered into writes of about this size: one write per line would cost more than classifying it.
const FLUSH_AT = 64 * 1024;
// The progress display hears from an offline run every this many records, and
// from a live one after every response (each is a request, slow beside classifying).
const PROGRESS_EVERY = 512;

/** The run's counts and its buffered output. */
class Tally {
  checked = 0;
  findings = 0;
  records = 0;
  /** Records that could not be read, and ids that could not be fetched: the check is incomplete. */
  incomplete = 0;
  readonly byState: Record<CallState, number> = emptyByState();
  readonly unreadable: { responseId: string; reason: string }[] = [];
  readonly parallel: { responseId: string; calls: number }[] = [];
  private buffered = "";

  constructor(
    private readonly options: RunOptions,
    private readonly io: RunIO,
    private readonly progressEvery: number,
  ) {}

  private write(text: string): void {
    this.buffered += text;
    if (this.buffered.length >= FLUSH_AT) this.flush();
  }

  /** The last of the output, and everything before it, out now. */
  end(text: string): void {
    this.buffered += text;
    this.flush();
  }

  flush(): void {
    if (this.buffered === "") return;
    this.io.stdout(this.buffered);
    this.buffered = "";
  }

  private report(report: CallReport): void {
    this.checked += 1;
    this.byState[report.state] += 1;
    if (FINDINGS.has(report.state)) this.findings += 1;
    if (this.options.json) this.write(`${JSON.stringify(report)}\n`);
    else for (const line of humanLines(report, this.options.showAll === true)) this.write(`${line}\n`);
  }

  /** One record's result; `counts` is false for what does not leave the check incomplete (an expired id). */
  add(result: ResponseResult, counts = true): void {
    this.records += 1;
    if (result.kind === "unreadable") {
      // Stdout first, so that on a terminal the lines keep their order.
      this.flush();
      this.io.stderr(`${unreadableLine(result.responseId, result.reason)}\n`);
      this.unreadable.push({ responseId: result.responseId, reason: result.reason });
      if (counts) this.incomplete += 1;
    } else {
      if (result.reports.length > 1) {
        this.parallel.push({ responseId: result.responseId, calls: result.reports.length });
        if (!this.options.json) this.write(`${parallelLine(result.responseId, result.reports.length)}\n`);
      }
      for (const report of result.reports) this.report(report);
    }
    if (this.records % this.progressEvery === 0) {
      // What was found so far is out before the progress line is drawn again.
      this.flush();
      this.tell(false);
    }
  }

  tell(done: boolean): void {
    this.io.progress?.({ records: this.records, calls: this.checked, findings: this.findings, done });
  }

  summary(): Summary {
    const { checked, findings, byState, unreadable, parallel } = this;
    return { checked, findings, byState, unreadable, parallel };
  }
}

async function* chunksOf(text: string): AsyncGenerator<string> {
  yield text;
}

async function runOffline(options: RunOptions, bundles: Bundles, tally: Tally): Promise<void> {
  const records = splitRecords(options.responses ?? chunksOf(options.responsesText ?? ""));
  // Loaded codecs cannot cross to a worker thread: with any given, this thread classifies.
  const workers = (options.codecs?.length ?? 0) > 0 ? 1 : (options.workers ?? 1);
  const results = classifyStream(records, {
    workers,
    limits: options.limits,
    ...(workers === 1 ? { codecs: bundles.codecs } : { bundles: bundles.texts }),
  });
  for await (const result of results) tally.add(result);
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [first, second] = await Promise.all([stat(a), stat(b)]);
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}

async function runLive(idsFile: string, options: RunOptions, bundles: Bundles, tally: Tally, io: RunIO) {
  const apiKey = io.env.OPENAI_API_KEY?.trim();
  if (!apiKey) return "set OPENAI_API_KEY, a project key set to Read Only";
  if (!KEY_SHAPE.test(apiKey)) {
    return "OPENAI_API_KEY holds spaces, control or non-ASCII characters; set the key alone";
  }
  const read = await readTextFile(idsFile);
  if (!read.ok) return `cannot read the ids file (${read.error.message})`;
  const text = read.value;
  let resume: Resume | undefined;
  if (options.resumeFile !== undefined) {
    // Appending to the ids file would change an input.
    if (await sameFile(idsFile, options.resumeFile)) return "the resume file cannot be the ids file; name another";
    const opened = await openResume(options.resumeFile);
    if (!opened.ok) return opened.message;
    resume = opened.value;
  }
  try {
    const ids = readIds(text).filter((id) => resume?.done.has(id) !== true);
    const classifier = prepareClassifier({ codecs: bundles.codecs, limits: options.limits });
    let index = 0;
    const outcomes = streamStoredResponses(ids, {
      ...options.fetch,
      apiKey,
      baseUrl: io.env.OPENAI_BASE_URL?.trim() || undefined,
    });
    for await (const outcome of outcomes) {
      if (outcome.kind === "denied") return outcome.message;
      index += 1;
      if (outcome.kind === "ok") {
        const result = classifyRecord({ kind: "value", value: outcome.response }, index, classifier);
        // Named by the id asked for, whatever the body says.
        tally.add(
          result.kind === "calls"
            ? {
                ...result,
                responseId: outcome.id,
                reports: result.reports.map((r) => ({ ...r, responseId: outcome.id })),
              }
            : result,
        );
      } else {
        const reason = outcome.kind === "not-found" ? NOT_FOUND : outcome.reason;
        tally.add(
          { kind: "unreadable", index, line: undefined, responseId: outcome.id, reason },
          outcome.kind === "failed",
        );
      }
      // An id is done once its lines are out; a failed one is tried again by the next run.
      if (resume !== undefined && outcome.kind !== "failed") {
        tally.flush();
        try {
          await io.written?.();
        } catch (error) {
          return `standard output could not be written (${errorMessage(error)}), so ${outcome.id} and the ids after it are not marked done in the resume file`;
        }
        await resume.add(outcome.id);
      }
    }
    return undefined;
  } finally {
    await resume?.close();
  }
}

/** Runs one classify and returns the exit code: 0 clean, 1 findings, 2 usage or environment. */
export async function runClassify(options: RunOptions, io: RunIO): Promise<number> {
  const out = redacting(io, io.env.OPENAI_API_KEY?.trim());
  const fail = (message: string): number => {
    out.stderr(`${message}\n`);
    return EXIT_USAGE;
  };
  const offline = options.responsesText !== undefined || options.responses !== undefined;
  if (offline && options.idsFile !== undefined) {
    return fail("give the responses to read (--responses) or a file of response ids (--ids), not both");
  }
  if (!offline && options.idsFile === undefined) {
    return fail("give the responses to read (--responses) or a file of response ids (--ids)");
  }
  if (options.resumeFile !== undefined && options.idsFile === undefined) {
    return fail("--resume goes with --ids: it lists the ids already classified");
  }
  const bundles = await gatherBundles(options, out);
  if (!bundles.ok) return fail(bundles.message);

  const tally = new Tally(options, out, options.idsFile !== undefined ? 1 : PROGRESS_EVERY);
  if (options.idsFile !== undefined) {
    const stopped = await runLive(options.idsFile, options, bundles.value, tally, out);
    if (stopped !== undefined) {
      tally.flush();
      return fail(stopped);
    }
  } else {
    await runOffline(options, bundles.value, tally);
  }
  tally.tell(true);
  const summary = tally.summary();
  if (options.json) tally.end(`${JSON.stringify({ summary })}\n`);
  else tally.end(`${summaryLine(summary)}\n`);
  if (tally.findings > 0) return EXIT_FINDINGS;
  if (tally.incomplete > 0) {
    const what = options.idsFile !== undefined ? "response(s) could not be read" : "record(s) could not be read";
    return fail(`${tally.incomplete} ${what}, so this check is incomplete`);
  }
  return EXIT_CLEAN;
}
