/**
 * check: does this tool set, sent together in one request, fit the target's
 * limits? Each wire schema against the per-schema limits, then the caps that
 * count across every tool (Anthropic's strict tools, optional and union
 * parameters), and the answer format when one is sent (--answer: a
 * structured output's bundle counts in the same caps). Crossing a limit is a rejection (exit 1); a bundle that does
 * not load is the deployment's problem (exit 2), as for encode and decode.
 */
import {
  type Advisory,
  type Bundle,
  checkToolSet,
  describeFinding,
  type LimitFinding,
  type TargetName,
  type ToolSetOptions,
  toolSetAdvisories,
} from "@strictwire/codec";
import { type ErrorView, EXIT_OK, EXIT_REJECTED, type ExitCode, type Outcome, succeed, usage } from "../failure.js";
import { plural } from "../format.js";
import { isStdin, oneStdin, STDIN_LABEL } from "../input.js";
import { PROGRAM, type Reporter } from "../report.js";
import { readCodec } from "./bundle-input.js";

export interface CheckFlags {
  readonly target?: TargetName;
  /** The bundle of the request's answer format (structured outputs). */
  readonly answer?: string;
}

interface Tool {
  readonly name: string;
  /** The bundle it was read from, as given. */
  readonly input: string;
  readonly bundle: Bundle;
}

/** What --json reports for each finding: the codec's, with the bundle it concerns and a sentence. */
interface Finding extends LimitFinding {
  readonly input: string;
  readonly message: string;
}

export async function runCheck(files: readonly string[], flags: CheckFlags, reporter: Reporter): Promise<ExitCode> {
  const single = oneStdin([...files, flags.answer]);
  if (!single.ok) return reporter.fail(single.error);
  const tools: Tool[] = [];
  for (const file of files) {
    // Loaded as encode and decode load it: a bundle that would not serve calls is no tool of this set.
    const codec = await readCodec(file, reporter);
    if (!codec.ok) return reporter.fail(codec.error);
    tools.push({ name: codec.value.name, input: isStdin(file) ? STDIN_LABEL : file, bundle: codec.value.bundle });
  }
  let answer: Tool | undefined;
  if (flags.answer !== undefined) {
    const codec = await readCodec(flags.answer, reporter);
    if (!codec.ok) return reporter.fail(codec.error);
    answer = {
      name: codec.value.name,
      input: isStdin(flags.answer) ? STDIN_LABEL : flags.answer,
      bundle: codec.value.bundle,
    };
  }
  if (tools.length === 0 && answer === undefined)
    return reporter.fail(usage("give the bundles of one request's tools, or --answer, or both").error);
  const unique = uniqueNames(tools);
  if (!unique.ok) return reporter.fail(unique.error);
  const target = targetFor(answer === undefined ? tools : [...tools, answer], flags.target);
  if (!target.ok) return reporter.fail(target.error);

  const inputOf = new Map(tools.map((t) => [t.name, t.input]));
  const options: ToolSetOptions = answer !== undefined ? { output: answer.bundle } : {};
  if (answer !== undefined) inputOf.set(`${answer.name} (answer format)`, answer.input);
  const findings: Finding[] = checkToolSet(
    tools.map((t) => t.bundle),
    target.value,
    options,
  ).map((f) => ({ ...f, input: inputOf.get(f.tool) ?? "", message: describeFinding(f, target.value) }));
  const fits = findings.length === 0;
  // Advice (Anthropic's unpublished grammar size, a first-key reading to confirm): reported, never a rejection.
  const advisories = toolSetAdvisories(
    tools.map((t) => t.bundle),
    target.value,
    options,
  ).map((a) => (a.kind === "firstKeyReading" ? { ...a, probe: probeCommand(inputOf.get(a.tool) ?? "") } : a));

  if (reporter.json) {
    const first = findings[0];
    reporter.data({
      ok: fits,
      // The first finding as an error, in the shape of compile's own target-limit refusal.
      ...(first !== undefined ? { error: limitError(first) } : {}),
      target: target.value,
      tools: tools.map((t) => ({ name: t.name, input: t.input })),
      ...(answer !== undefined ? { answer: { name: answer.name, input: answer.input } } : {}),
      findings,
      advisories,
    });
  } else {
    reporter.result(render(findings, advisories, tools.length, answer !== undefined, target.value, reporter));
  }
  return fits ? EXIT_OK : EXIT_REJECTED;
}

/** A request cannot hold two tools of one name: the provider would refuse it before any limit. */
function uniqueNames(tools: readonly Tool[]): Outcome<void> {
  const seen = new Map<string, string>();
  for (const t of tools) {
    const other = seen.get(t.name);
    if (other !== undefined)
      return usage(`${other} and ${t.input} are both tool ${t.name}: a request holds each tool once`);
    seen.set(t.name, t.input);
  }
  return succeed(undefined);
}

/**
 * The bundles' own target unless --target names one. A wire compiled for
 * another target is not what this one would be sent (presence and spelling
 * differ), so measuring it would answer the wrong question: recompile instead.
 */
function targetFor(tools: readonly Tool[], flag: TargetName | undefined): Outcome<TargetName> {
  const compiledFor = [...new Set(tools.map((t) => t.bundle.options.target))];
  if (flag !== undefined) {
    const other = tools.find((t) => t.bundle.options.target !== flag);
    if (other === undefined) return succeed(flag);
    return usage(
      `${other.input} was compiled for ${other.bundle.options.target}, not ${flag}: compile it again with --target ${flag} to check it against ${flag}`,
    );
  }
  const [only, ...more] = compiledFor;
  if (only !== undefined && more.length === 0) return succeed(only);
  return usage(
    `the bundles were compiled for different targets (${compiledFor.join(", ")}): one request has one target`,
  );
}

/** The command that asks OpenAI whether it takes the tool (its key from OPENAI_API_KEY). */
function probeCommand(input: string): string {
  const file = /^[\w./@%+=:,-]+$/.test(input) ? input : `'${input.replaceAll("'", "'\\''")}'`;
  return `${PROGRAM} probe ${file} --api responses --model <model>`;
}

function limitError(f: Finding): ErrorView {
  const message = `${f.limit}: ${f.message}`;
  return { code: "target-limit", path: f.path, message, feedback: message };
}

function render(
  findings: readonly Finding[],
  advisories: readonly Advisory[],
  tools: number,
  withAnswer: boolean,
  target: TargetName,
  reporter: Reporter,
): string {
  const s = reporter.out;
  const set =
    tools === 0
      ? "this answer format"
      : `this set of ${plural(tools, "tool")}${withAnswer ? " and answer format" : ""}`;
  const advice = advisories.map(
    (a) => `${s.yellow(a.kind)}  ${a.message}${"probe" in a ? `: ${a.probe as string}` : ""}`,
  );
  if (findings.length === 0) return [...advice, `${set} fits the ${target} target's limits`].join("\n");
  const width = findings.reduce((w, f) => Math.max(w, f.limit.length), 0);
  const lines = [...findings.map((f) => `${s.red(f.limit.padEnd(width))}  ${f.message}`), ...advice];
  lines.push(`${set} does not fit the ${target} target: ${plural(findings.length, "limit")} crossed`);
  return lines.join("\n");
}
