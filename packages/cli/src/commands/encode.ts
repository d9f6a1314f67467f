/** encode: an original value -> the wire value the model would write for it. */
import { EXIT_OK, type ExitCode, fromCodec } from "../failure.js";
import { oneStdin, parseDocument, readInput } from "../input.js";
import type { Reporter } from "../report.js";
import { readCodec } from "./bundle-input.js";

export async function runEncode(
  bundleArg: string,
  valueArg: string | undefined,
  reporter: Reporter,
): Promise<ExitCode> {
  const single = oneStdin([bundleArg, valueArg]);
  if (!single.ok) return reporter.fail(single.error);
  const codec = await readCodec(bundleArg, reporter);
  if (!codec.ok) return reporter.fail(codec.error);
  const input = await readInput(valueArg, "value", reporter);
  if (!input.ok) return reporter.fail(input.error);
  const value = parseDocument(input.value, "value");
  if (!value.ok) return reporter.fail(value.error);
  const encoded = codec.value.encode(value.value);
  if (!encoded.ok) return reporter.fail(fromCodec(encoded.error, input.value.label).error);
  if (reporter.json) return reporter.ok({ wire: encoded.value });
  reporter.result(JSON.stringify(encoded.value));
  return EXIT_OK;
}
