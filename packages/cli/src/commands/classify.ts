/**
 * classify: which stored tool calls a dispatcher can use, and why not. The
 * classifier owns the run and its output; the CLI opens --responses (a file
 * or standard input) as a stream, so a log of any size is read record by
 * record, picks the number of workers, and draws the progress line.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { runClassify } from "@strictwire/classifier";
import { DEFAULT_MAX_RESPONSE_BYTES } from "@strictwire/codec/http";
import { classifyProgress } from "../classify-progress.js";
import { type ExitCode, errorCode, type Failure, notFound, systemReason, unreadable, usage } from "../failure.js";
import { isStdin, STDIN_LABEL } from "../input.js";
import { optionalNumberFlag } from "../number-flag.js";
import { failureLine, type Reporter, usageHint } from "../report.js";

export interface ClassifyFlags {
  readonly responses?: string;
  readonly ids?: string;
  readonly resume?: string;
  readonly bundles?: string;
  readonly showAll?: boolean;
  readonly workers?: string;
  readonly maxResponseBytes?: string;
}

/** Threads --workers may ask for. */
const MAX_WORKERS = 9999;

/** Reads a little ahead of the classifying: large enough that a read is cheap. */
const READ_CHUNK = 1024 * 1024;

interface Opened {
  readonly label: string;
  readonly chunks: AsyncIterable<Uint8Array>;
  readonly totalBytes: number | undefined;
}

async function openResponses(arg: string, reporter: Reporter) {
  if (isStdin(arg)) {
    if (reporter.io.stdinIsTTY) reporter.note("reading the responses from standard input (end it with Ctrl-D)");
    return {
      ok: true as const,
      value: { label: STDIN_LABEL, chunks: reporter.io.stdinChunks(), totalBytes: undefined },
    };
  }
  try {
    const info = await stat(arg);
    if (info.isDirectory()) return unreadable(arg, "it is a directory");
    // A log streams from a file or a pipe (`<(zcat day.gz)`), each record capped; a device never ends.
    if (!info.isFile() && !info.isFIFO()) return unreadable(arg, "it is not a regular file or a pipe");
    const chunks = createReadStream(arg, { highWaterMark: READ_CHUNK }) as AsyncIterable<Uint8Array>;
    return { ok: true as const, value: { label: arg, chunks, totalBytes: info.isFile() ? info.size : undefined } };
  } catch (error) {
    return errorCode(error) === "ENOENT" ? notFound(arg) : unreadable(arg, systemReason(error));
  }
}

/** The input's chunks, counted as they pass, with a read error kept rather than thrown through the run. */
class Counted {
  bytes = 0;
  failure: string | undefined;
  constructor(private readonly opened: Opened) {}

  async *chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of this.opened.chunks) {
        this.bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      this.failure = systemReason(error);
    }
  }
}

export async function runClassifyCommand(flags: ClassifyFlags, reporter: Reporter): Promise<ExitCode> {
  // The classifier reports its own failures on stderr only, with --json too; the CLI's match them.
  const refuse = (failure: { readonly exit: ExitCode } & Parameters<typeof failureLine>[0]): ExitCode => {
    reporter.note(failureLine(failure, reporter.err));
    return failure.exit;
  };
  // Usage first, in the CLI's words and with the pointer to classify --help.
  const refuseUsage = (failure: Failure): ExitCode => {
    const code = refuse(failure);
    reporter.note(usageHint(reporter.command));
    return code;
  };
  if ((flags.responses === undefined) === (flags.ids === undefined)) {
    const message = "give the responses to read (--responses) or a file of response ids (--ids)";
    return refuseUsage(usage(flags.responses === undefined ? message : `${message}, not both`).error);
  }
  const workers = optionalNumberFlag("--workers", flags.workers, { min: 1, max: MAX_WORKERS, integer: true });
  if (!workers.ok) return refuseUsage(workers.error);
  const maxResponseBytes = optionalNumberFlag("--max-response-bytes", flags.maxResponseBytes, {
    min: 1,
    integer: true,
  });
  if (!maxResponseBytes.ok) return refuseUsage(maxResponseBytes.error);
  let counted: Counted | undefined;
  let totalBytes: number | undefined;
  if (flags.responses !== undefined) {
    const opened = await openResponses(flags.responses, reporter);
    if (!opened.ok) return refuse(opened.error);
    counted = new Counted(opened.value);
    totalBytes = opened.value.totalBytes;
  }
  const { io } = reporter;
  const progress = classifyProgress(io.stderr, io.env, reporter.json, {
    totalBytes,
    bytesRead: () => counted?.bytes ?? 0,
  });
  // On a terminal both streams share the screen: the progress line steps aside for output.
  const code = await runClassify(
    {
      responses: counted?.chunks(),
      idsFile: flags.ids,
      resumeFile: flags.resume,
      bundlesDir: flags.bundles,
      showAll: flags.showAll === true,
      json: reporter.json,
      workers: workers.value ?? availableParallelism(),
      fetch: { maxResponseBytes: maxResponseBytes.value ?? DEFAULT_MAX_RESPONSE_BYTES },
    },
    {
      stdout: (text) => {
        progress.clear();
        io.stdout.write(text);
      },
      stderr: (text) => {
        progress.clear();
        io.stderr.write(text);
      },
      env: io.env,
      progress: (state) => progress.update(state),
      written: io.stdout.written,
    },
  );
  if (counted?.failure !== undefined) {
    reporter.note(`${flags.responses}: reading stopped (${counted.failure}); the results cover what was read before`);
    return 2;
  }
  return code === 0 || code === 1 ? code : 2;
}
