/**
 * Where output goes: results to stdout, messages to stderr. With --json,
 * stdout holds exactly one JSON document per run, failures included, so a
 * script can always parse it; the human message still goes to stderr.
 */
import { adviceFor } from "@strictwire/codec";
import { EXIT_OK, type ExitCode, type Failure, isCliCode } from "./failure.js";
import type { Io } from "./io.js";
import { type Style, styleFor } from "./style.js";

export const PROGRAM = "strictwire";

export class Reporter {
  /** Styles for what goes to stdout and to stderr: each stream decides for itself. */
  readonly out: Style;
  readonly err: Style;

  constructor(
    readonly io: Io,
    readonly json: boolean,
    /** The command being run, so a usage error can point at its own help. */
    readonly command?: string,
  ) {
    this.out = styleFor(io.stdout, io.env);
    this.err = styleFor(io.stderr, io.env);
  }

  /** A result, as text, on stdout. */
  result(text: string): void {
    this.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** A result, as one JSON document, on stdout. */
  data(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A message for the person running the command, on stderr. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.note(`${PROGRAM}: ${this.err.yellow("warning")}: ${text}`);
  }

  /** Reports a failure (stderr, and stdout too with --json) and gives its exit code. */
  fail(failure: Failure): ExitCode {
    this.note(failureLine(failure, this.err));
    if (failure.error.code === "usage") this.note(usageHint(this.command));
    if (this.json) this.data({ ok: false, error: failure.error });
    return failure.exit;
  }

  /** Reports a success in JSON mode; the human form is the caller's. */
  ok(value: Record<string, unknown>): ExitCode {
    if (this.json) this.data({ ok: true, ...value });
    return EXIT_OK;
  }
}

export function failureLine(failure: Failure, style: Style): string {
  const { code, path, message } = failure.error;
  const subject = failure.subject === undefined ? "" : `${failure.subject}: `;
  const where = path === "" ? "" : ` at ${path}`;
  // The CLI's own codes read better as plain sentences; codec codes are kept for grepping.
  const what = isCliCode(code) ? message : `${code}${where}: ${message}`;
  // A refused schema or bundle is the user's to fix: the codec's advice follows on its own line.
  const advice = isCliCode(code) ? undefined : adviceFor(code);
  return `${PROGRAM}: ${style.red("error")}: ${subject}${what}${advice === undefined ? "" : `\n${PROGRAM}: ${style.dim("hint")}: ${advice}`}`;
}

/** Where a usage error sends the reader: the command's own help, which lists its options. */
export function usageHint(command?: string): string {
  return `(run "${PROGRAM}${command === undefined ? "" : ` ${command}`} --help" for usage)`;
}
