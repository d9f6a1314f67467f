/**
 * check: does this tool set fit the target's limits (per tool and per
 * request). Not built yet; build it here. The command line is wired:
 * `files` are the bundle paths as given, `target` the --target flag.
 */
import type { TargetName } from "@strictwire/codec";
import { type ExitCode, notSupported } from "../failure.js";
import type { Reporter } from "../report.js";

export interface CheckFlags {
  readonly target?: TargetName;
}

export async function runCheck(_files: readonly string[], _flags: CheckFlags, reporter: Reporter): Promise<ExitCode> {
  return reporter.fail(notSupported("check is not supported yet").error);
}
