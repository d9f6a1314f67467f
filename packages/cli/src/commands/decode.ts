/**
 * decode: the arguments text a model wrote -> the original value. The bytes go
 * to the bounded parser as read, never re-serialized, so duplicate keys,
 * number spellings and bad UTF-8 are judged as the model wrote them.
 */
import { EXIT_OK, type ExitCode, fromCodec } from "../failure.js";
import { oneStdin, readInput } from "../input.js";
import type { Reporter } from "../report.js";
import { readCodec } from "./bundle-input.js";
import { decodeStream } from "./decode-stream.js";

export async function runDecode(
  bundleArg: string,
  argumentsArg: string | undefined,
  reporter: Reporter,
  stream = false,
): Promise<ExitCode> {
  const single = oneStdin([bundleArg, argumentsArg]);
  if (!single.ok) return reporter.fail(single.error);
  const codec = await readCodec(bundleArg, reporter);
  if (!codec.ok) return reporter.fail(codec.error);
  if (stream) return decodeStream(codec.value, argumentsArg, reporter);
  const input = await readInput(argumentsArg, "arguments", reporter);
  if (!input.ok) return reporter.fail(input.error);
  const decoded = codec.value.decode(input.value.bytes);
  if (!decoded.ok) return reporter.fail(fromCodec(decoded.error, input.value.label).error);
  if (reporter.json) return reporter.ok({ value: decoded.value });
  reporter.result(JSON.stringify(decoded.value));
  return EXIT_OK;
}
