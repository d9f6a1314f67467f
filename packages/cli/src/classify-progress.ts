/**
 * classify's progress line on stderr: records done, calls per second,
 * findings so far and, when the input's size is known, the time left. Only
 * on a terminal, where the line can be redrawn in place, and never with
 * --json; colour only where colour is allowed (NO_COLOR, TERM=dumb).
 */
import type { RunProgress } from "@strictwire/classifier";
import type { Io, OutStream } from "./io.js";
import { styleFor } from "./style.js";

const ERASE_LINE = "\r\u001b[K";
/** Redraw at most this often: a terminal cannot show more, and writing costs. */
const REDRAW_MS = 100;

export interface ClassifyProgress {
  update(state: RunProgress): void;
  /** Erases the line so that other output can take it; the next update draws it again. */
  clear(): void;
}

export interface ProgressSource {
  /** The input's size in bytes, when known (a file; not a pipe). */
  readonly totalBytes?: number | undefined;
  /** Bytes of the input read so far. */
  readonly bytesRead: () => number;
  /** Milliseconds; injectable for tests. */
  readonly now?: () => number;
}

const SILENT: ClassifyProgress = { update: () => undefined, clear: () => undefined };

const count = (n: number): string => Math.round(n).toLocaleString("en-US");

export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

export function classifyProgress(
  stream: OutStream,
  env: Io["env"],
  json: boolean,
  source: ProgressSource,
): ClassifyProgress {
  if (!stream.isTTY || json) return SILENT;
  const style = styleFor(stream, env);
  const now = source.now ?? Date.now;
  const started = now();
  let drawn = false;
  let last = Number.NEGATIVE_INFINITY;
  return {
    update(state) {
      if (state.done) {
        if (drawn) stream.write(ERASE_LINE);
        drawn = false;
        return;
      }
      const at = now();
      if (at - last < REDRAW_MS) return;
      last = at;
      const elapsed = Math.max(1, at - started);
      const parts = [
        `${count(state.records)} records`,
        `${count((state.calls * 1000) / elapsed)} calls/s`,
        state.findings > 0 ? style.yellow(`${count(state.findings)} findings`) : "0 findings",
      ];
      const total = source.totalBytes;
      const read = source.bytesRead();
      if (total !== undefined && total > 0 && read > 0) {
        const fraction = Math.min(1, read / total);
        parts.push(`${Math.floor(fraction * 100)}%`, `${duration((elapsed * (1 - fraction)) / fraction)} left`);
      }
      stream.write(`${ERASE_LINE}${style.dim("classify")} ${parts.join(" · ")}`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write(ERASE_LINE);
      drawn = false;
    },
  };
}
