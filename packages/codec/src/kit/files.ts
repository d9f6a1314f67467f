/**
 * `@strictwire/codec/files` (Node only): reading and writing the user's own
 * files without losing one or hanging on one. Every package that reads an
 * input file or writes an output goes through these two functions.
 *
 * Reading: only a regular file (a symbolic link to one is followed), opened
 * non-blocking so that a FIFO swapped in cannot hang the open, and counted as
 * it is read: `stat().size` is 0 for procfs files, so it is never trusted.
 *
 * Writing: a temp file beside the real target, flushed, then renamed over it,
 * so a reader sees the old file or the new one. A symbolic link is written
 * through (the link stays, the file it names is replaced; a dangling link
 * creates its file), but not a descriptor's link (/dev/stdout), which is
 * refused. Anything but a regular file or nothing (a device, a FIFO, a
 * socket, a directory) is refused: a rename would replace it.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { open, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, sep } from "node:path";
import type { Result } from "../errors.js";
import { concatBytes } from "./http.js";

export type FileErrorCode = "not-found" | "not-a-regular-file" | "too-large" | "unreadable" | "write-failed";

export interface FileError {
  readonly code: FileErrorCode;
  /** The file as the caller named it. */
  readonly path: string;
  /** Why, in a few words: "it is a FIFO, not a regular file". */
  readonly message: string;
  /** For a file read line by line: the line at fault. */
  readonly line?: number;
}

export type FileResult<T> = Result<T, FileError>;

const failure = (code: FileErrorCode, path: string, message: string): { ok: false; error: FileError } => ({
  ok: false,
  error: { code, path, message },
});

/** What a file is, in words, for a refusal. */
export function fileKind(info: Stats): string {
  if (info.isFile()) return "a regular file";
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

const notRegular = (path: string, info: Stats) =>
  failure("not-a-regular-file", path, `it is ${fileKind(info)}, not a regular file`);

const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "it is a directory",
  ENOTDIR: "a parent is not a directory",
  ENOENT: "no such file or directory",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
  EEXIST: "a file is in the way",
  ELOOP: "too many symbolic links",
  EAGAIN: "it would block",
};

function systemCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** A Node system error, in words. */
export function systemReason(error: unknown): string {
  const code = systemCode(error);
  if (code !== undefined) return SYSTEM_REASONS[code] ?? code;
  return error instanceof Error ? error.message : String(error);
}

// ---- reading ---------------------------------------------------------------

const CHUNK = 1 << 16;

type Handle = Awaited<ReturnType<typeof open>>;

/**
 * A regular file opened for reading. Devices, FIFOs, sockets and directories
 * are refused before they are opened (opening some devices has effects of their own).
 */
async function openRegular(path: string): Promise<FileResult<Handle>> {
  let before: Stats;
  try {
    before = await stat(path);
  } catch (error) {
    return systemCode(error) === "ENOENT"
      ? failure("not-found", path, "no such file or directory")
      : failure("unreadable", path, systemReason(error));
  }
  if (!before.isFile()) return notRegular(path, before);
  let handle: Handle | undefined;
  try {
    // O_NONBLOCK: a FIFO put in its place since the stat must not hang the open.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const info = await handle.stat();
    if (!info.isFile()) return closing(handle, notRegular(path, info));
    if (info.dev !== before.dev || info.ino !== before.ino) {
      return closing(handle, failure("unreadable", path, "it was replaced while being opened"));
    }
    return { ok: true, value: handle };
  } catch (error) {
    return closing(handle, failure("unreadable", path, systemReason(error)));
  }
}

async function closing<T>(handle: Handle | undefined, result: T): Promise<T> {
  await handle?.close().catch(() => undefined);
  return result;
}

/**
 * Every byte of a regular file, or `too-large` as soon as more than `cap`
 * bytes have been read.
 */
