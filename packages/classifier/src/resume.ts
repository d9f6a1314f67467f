/**
 * The resume file of a live run: the ids already classified, one a line.
 * Ids listed are skipped; each id whose lines are out is appended, so a run
 * that was killed, started again with the same file, carries on where it
 * stopped. An id is written after its results, so a kill between the two
 * repeats that one id, never loses it.
 */
import { type FileHandle, lstat, open, readFile, stat } from "node:fs/promises";
import { errorMessage } from "./json.js";

export interface Resume {
  readonly done: ReadonlySet<string>;
  add(id: string): Promise<void>;
  close(): Promise<void>;
}

type Opened = { readonly ok: true; readonly value: Resume } | { readonly ok: false; readonly message: string };

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error ? String(error.code) : undefined;
}

export async function openResume(path: string): Promise<Opened> {
  let text = "";
  try {
    // Through a symlink to a file is fine; a directory, a pipe or a device is not a resume file.
    await lstat(path);
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, message: `the resume file ${path} is not a regular file` };
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) !== "ENOENT") {
      return { ok: false, message: `cannot read the resume file (${errorMessage(error)})` };
    }
  }
  // A last line without its newline was cut by the kill: that id is not done.
  const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1);
  const done = new Set(
    complete
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== ""),
  );
  let handle: FileHandle;
  try {
    handle = await open(path, "a");
    if (complete !== text) await handle.write("\n");
  } catch (error) {
    return { ok: false, message: `cannot write the resume file (${errorMessage(error)})` };
  }
  return {
    ok: true,
    value: {
      done,
      add: async (id) => {
        await handle.write(`${id}\n`);
      },
      close: () => handle.close(),
    },
  };
}
