/**
 * decode --stream: the arguments text read as it arrives, through the codec's
 * stream decoder (issue 28). Each time the partial source value changes, one
 * line `{"partial":…}` goes to stdout (display only: never validated). The
 * last line is what plain decode prints for the same bytes, with its exit code.
 *
 * - Standard input is read chunk by chunk as the writer sends it, never
 *   waiting for its end. A file is read whole, as decode reads it (regular
 *   files only, same cap), then pushed in 64 KiB pieces.
 * - Early refusal: once the bytes read cannot begin any text decode accepts,
 *   the push's refusal is printed at once (exit 1) and the rest is not read:
 *   standard input is closed, so the writer sees a closed pipe and can stop.
 *   It is the push's, not decode's of the bytes read: decode of a text cut
 *   short says the text was never closed, while the push says what no
 *   completion can mend (`wire-violation` at the member); a model given the
 *   feedback is told what to change. Where they agree (a JSON or limit
 *   refusal), decode's of the bytes, whose offsets count bytes.
 * - The final result is `codec.decode(every byte read)`, the same call plain
 *   decode makes, so offsets count bytes and invalid UTF-8 is judged as sent.
 * - Bounded as decode: the codec's limits while streaming, and INPUT_CAP.
 */
import { type Codec, type CodecError, streamDecoder } from "@strictwire/codec";
import { type ExitCode, errorCode, fromCodec, systemReason, unreadable } from "../failure.js";
import { INPUT_CAP, isStdin, readPath, STDIN_LABEL, tooLarge } from "../input.js";
import type { Reporter } from "../report.js";
import { reportDecoded } from "./decode.js";

/** A file's pieces: the size a pipe usually delivers. */
const PIECE = 1 << 16;

export async function runDecodeStream(
  codec: Codec,
  argumentsArg: string | undefined,
  reporter: Reporter,
): Promise<ExitCode> {
  let label = STDIN_LABEL;
  let pieces: AsyncIterable<Uint8Array | string>;
  if (isStdin(argumentsArg)) {
    if (reporter.io.stdinIsTTY) reporter.note("reading the arguments from standard input (end it with Ctrl-D)");
    pieces = reporter.io.stdinChunks();
  } else {
    const input = await readPath(argumentsArg!);
    if (!input.ok) return reporter.fail(input.error);
    label = input.value.label;
    pieces = piecesOf(input.value.bytes);
  }

  const stream = streamDecoder(codec);
  // Fatal, and keeping a BOM, as the parser reads bytes; `stream: true` holds a character split across chunks.
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  /** Bytes of the text pushed so far (a character split across chunks waits in `utf8`). */
  let pushedBytes = 0;
  let shown: string | undefined;
  try {
    for await (const piece of pieces) {
      const bytes = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
      chunks.push(bytes);
      size += bytes.byteLength;
      if (size > INPUT_CAP) return reporter.fail(tooLarge(label).error);
      let text: string;
      try {
        text = utf8.decode(bytes, { stream: true });
      } catch {
        // Ill-formed UTF-8: decode refuses every text that begins with these bytes.
        return refuse(codec, joined(chunks, size), label, reporter);
      }
      const step = stream.push(text);
      pushedBytes += Buffer.byteLength(text, "utf8");
      if (!step.ok) return refuse(codec, joined(chunks, size).subarray(0, pushedBytes), label, reporter, step.error);
      if (!step.changed || step.value === undefined) continue;
      const line = JSON.stringify({ partial: step.value });
      if (line === shown) continue;
      shown = line;
      reporter.result(line);
    }
  } catch (error) {
    // A read that failed (EIO, ...); anything else is a bug, not the input's fault.
    if (errorCode(error) === undefined) throw error;
    return reporter.fail(unreadable(label, systemReason(error)).error);
  }
  return reportDecoded(codec.decode(joined(chunks, size)), label, reporter);
}

/**
 * The refusal of the bytes read so far, printed at once; returning ends the
 * reading. `pushed`: the stream decoder's, given unless decode of the bytes
 * says the same (code and path), whose offsets count bytes.
 */
function refuse(codec: Codec, bytes: Uint8Array, label: string, reporter: Reporter, pushed?: CodecError): ExitCode {
  const decoded = codec.decode(bytes);
  // Unreachable: the stream decoder and the UTF-8 decoder refuse only what decode refuses.
  if (decoded.ok) throw new Error("strictwire: decode accepted a text the stream decoder refused");
  const same = pushed === undefined || (decoded.error.code === pushed.code && decoded.error.path === pushed.path);
  return reporter.fail(fromCodec(same ? decoded.error : pushed, label).error);
}

async function* piecesOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, size);
}