export async function readFileCapped(path: string, cap: number): Promise<FileResult<Uint8Array>> {
  const opened = await openRegular(path);
  if (!opened.ok) return opened;
  const handle = opened.value;
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(CHUNK, cap + 1 - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      size += bytesRead;
      if (size > cap) return failure("too-large", path, `it is larger than ${cap} bytes`);
    }
    return { ok: true, value: concatBytes(chunks, size) };
  } catch (error) {
    return failure("unreadable", path, systemReason(error));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Bounds of a file read line by line. */
export interface LineLimits {
  /** Bytes one line may hold, its newline left out. */
  readonly maxLineBytes: number;
  /** Bytes the whole file may hold. */
  readonly maxBytes: number;
}

/** One line of a file read line by line; `number` counts from 1. */
export interface FileLine {
  readonly number: number;
  readonly text: string;
}

/**
 * The lines of a regular file (UTF-8, split at LF, a CR before it kept), read
 * as they come: memory holds one line, never the file. A line longer than
 * `maxLineBytes`, or a file longer than `maxBytes`, ends the lines with a
 * `too-large` failure whose `line` names where; any failure is the last item.
 */
export async function* readLinesCapped(path: string, limits: LineLimits): AsyncGenerator<FileResult<FileLine>> {
  const opened = await openRegular(path);
  if (!opened.ok) {
    yield opened;
    return;
  }
  const handle = opened.value;
  const utf8 = new TextDecoder();
  const tooLarge = (message: string, line: number) => ({
    ok: false as const,
    error: { code: "too-large" as const, path, message, line },
  });
  try {
    let pieces: Uint8Array[] = [];
    let lineBytes = 0;
    let total = 0;
    let number = 1;
    const buffer = new Uint8Array(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limits.maxBytes) {
        yield tooLarge(`the file is larger than ${limits.maxBytes} bytes`, number);
        return;
      }
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      while (start < bytesRead) {
        const found = chunk.indexOf(0x0a, start);
        const stop = found === -1 ? bytesRead : found;
        lineBytes += stop - start;
        if (lineBytes > limits.maxLineBytes) {
          yield tooLarge(`the line is longer than ${limits.maxLineBytes} bytes`, number);
          return;
        }
        // Copied: the buffer is read into again.
        if (stop > start) pieces.push(chunk.slice(start, stop));
        if (found === -1) break;
        yield { ok: true, value: { number, text: utf8.decode(concatBytes(pieces, lineBytes)) } };
        pieces = [];
        lineBytes = 0;
        number += 1;
        start = found + 1;
      }
    }
    if (lineBytes > 0) yield { ok: true, value: { number, text: utf8.decode(concatBytes(pieces, lineBytes)) } };
  } catch (error) {
    yield failure("unreadable", path, systemReason(error));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// ---- writing ---------------------------------------------------------------

/** Links followed before giving up, as the kernel's own limit. */
const MAX_LINKS = 40;

/** Where a write to `target` lands: the regular file (or the name to create) behind any symbolic links. */
export interface WriteTarget {
  readonly path: string;
  /** The existing file's status; absent when the write creates the file. */
  readonly existing?: Stats;
}

/**
 * Follows `target` through symbolic links to the file a write must replace,
 * or the name it must create in an existing directory; refuses anything else.
 * Also for writers that append (a results file): check before opening.
 */
export function writeTarget(target: string): FileResult<WriteTarget> {
  // Never normalized by spelling (path.resolve): the kernel takes "missing/../x" as nothing and "link/../x" as
  // beside the link's target, so a lexical "x" would replace a file the name does not reach, an input among them.
  let raw = target;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let info: Stats;
    try {
      info = lstatSync(raw);
    } catch (error) {
      if (systemCode(error) !== "ENOENT") return failure("write-failed", target, systemReason(error));
      if (raw.endsWith(sep)) return failure("write-failed", target, "it names a directory that does not exist");
      try {
        const parent = statSync(dirname(raw));
        if (!parent.isDirectory()) return failure("write-failed", target, "a parent is not a directory");
      } catch (parentError) {
        return failure("write-failed", target, `its directory cannot be used (${systemReason(parentError)})`);
      }
      return physical(raw, target);
    }
    if (info.isFile()) {
      const found = physical(raw, target);
      return found.ok ? { ok: true, value: { ...found.value, existing: info } } : found;
    }
    if (!info.isSymbolicLink()) return notRegular(target, info);
    if (isDescriptorLink(raw)) {
      return failure(
        "not-a-regular-file",
        target,
        "it is an open file descriptor (/dev/stdout and the like), not a file: a rename there would replace the whole file the descriptor has open, an appended log included",
      );
    }
    try {
      // The link's text is relative to the directory it is in, as the kernel reads it (physically, unnormalized).
      const text = readlinkSync(raw);
      raw = isAbsolute(text) ? text : `${realpathSync.native(dirname(raw))}${sep}${text}`;
    } catch (error) {
      return failure("write-failed", target, systemReason(error));
    }
  }
  return failure("write-failed", target, "too many symbolic links");
}

/** A link in /proc/<pid>/fd (where /dev/stdout, /dev/fd/N lead): it names a descriptor's open file, not a path to write. */
function isDescriptorLink(raw: string): boolean {
  try {
    return /^\/proc\/[^/]+(\/task\/[^/]+)?\/fd$/.test(realpathSync.native(dirname(raw)));
  } catch {
    return false;
  }
}

/** `raw`'s name in the real path of its directory (the native realpath: the JS one normalizes ".." by spelling first). */
function physical(raw: string, target: string): FileResult<{ readonly path: string }> {
  try {
    return { ok: true, value: { path: join(realpathSync.native(dirname(raw)), basename(raw)) } };
  } catch (error) {
    return failure("write-failed", target, `its directory cannot be used (${systemReason(error)})`);
  }
}

/** An output being written: bytes go to a hidden temp file until `commit` renames it into place. */
export interface AtomicFile {
  write(data: string | Uint8Array): void;
  /** Flushes and renames over the target; refuses if something other than a regular file took its place. */
  commit(): FileResult<void>;
  /** Removes the temp file; the target is left as it was. */
  discard(): void;
}

/** Opens a temp file for `target` (see `writeTarget`); nothing replaces the target until `commit`. */
export function openAtomic(target: string): FileResult<AtomicFile> {
  const resolved = writeTarget(target);
  if (!resolved.ok) return resolved;
  const { path, existing } = resolved.value;
  const dir = dirname(path);
  // Hidden and unique, so that a crashed run cannot collide with a later one.
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o666);
    if (existing !== undefined) {
      // The replacement keeps the file's permissions (and owner, where allowed).
      fchmodSync(fd, existing.mode & 0o7777);
      try {
        fchownSync(fd, existing.uid, existing.gid);
      } catch {
        // Only the owner's own files or root: a best effort.
      }
    }
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    removeQuietly(temp);
    return failure("write-failed", target, systemReason(error));
  }
  const open = fd;
  let done = false;
  const discard = (): void => {
    if (done) return;
    done = true;
    closeQuietly(open);
    removeQuietly(temp);
  };
  return {
    ok: true,
    value: {
      write(data) {
        const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
        let at = 0;
        while (at < bytes.length) at += writeSync(open, bytes, at, bytes.length - at);
      },
      commit() {
        if (done) return failure("write-failed", target, "the file was already committed or discarded");
        try {
          fsyncSync(open);
          closeSync(open);
          done = true;
          // The target may have changed since it was resolved: check it again right before the rename.
          const now = lstatOrUndefined(path);
          if (now !== undefined && !now.isFile()) {
            removeQuietly(temp);
            return notRegular(target, now);
          }
          renameSync(temp, path);
        } catch (error) {
          if (!done) closeQuietly(open);
          done = true;
          removeQuietly(temp);
          return failure("write-failed", target, systemReason(error));
        }
        syncDirectory(dir);
        return { ok: true, value: undefined };
      },
      discard,
    },
  };
}

/** The whole of `data` as the new content of `target`: atomically, through symbolic links, never over a special file. */
export function writeFileAtomic(target: string, data: string | Uint8Array): FileResult<void> {
  const file = openAtomic(target);
  if (!file.ok) return file;
  try {
    file.value.write(data);
  } catch (error) {
    file.value.discard();
    return failure("write-failed", target, systemReason(error));
  }
  return file.value.commit();
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (systemCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/** Makes the rename itself durable. Best effort: some systems cannot open a directory for sync. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Durability of the directory entry is a bonus, not a condition of success.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or the error was reported by the write.
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing to remove.
  }
}
