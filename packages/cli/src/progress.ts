/** A one-line counter on stderr while many files compile; only on a terminal, where it can be erased. */
import type { OutStream } from "./io.js";

const ERASE_LINE = "\r\u001b[K";

export interface Progress {
  show(done: number, label: string): void;
  /** Erases the counter so that a message can take its line. */
  clear(): void;
}

const SILENT: Progress = { show: () => undefined, clear: () => undefined };

export function progress(stream: OutStream, total: number): Progress {
  if (!stream.isTTY || total < 2) return SILENT;
  let shown = false;
  return {
    show(done, label) {
      stream.write(`${ERASE_LINE}[${done}/${total}] ${label}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write(ERASE_LINE);
      shown = false;
    },
  };
}
