/**
 * decode --stream: the arguments text read as it arrives, one line per change
 * of the partial source value (`{"partial": …}`), then the line `decode` prints
 * for the whole text, with decode's exit codes. The partial values are for
 * watching only; the final line is the only decoded value.
 *
 * The final result is `codec.decode` of the bytes as read, so bad UTF-8 and
 * every limit are judged exactly as `decode` judges them; the stream decoder
 * only gives the partial values and the early refusal. A text that can no
 * longer become one the codec accepts is refused at once: the error is
 * reported and the run ends without draining standard input.
 */
import type { Codec } from "@strictwire/codec";
import { EXIT_OK, type ExitCode, fromCodec } from "../failure.js";
import { INPUT_CAP, isStdin, readPath, STDIN_LABEL } from "../input.js";
import type { Reporter } from "../report.js";

export async function decodeStream(
  codec: Codec<unknown>,
  argumentsArg: string | undefined,
  reporter: Reporter,
): Promise<ExitCode> {
  const source = await chunksOf(argumentsArg, reporter);
  if ("fail" in source) return source.fail;
  const decoder = codec.streamDecoder();
  // fatal: a byte sequence that is not UTF-8 stops the partial values; decode of the bytes then says why.
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let text = true;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source.chunks) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > INPUT_CAP) break;
    if (!text) continue;
    let delta: string;
    try {
      delta = utf8.decode(chunk, { stream: true });
    } catch {
      text = false;
      continue;
    }
    const step = decoder.push(delta);
    if (!step.ok) return reporter.fail(fromCodec(step.error, source.label).error);
    if (step.changed) reporter.data({ partial: step.value });
  }
  const bytes = concat(chunks, Math.min(size, INPUT_CAP + 1));
  const decoded = codec.decode(bytes);
  if (!decoded.ok) return reporter.fail(fromCodec(decoded.error, source.label).error);
  if (reporter.json) return reporter.ok({ value: decoded.value });
  reporter.result(JSON.stringify(decoded.value));
  return EXIT_OK;
}

async function chunksOf(
  arg: string | undefined,
  reporter: Reporter,
): Promise<{ chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>; label: string } | { fail: ExitCode }> {
  if (isStdin(arg)) {
    if (reporter.io.stdinIsTTY) reporter.note("reading the arguments from standard input (end it with Ctrl-D)");
    return { chunks: bytesOf(reporter.io.stdinChunks()), label: STDIN_LABEL };
  }
  // A file is already whole: its one chunk streams like any other.
  const input = await readPath(arg!);
  if (!input.ok) return { fail: reporter.fail(input.error) };
  return { chunks: [input.value.bytes], label: input.value.label };
}

async function* bytesOf(chunks: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  for await (const chunk of chunks) yield typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, size - at);
    all.set(part, at);
    at += part.byteLength;
    if (at === size) break;
  }
  return all;
}
