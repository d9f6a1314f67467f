/**
 * classify: which stored tool calls a dispatcher can use, and why not. The
 * classifier owns the run and its output; the CLI reads --responses (a file
 * or standard input) and hands over the streams.
 */
import { runClassify } from "@strictwire/classifier";
import { type ExitCode, usage } from "../failure.js";
import { isStdin, readInput } from "../input.js";
import { failureLine, type Reporter, usageHint } from "../report.js";

export interface ClassifyFlags {
  readonly responses?: string;
  readonly ids?: string;
  readonly bundles?: string;
  readonly showAll?: boolean;
}

const decoder = new TextDecoder("utf-8");

export async function runClassifyCommand(flags: ClassifyFlags, reporter: Reporter): Promise<ExitCode> {
  // Usage first, in the CLI's words and with the pointer to classify --help.
  if ((flags.responses === undefined) === (flags.ids === undefined)) {
    const message = "give the responses to read (--responses) or a file of response ids (--ids)";
    const failure = usage(flags.responses === undefined ? message : `${message}, not both`).error;
    reporter.note(failureLine(failure, reporter.err));
    reporter.note(usageHint(reporter.command));
    return failure.exit;
  }
  let responsesText: string | undefined;
  if (flags.responses !== undefined) {
    const input = await readInput(isStdin(flags.responses) ? undefined : flags.responses, "responses", reporter);
    // The classifier reports its own failures on stderr only, with --json too; the CLI's match them.
    if (!input.ok) {
      reporter.note(failureLine(input.error, reporter.err));
      return input.error.exit;
    }
    responsesText = decoder.decode(input.value.bytes);
  }
  const code = await runClassify(
    {
      responsesText,
      idsFile: flags.ids,
      bundlesDir: flags.bundles,
      showAll: flags.showAll === true,
      json: reporter.json,
    },
    {
      stdout: (text) => reporter.io.stdout.write(text),
      stderr: (text) => reporter.io.stderr.write(text),
      env: reporter.io.env,
    },
  );
  return code === 0 || code === 1 ? code : 2;
}
