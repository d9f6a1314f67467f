/**
 * The process as the commands see it. Commands never touch `process`
 * directly, so that main(argv, io) can run them against any streams.
 */

export interface OutStream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Resolves once everything written so far is out; rejects if it could not be (a closed pipe). */
  written?(): Promise<void>;
}

export interface Io {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdinIsTTY: boolean;
  /** Every byte of standard input, or as many as `cap` + 1 when it holds more. */
  readStdin(cap: number): Promise<Uint8Array>;
  /** Standard input as it arrives, for a command that reads it record by record. */
  stdinChunks(): AsyncIterable<Uint8Array>;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): Io {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  endOnSignalsBetweenSteps();
  return {
    stdout: {
      write: (text) => void process.stdout.write(text),
      isTTY: process.stdout.isTTY === true,
      // An empty write's callback comes after every earlier write's, with the stream's error if it has one.
      written: () => new Promise((ok, fail) => process.stdout.write("", (error) => (error ? fail(error) : ok()))),
    },
    stderr: { write: (text) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true },
    stdinIsTTY: process.stdin.isTTY === true,
    readStdin: (cap) => readStream(process.stdin, cap),
    stdinChunks: () => process.stdin,
    env: process.env,
  };
}

async function readStream(stream: NodeJS.ReadableStream, cap: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    chunks.push(bytes);
    size += bytes.length;
    // Stop early: an endless producer must not exhaust memory.
    if (size > cap) break;
  }
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, Math.min(size, cap + 1));
}

/**
 * `strictwire ... | head` closes the pipe early: that reader has seen enough,
 * which is no error worth a stack trace. Other write errors are reported once.
 * Standard output closed ends the process as it ends a Unix tool, by SIGPIPE
 * (status 141 in a shell), rather than classify or stream on for no reader;
 * a closed stderr only loses messages, and the results still have a reader.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") {
      if (stream === process.stdout && !stdoutIsSession) endBySigpipe();
      return;
    }
    process.exitCode = 2;
    if (stream !== process.stderr)
      process.stderr.write(`strictwire: cannot write output (${error.code ?? error.message})\n`);
  });
}

let stdoutIsSession = false;

/**
 * For mcp-proxy, whose stdout carries a protocol session: a client gone ends
 * the session by its own rule (the end of standard input: the upstream
 * closed, exit 0), not by SIGPIPE at the next reply.
 */
export function stdoutCarriesSession(): void {
  stdoutIsSession = true;
}

/**
 * Node ignores SIGPIPE, so that a closed pipe is an EPIPE error instead. A
 * listener added and removed leaves the signal at its default disposition,
 * which ends the process; it is sent then. Between steps, as for the signals below.
 */
function endBySigpipe(): void {
  const listener = (): void => undefined;
  process.on("SIGPIPE", listener);
  process.off("SIGPIPE", listener);
  process.kill(process.pid, "SIGPIPE");
}

/**
 * Ctrl-C, SIGTERM, a closed terminal: left to their default, they cut a write
 * of an output in the middle and leave its temp file behind. Heard by a
 * listener, they wait for the synchronous step under way (the temp file
 * written and renamed into place), then end the process by that same signal,
 * as the default would have: the listener is gone by then, so the signal
 * sent again meets the default disposition. The price: a long synchronous
 * step (compiling a huge schema) also runs to its end before the signal acts.
 */
function endOnSignalsBetweenSteps(): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => process.kill(process.pid, signal));
  }
  // A signal heard during the last step is delivered on a later turn of the loop, which an idle loop never takes.
  process.once("beforeExit", () => setImmediate(() => undefined));
}
