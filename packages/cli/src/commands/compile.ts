/**
 * compile: schema -> bundle. One schema goes to -o or stdout; many go to
 * --out-dir, one bundle each, named after the schema file.
 */
import { mkdir, readdir } from "node:fs/promises";
import { type Bundle, compile, type NonStrict, type RelaxedConstraint } from "@strictwire/codec";
import { checkOutput, guardInputs, writeAtomic } from "../atomic.js";
import { type EmitName, type Emitter, emitterFor } from "../emit/emitter.js";
import { OUTPUT_TARGET, type OutputFormatName, outputFormatEmitter } from "../emit/output-format.js";
import { expandInputs, inDir } from "../expand.js";
import {
  EXIT_OK,
  EXIT_REJECTED,
  EXIT_USAGE,
  type ExitCode,
  errorCode,
  type Failure,
  fromCodec,
  notFound,
  type Outcome,
  succeed,
  systemReason,
  unreadable,
  usage,
  writeFailed,
} from "../failure.js";
import { bytes, plural } from "../format.js";
import { type Input, parseDocument, readInput, readPath } from "../input.js";
import { stem, toolNameFor } from "../names.js";
import { type CompileFlags, compileOptions } from "../options.js";
import { progress } from "../progress.js";
import { failureLine, PROGRAM, type Reporter } from "../report.js";

export interface CompileCommandFlags extends CompileFlags {
  readonly schemaDir?: string;
  readonly out?: string;
  readonly outDir?: string;
  readonly emit: EmitName;
  /** Print this API's structured-output request fragment instead of what --emit names. */
  readonly outputFormat?: OutputFormatName;
}

/** What --json reports for each compiled schema. */
interface Compiled {
  readonly input: string;
  readonly name: string;
  readonly digest: string;
  /** Where the output went; null for standard output. */
  readonly out: string | null;
  readonly sizes: {
    readonly source: { bytes: number };
    readonly wire: { bytes: number };
    readonly output: { bytes: number };
  };
  readonly relaxed: readonly RelaxedConstraint[];
  /** Present when the tool is sent with strict mode off (--strict auto over a limit). */
  readonly nonStrict?: NonStrict;
}

export async function runCompile(
  inputs: readonly string[],
  given: CompileCommandFlags,
  reporter: Reporter,
): Promise<ExitCode> {
  let flags = given;
  // The files --schema-dir read are inputs as much as the schemas: no output may replace one.
  let schemaDirFiles: readonly string[] = [];
  if (given.schemaDir !== undefined) {
    const read = await readSchemaDir(given.schemaDir);
    if (!read.ok) return reporter.fail(read.error);
    flags = { ...given, resources: read.value.resources };
    schemaDirFiles = read.value.files;
  }
  if (flags.outputFormat !== undefined && flags.emit !== "bundle") {
    return reporter.fail(usage("give --output-format or --emit, not both").error);
  }
  // The API's answer format takes its target's wire: that target unless --target says otherwise.
  if (flags.outputFormat !== undefined && flags.target === undefined) {
    flags = { ...flags, target: OUTPUT_TARGET[flags.outputFormat] };
  }
  const emitter = flags.outputFormat !== undefined ? outputFormatEmitter(flags.outputFormat) : emitterFor(flags.emit);
  if (flags.out !== undefined && flags.outDir !== undefined) {
    return reporter.fail(usage("give -o (one output file) or --out-dir (one file per schema), not both").error);
  }
  if (flags.outDir !== undefined) return compileMany(inputs, flags.outDir, flags, emitter, reporter, schemaDirFiles);
  if (inputs.length > 1) {
    return reporter.fail(usage("to compile several schemas, give --out-dir <dir>: one bundle per schema").error);
  }
  return compileOne(inputs[0], flags, emitter, reporter, schemaDirFiles);
}

// ---- one schema ----------------------------------------------------------

