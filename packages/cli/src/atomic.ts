/**
 * Writing outputs: through `@strictwire/codec/files`, so that a reader sees
 * the old file or the new one, never half of one, a symbolic link is written
 * through, and a device, FIFO, socket or directory is refused, never replaced.
 */
import { realpath, stat } from "node:fs/promises";
import { type FileError, writeFileAtomic, writeTarget } from "@strictwire/codec/files";
import {
  errorCode,
  notRegularFile,
  type Outcome,
  overwritesInput,
  succeed,
  systemReason,
  writeFailed,
} from "./failure.js";

export async function writeAtomic(target: string, text: string): Promise<Outcome<void>> {
  const written = writeFileAtomic(target, text);
  return written.ok ? succeed(undefined) : failedWrite(written.error);
}

/**
 * An output that a library appends to (eval's results), or one written only after a long run: checked before
 * the run starts. Its value is the real path the write lands on, to tell two outputs of one run apart.
 */
export function checkOutput(target: string): Outcome<string> {
  const checked = writeTarget(target);
  return checked.ok ? succeed(checked.value.path) : failedWrite(checked.error);
}

const failedWrite = (error: FileError) =>
  error.code === "not-a-regular-file"
    ? notRegularFile(error.path, error.message)
    : writeFailed(error.path, error.message);

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Refuses an output that is one of the inputs: the same real path, or the
 * same file by another name (a hard link). An output that does not exist yet
 * cannot be an input.
 */
export async function guardInputs(output: string, inputs: readonly string[]): Promise<Outcome<void>> {
  let out: Awaited<ReturnType<typeof stat>> | undefined;
  let outReal: string;
  try {
    out = await statOrUndefined(output);
    if (out === undefined) return succeed(undefined);
    outReal = await realpath(output);
  } catch (error) {
    return writeFailed(output, systemReason(error));
  }
  for (const input of inputs) {
    try {
      const info = await stat(input);
      if ((await realpath(input)) === outReal || (info.dev === out.dev && info.ino === out.ino)) {
        return overwritesInput(output, input);
      }
    } catch {
      // An input that cannot be found now was read from somewhere else: nothing to protect.
    }
  }
  return succeed(undefined);
}
