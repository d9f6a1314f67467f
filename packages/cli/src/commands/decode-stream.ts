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
 *   A push refused where decode accepts (a bundle whose wire and plan were
 *   edited apart) ends the partial lines with a warning, not the run.
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
  /** Off once decode accepted what the push refused: then the bytes are only gathered for decode's word. */
  let streaming = true;
  const refused = (bytes: Uint8Array, pushed?: CodecError): ExitCode | undefined => {
    const error = refusal(codec, bytes, pushed);
    if (error !== undefined) return reporter.fail(fromCodec(error, label).error);
    streaming = false;
    reporter.warn(
      "the stream decoder refused what decode accepts: this bundle's wire schema and decode plan disagree (edited, or damaged with its digest made to match); no more partial lines, the result is decode's",
    );
    return undefined;
  };
  try {
    for await (const piece of pieces) {
      const bytes = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
      chunks.push(bytes);
      size += bytes.byteLength;
      if (size > INPUT_CAP) return reporter.fail(tooLarge(label).error);
      if (!streaming) continue;
      let text: string;
      try {
        text = utf8.decode(bytes, { stream: true });
      } catch {
        // Ill-formed UTF-8: decode refuses every text that begins with these bytes.
        const code = refused(joined(chunks, size));
        if (code !== undefined) return code;
        continue;
      }
      const step = stream.push(text);
      pushedBytes += Buffer.byteLength(text, "utf8");
      if (!step.ok) {
        const code = refused(joined(chunks, size).subarray(0, pushedBytes), step.error);
        if (code !== undefined) return code;
        continue;
      }
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
 * The refusal of the bytes read so far, to print at once and end the reading.
 * `pushed`: the stream decoder's, given unless decode of the bytes says the
 * same (code and path), whose offsets count bytes. Undefined when decode
 * accepts the bytes: the stream decoder refuses only what decode refuses,
 * unless the bundle's wire and plan disagree (an edit the loader cannot see),
 * and then decode, the command's promised result, has the last word.
 */
function refusal(codec: Codec, bytes: Uint8Array, pushed?: CodecError): CodecError | undefined {
  const decoded = codec.decode(bytes);
  if (decoded.ok) return undefined;
  const same = pushed === undefined || (decoded.error.code === pushed.code && decoded.error.path === pushed.path);
  return same ? decoded.error : pushed;
}

async function* piecesOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, size);
}