async function compileOne(
  arg: string | undefined,
  flags: CompileCommandFlags,
  emitter: Emitter,
  reporter: Reporter,
  otherInputs: readonly string[],
): Promise<ExitCode> {
  const input = await readInput(arg, "schema", reporter);
  if (!input.ok) return reporter.fail(input.error);
  const out = flags.out === "-" ? undefined : flags.out;
  if (out !== undefined) {
    // What the output is comes first: /dev/stdout on a pipe has no real path for the input guard to compare.
    const target = checkOutput(out);
    if (!target.ok) return reporter.fail(target.error);
    const inputs = input.value.path !== undefined ? [input.value.path, ...otherInputs] : otherInputs;
    const guarded = await guardInputs(out, inputs);
    if (!guarded.ok) return reporter.fail(guarded.error);
  }
  const built = buildOutput(input.value, flags, emitter);
  if (!built.ok) return reporter.fail(built.error);
  const { bundle, text } = built.value;
  warnNonStrict(bundle, reporter);

  if (out !== undefined) {
    const written = await writeAtomic(out, text);
    if (!written.ok) return reporter.fail(written.error);
  } else if (!reporter.json) {
    reporter.result(text);
  }

  const summary = summarize(input.value.label, bundle, out, text);
  if (reporter.json) {
    // With no file to point at, the output itself is part of the one JSON document.
    const inline = out !== undefined ? {} : emitter.name === "bundle" ? { bundle } : { output: text };
    return reporter.ok({ ...summary, ...inline });
  }
  reporter.note(summaryLine(summary, reporter));
  return EXIT_OK;
}

// ---- many schemas --------------------------------------------------------

type ItemResult = ({ ok: true } & Compiled) | { ok: false; input: string; failure: Failure };

async function compileMany(
  args: readonly string[],
  outDir: string,
  flags: CompileCommandFlags,
  emitter: Emitter,
  reporter: Reporter,
  otherInputs: readonly string[],
): Promise<ExitCode> {
  const planned = await planOutputs(args, outDir, flags, emitter);
  if (!planned.ok) return reporter.fail(planned.error);
  const jobs = planned.value;
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    return reporter.fail(writeFailed(outDir, systemReason(error)).error);
  }

  const inputs = [...jobs.map((j) => j.input), ...otherInputs];
  const counter = progress(reporter.io.stderr, jobs.length);
  const results: ItemResult[] = [];
  for (const [i, job] of jobs.entries()) {
    counter.show(i + 1, job.input);
    const result = await compileJob(job.input, job.out, inputs, flags, emitter, reporter);
    counter.clear();
    // Failures reach stderr in every mode, as in a single compile; successes are summarized there only for people.
    if (!result.ok) reporter.note(failureLine(result.failure, reporter.err));
    else if (!reporter.json) reporter.note(summaryLine(result, reporter));
    results.push(result);
  }
  return reportMany(results, reporter);
}

interface Job {
  readonly input: string;
  readonly out: string;
}

async function planOutputs(
  args: readonly string[],
  outDir: string,
  flags: CompileCommandFlags,
  emitter: Emitter,
): Promise<Outcome<Job[]>> {
  const files = await expandInputs(args);
  if (!files.ok) return files;
  if (flags.name !== undefined && files.value.length > 1) {
    return usage("--name names one tool; with several schemas each tool is named after its file");
  }
  const byOut = new Map<string, string>();
  const jobs: Job[] = [];
  for (const input of files.value) {
    // Where mkdir made the directory: not path.join, which cancels "link/.." by spelling.
    const out = inDir(outDir, `${stem(input)}${emitter.suffix}`);
    const other = byOut.get(out);
    if (other !== undefined) return usage(`${other} and ${input} would both be written to ${out}`);
    byOut.set(out, input);
    jobs.push({ input, out });
  }
  return succeed(jobs);
}

async function compileJob(
  file: string,
  out: string,
  allInputs: readonly string[],
  flags: CompileCommandFlags,
  emitter: Emitter,
  reporter: Reporter,
): Promise<ItemResult> {
  const failed = (failure: Failure): ItemResult => ({ ok: false, input: file, failure });
  const input = await readInput(file, "schema", reporter);
  if (!input.ok) return failed(input.error);
  const built = buildOutput(input.value, flags, emitter);
  if (!built.ok) return failed(built.error);
  warnNonStrict(built.value.bundle, reporter);
  const guarded = await guardInputs(out, allInputs);
  if (!guarded.ok) return failed(guarded.error);
  const written = await writeAtomic(out, built.value.text);
  if (!written.ok) return failed(written.error);
  return { ok: true, ...summarize(file, built.value.bundle, out, built.value.text) };
}

