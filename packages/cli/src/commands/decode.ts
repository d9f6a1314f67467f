/**
 * decode: the arguments text a model wrote -> the original value. The bytes go
 * to the bounded parser as read, never re-serialized, so duplicate keys,
 * number spellings and bad UTF-8 are judged as the model wrote them.
 */
import type { CodecError, Result } from "@strictwire/codec";
import { EXIT_OK, type ExitCode, fromCodec } from "../failure.js";
import { oneStdin, readInput } from "../input.js";
import type { Reporter } from "../report.js";
import { readCodec } from "./bundle-input.js";

export interface DecodeFlags {
  /** Read the text as it arrives, printing the partial value as it changes (decode-stream.ts). */
  readonly stream?: boolean;
}

export async function runDecode(
  bundleArg: string,
  argumentsArg: string | undefined,
  flags: DecodeFlags,
  reporter: Reporter,
): Promise<ExitCode> {
  const single = oneStdin([bundleArg, argumentsArg]);
  if (!single.ok) return reporter.fail(single.error);
  const codec = await readCodec(bundleArg, reporter);
  if (!codec.ok) return reporter.fail(codec.error);
  if (flags.stream === true) {
    const { runDecodeStream } = await import("./decode-stream.js");
    return runDecodeStream(codec.value, argumentsArg, reporter);
  }
  const input = await readInput(argumentsArg, "arguments", reporter);
  if (!input.ok) return reporter.fail(input.error);
  return reportDecoded(codec.value.decode(input.value.bytes), input.value.label, reporter);
}

/** decode's result as it prints it: the value as JSON, or the refusal (exit 1). */
export function reportDecoded(decoded: Result<unknown, CodecError>, label: string, reporter: Reporter): ExitCode {
  if (!decoded.ok) return reporter.fail(fromCodec(decoded.error, label).error);
  if (reporter.json) return reporter.ok({ value: decoded.value });
  reporter.result(JSON.stringify(decoded.value));
  return EXIT_OK;
}
