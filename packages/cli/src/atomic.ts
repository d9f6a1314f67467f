/**
 * Writing outputs so that a reader sees the old file or the new one, never
 * half of one: a temp file beside the target, flushed to disk, then renamed
 * over it (rename is atomic within one directory).
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorCode, type Outcome, overwritesInput, succeed, systemReason, writeFailed } from "./failure.js";

export async function writeAtomic(target: string, text: string): Promise<Outcome<void>> {
  const dir = dirname(target);
  // Hidden and unique, so that a crashed run cannot collide with a later one.
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let handle: FileHandle | undefined;
  try {
    if ((await statOrUndefined(target))?.isDirectory()) return writeFailed(target, "it is a directory");
    handle = await open(temp, "wx", 0o666);
    await handle.writeFile(text, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    return writeFailed(target, systemReason(error));
  }
  await syncDirectory(dir);
  return succeed(undefined);
}

/** Makes the rename itself durable. Best effort: some systems cannot open a directory for sync. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Durability of the directory entry is a bonus, not a condition of success.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

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