function reportMany(results: readonly ItemResult[], reporter: Reporter): ExitCode {
  const failures = results.flatMap((r) => (r.ok ? [] : [r.failure]));
  // The worst failure decides: an environment error outranks a rejection.
  const exit: ExitCode = failures.some((f) => f.exit === EXIT_USAGE)
    ? EXIT_USAGE
    : failures.length > 0
      ? EXIT_REJECTED
      : EXIT_OK;
  if (reporter.json) {
    const items = results.map((r) => (r.ok ? r : { ok: false, input: r.input, error: r.failure.error }));
    const first = failures[0];
    reporter.data({ ok: first === undefined, ...(first !== undefined ? { error: first.error } : {}), results: items });
  } else if (failures.length > 0) {
    const compiled = results.length - failures.length;
    reporter.note(`${PROGRAM}: ${plural(compiled, "schema")} compiled, ${failures.length} failed`);
  }
  return exit;
}

// ---- shared --------------------------------------------------------------

/**
 * --schema-dir: every `*.json` file of the directory (not `*.bundle.json`, no
 * recursion), keyed by its file name. The codec resolves a key against the
 * schema's own `$id` (so `"$ref": "common.json#/…"` finds `common.json` beside
 * it) and also knows a document by its own `$id`.
 */
async function readSchemaDir(
  dir: string,
): Promise<Outcome<{ resources: Record<string, unknown>; files: readonly string[] }>> {
  let names: string[];
  try {
    // Directories are not documents, whatever their names.
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => e.name);
  } catch (error) {
    return errorCode(error) === "ENOENT" ? notFound(dir) : unreadable(dir, systemReason(error));
  }
  const resources: Record<string, unknown> = {};
  const files: string[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json") || name.endsWith(".bundle.json")) continue;
    const file = inDir(dir, name);
    const input = await readPath(file);
    if (!input.ok) return input;
    const document = parseDocument(input.value, "schema");
    if (!document.ok) return document;
    resources[name] = document.value;
    files.push(file);
  }
  return succeed({ resources, files });
}

function buildOutput(input: Input, flags: CompileFlags, emitter: Emitter): Outcome<{ bundle: Bundle; text: string }> {
  const schema = parseDocument(input, "schema");
  if (!schema.ok) return schema;
  // Standard input has no file name to name the tool after: the codec's default applies.
  const fallbackName = input.path !== undefined ? toolNameFor(input.path) : undefined;
  const compiled = compile(schema.value, compileOptions(flags, fallbackName));
  if (!compiled.ok) return fromCodec(compiled.error, input.label);
  const text = emitter.render(compiled.value);
  if (!text.ok) return text;
  return succeed({ bundle: compiled.value, text: text.value });
}

function summarize(input: string, bundle: Bundle, out: string | undefined, text: string): Compiled {
  return {
    input,
    name: bundle.name,
    digest: bundle.digest,
    out: out ?? null,
    sizes: {
      source: { bytes: Buffer.byteLength(JSON.stringify(bundle.source)) },
      wire: { bytes: Buffer.byteLength(JSON.stringify(bundle.wire)) },
      output: { bytes: Buffer.byteLength(text) },
    },
    relaxed: bundle.plan.relaxed,
    ...(bundle.nonStrict !== undefined ? { nonStrict: bundle.nonStrict } : {}),
  };
}

/** Loud in every mode: the provider will not hold the model to this tool's wire. */
function warnNonStrict(bundle: Bundle, reporter: Reporter): void {
  if (bundle.nonStrict === undefined) return;
  reporter.warn(
    `${bundle.name} is over the target's limits (${bundle.nonStrict.reason}): it is compiled to be sent with strict mode OFF, so the provider does not hold the model to its wire; decode still refuses any call the original schema does not accept`,
  );
}

function summaryLine(c: Compiled, reporter: Reporter): string {
  const s = reporter.err;
  const where = c.out ?? "standard output";
  const relaxed = c.relaxed.length === 0 ? "" : ` · ${plural(c.relaxed.length, "constraint")} left to final validation`;
  return `${PROGRAM}: ${s.green("compiled")} ${s.bold(c.name)} → ${where}  ${s.dim(`wire ${bytes(c.sizes.wire.bytes)} (source ${bytes(c.sizes.source.bytes)})${relaxed}`)}`;
}
