/**
 * Reading what a command is given: a file, or standard input for "-" or a
 * missing argument. Bytes are kept as read, so that decode hands the parser
 * exactly what the model wrote.
 */
import { readFile, stat } from "node:fs/promises";
import { type ParseLimits, parseJson } from "@strictwire/codec";
import { errorCode, fromCodec, notFound, type Outcome, succeed, systemReason, unreadable, usage } from "./failure.js";
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

export async function readPath(path: string): Promise<Outcome<Input>> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return unreadable(path, "it is a directory");
    if (info.size > INPUT_CAP) return tooLarge(path);
    const buffer = await readFile(path);
    return succeed({ bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), label: path, path });
  } catch (error) {
    return errorCode(error) === "ENOENT" ? notFound(path) : unreadable(path, systemReason(error));
  }
}

function tooLarge(label: string): ReturnType<typeof fromCodec> {
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
