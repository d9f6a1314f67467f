/**
 * Reading what a command is given: a file, or standard input for "-" or a
 * missing argument. Bytes are kept as read, so that decode hands the parser
 * exactly what the model wrote.
 */
import { type ParseLimits, parseJson } from "@strictwire/codec";
import { readFileCapped } from "@strictwire/codec/files";
import {
  fromCodec,
  notFound,
  notRegularFile,
  type Outcome,
  succeed,
  systemReason,
  unreadable,
  usage,
} from "./failure.js";
import type { Reporter } from "./report.js";

/** The most any input may hold; beyond it a run refuses rather than fill memory. */
export const INPUT_CAP = 256 * 1024 * 1024;

/** Schemas, values and bundles are the user's own files: generous bounds, still bounds. */
export const DOCUMENT_LIMITS: ParseLimits = Object.freeze({ maxBytes: INPUT_CAP, maxNodes: 8_000_000, maxDepth: 1024 });

export const STDIN_LABEL = "standard input";

export interface Input {
  readonly bytes: Uint8Array;
  /** For messages: the path as given, or "standard input". */
  readonly label: string;
  /** The file read; absent for standard input. */
  readonly path?: string;
}

export const isStdin = (arg: string | undefined): boolean => arg === undefined || arg === "-";

/** Standard input can feed one input of a run, not two. */
export function oneStdin(args: readonly (string | undefined)[]): Outcome<void> {
  return args.filter(isStdin).length > 1
    ? usage("standard input can feed only one input; name the others as files")
    : succeed(undefined);
}

/** `what` names the input in the hint shown when standard input is a terminal. */
export async function readInput(arg: string | undefined, what: string, reporter: Reporter): Promise<Outcome<Input>> {
  if (isStdin(arg)) return readStdin(what, reporter);
  return readPath(arg!);
}

async function readStdin(what: string, reporter: Reporter): Promise<Outcome<Input>> {
  if (reporter.io.stdinIsTTY) reporter.note(`reading the ${what} from standard input (end it with Ctrl-D)`);
  let bytes: Uint8Array;
  try {
    bytes = await reporter.io.readStdin(INPUT_CAP);
  } catch (error) {
    return unreadable(STDIN_LABEL, systemReason(error));
  }
  if (bytes.byteLength > INPUT_CAP) return tooLarge(STDIN_LABEL);
  return succeed({ bytes, label: STDIN_LABEL });
}

/** A regular file (or a link to one), counted as it is read; devices, FIFOs and directories are refused unopened. */
export async function readPath(path: string): Promise<Outcome<Input>> {
  const read = await readFileCapped(path, INPUT_CAP);
  if (read.ok) return succeed({ bytes: read.value, label: path, path });
  const { code, message } = read.error;
  if (code === "not-found") return notFound(path);
  if (code === "too-large") return tooLarge(path);
  if (code === "not-a-regular-file") return notRegularFile(path, message);
  return unreadable(path, message);
}

/** More than INPUT_CAP bytes, in the words every command uses. */
export function tooLarge(label: string): ReturnType<typeof fromCodec> {
  return fromCodec(
    {
      code: "input-too-large",
      path: "",
      message: `the input is larger than ${INPUT_CAP} bytes`,
      feedback: `The input is larger than ${INPUT_CAP} bytes.`,
    },
    label,
  );
}

/** What a document read by a command is, in the words of the message to its author. */
export type DocumentKind = "schema" | "schema or bundle" | "value";

/**
 * One JSON document, through the bounded parser: duplicate keys and bad text are rejections. The file is the
 * user's own (a schema, a value), so the feedback is worded for its author, not the model's parse hint.
 */
export function parseDocument(
  input: Input,
  kind: DocumentKind,
  limits: ParseLimits = DOCUMENT_LIMITS,
): Outcome<unknown> {
  const parsed = parseJson(input.bytes, limits);
  if (parsed.ok) return succeed(parsed.value);
  const { code, path, message } = parsed.error;
  const source = input.path !== undefined ? `The ${kind} file ${input.path}` : `The ${kind} on standard input`;
  const at = path === "" ? "" : ` at ${path}`;
  const feedback = `${source} is not one valid JSON document (${code}${at}): ${message}. Fix the file (JSON only: no comments, no trailing commas, each key once) and run the command again.`;
  return fromCodec({ ...parsed.error, feedback }, input.label);
}
