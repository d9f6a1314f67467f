/**
 * Every way a command can fail, as a value. The exit code travels with the
 * error: 1 when the input was judged and rejected, 2 when the run itself
 * could not happen (usage, files, environment, features not built yet).
 */
import { type CodecError, type ErrorJson, errorJson, type Result } from "@strictwire/codec";

export { systemReason } from "@strictwire/codec/files";

export const EXIT_OK = 0;
export const EXIT_REJECTED = 1;
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_OK | typeof EXIT_REJECTED | typeof EXIT_USAGE;

/** Codes of the CLI's own failures; rejections keep the codec's codes. */
export type CliErrorCode =
  | "usage"
  | "not-found"
  | "unreadable"
  | "not-a-regular-file"
  | "write-failed"
  | "overwrites-input"
  | "not-supported";

const CLI_CODES: ReadonlySet<string> = new Set<CliErrorCode>([
  "usage",
  "not-found",
  "unreadable",
  "not-a-regular-file",
  "write-failed",
  "overwrites-input",
  "not-supported",
]);

export const isCliCode = (code: string): boolean => CLI_CODES.has(code);

/** The shape `--json` prints: the codec's error as its formatter gives it (`issues` only when there are any). */
export type ErrorView = ErrorJson;

export interface Failure {
  readonly exit: typeof EXIT_REJECTED | typeof EXIT_USAGE;
  readonly error: ErrorView;
  /** What was being read or judged, for the human message: a file name, "standard input". */
  readonly subject?: string;
}

export type Outcome<T> = Result<T, Failure>;

export const succeed = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

function cliFailure(code: CliErrorCode, message: string, subject?: string): { ok: false; error: Failure } {
  const error: ErrorView = { code, path: "", message, feedback: message };
  return { ok: false, error: { exit: EXIT_USAGE, error, ...(subject !== undefined ? { subject } : {}) } };
}

export const usage = (message: string) => cliFailure("usage", message);
export const notSupported = (message: string) => cliFailure("not-supported", message);
export const notFound = (subject: string) => cliFailure("not-found", "no such file or directory", subject);
export const unreadable = (subject: string, why: string) =>
  cliFailure("unreadable", `cannot read it (${why})`, subject);
export const writeFailed = (subject: string, why: string) =>
  cliFailure("write-failed", `cannot write it (${why})`, subject);
export const notRegularFile = (subject: string, what: string) =>
  cliFailure(
    "not-a-regular-file",
    `${what}; strictwire reads and writes only regular files (and - for standard input)`,
    subject,
  );
export const overwritesInput = (subject: string, input: string) =>
  cliFailure("overwrites-input", `it is the input ${input}; strictwire never overwrites an input`, subject);

/** A codec error: the input was judged and rejected (exit 1), unless options were at fault (exit 2). */
export function fromCodec(error: CodecError, subject?: string): { ok: false; error: Failure } {
  const view: ErrorView = errorJson(error);
  const exit = error.code === "invalid-options" ? EXIT_USAGE : EXIT_REJECTED;
  return { ok: false, error: { exit, error: view, ...(subject !== undefined ? { subject } : {}) } };
}

/** The same codec error, judged as configuration rather than input (a bundle given to encode or decode). */
export function asEnvironment(failure: Failure): Failure {
  return { ...failure, exit: EXIT_USAGE };
}

/** A Node system error's code ("ENOENT"), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
