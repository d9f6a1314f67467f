/** Where the corpora are, how they are read, where results go, and progress on a terminal. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { type AtomicFile, openAtomic } from "@strictwire/codec/files";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The corpus folders the runner reads; each must exist. */
export const CORPUS_DIRS = ["json-schema-test-suite", "jsonschemabench", "bfcl", "mcp"] as const;

export type Located = { ok: true; root: string } | { ok: false; message: string };

/** $STRICTWIRE_CORPORA if set, else the repository's own corpora/. Never a silent skip. */
export function locateCorpora(env: NodeJS.ProcessEnv = process.env): Located {
  const fromEnv = env.STRICTWIRE_CORPORA;
  const candidate = fromEnv !== undefined && fromEnv !== "" ? resolve(fromEnv) : resolve(REPO_ROOT, "corpora");
  const how = fromEnv ? "from STRICTWIRE_CORPORA" : "the repository's corpora/; STRICTWIRE_CORPORA is not set";
  if (!existsSync(candidate) || !statSync(candidate).isDirectory()) {
    return { ok: false, message: `conformance: the corpora were not found. Looked in ${candidate} (${how}).` };
  }
  const missing = CORPUS_DIRS.filter((d) => !existsSync(join(candidate, d)));
  if (missing.length > 0) {
    return {
      ok: false,
      message: `conformance: ${candidate} (${how}) lacks ${missing.map((m) => `${m}/`).join(", ")}.`,
    };
  }
  return { ok: true, root: candidate };
}

export function readText(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

/** JSON lines; a line that does not parse is returned as an error, not skipped. */
export function readJsonLines(
  path: string,
): ({ ok: true; value: unknown } | { ok: false; line: number; error: string })[] {
  const out: ({ ok: true; value: unknown } | { ok: false; line: number; error: string })[] = [];
  const lines = readText(path).split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      out.push({ ok: true, value: JSON.parse(line) });
    } catch (error) {
      out.push({ ok: false, line: i + 1, error: String(error) });
    }
  });
  return out;
}

/** Files under dir (recursively) whose name ends with suffix, as sorted paths relative to dir. */
export function listFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(suffix)) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Full per-case results, one JSON line each, under conformance/ (git-ignored).
 * Written synchronously in chunks: the run never yields to the event loop, so
 * a stream would only buffer everything in memory.
 */
export class CaseLog {
  /** A temp file beside the log, renamed into place on close: two runs at once must not interleave in one file. */
  private readonly file: AtomicFile;
  private buffer: string[] = [];
  private size = 0;
  constructor(readonly path: string) {
    const opened = openAtomic(path);
    if (!opened.ok) throw new Error(`${path}: ${opened.error.code}: ${opened.error.message}`);
    this.file = opened.value;
  }
  write(record: Record<string, unknown>): void {
    const line = `${JSON.stringify(record)}\n`;
    this.buffer.push(line);
    this.size += line.length;
    if (this.size > 1 << 20) this.flush();
  }
  /** Copy another case file in (a worker's part). */
  append(path: string): void {
    this.flush();
    this.file.write(readFileSync(path));
  }
  close(): void {
    this.flush();
    const committed = this.file.commit();
    if (!committed.ok) throw new Error(`${this.path}: ${committed.error.code}: ${committed.error.message}`);
  }
  private flush(): void {
    if (this.buffer.length > 0) this.file.write(this.buffer.join(""));
    this.buffer = [];
    this.size = 0;
  }
}

/** Where a corpus run reports how far it is. */
export interface ProgressSink {
  update(label: string, done: number, total: number): void;
  clear(): void;
}

/** One status line on stderr, only when stderr is a terminal. */
export class Progress implements ProgressSink {
  private last = 0;
  private shown = false;
  constructor(private readonly enabled: boolean = process.stderr.isTTY === true) {}
  update(label: string, done: number, total: number): void {
    this.line(`${label} ${done}/${total}`, done === total);
  }
  line(text: string, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 100 && !force) return;
    this.last = now;
    process.stderr.write(`\r\u001b[2K${text.slice(0, (process.stderr.columns ?? 100) - 1)}`);
    this.shown = true;
  }
  clear(): void {
    if (this.shown) process.stderr.write("\r\u001b[2K");
    this.shown = false;
  }
}
