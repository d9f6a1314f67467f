/**
 * inspect: what a schema (compiled with the given options) or a bundle costs
 * on the wire, what the wire leaves to the final validation, and how each
 * member travels.
 */
import {
  BUNDLE_FORMAT,
  type Bundle,
  type CompileOptions,
  compile,
  compileOptionsOf,
  inspect,
  loadBundle,
} from "@strictwire/codec";
import { printableDeep } from "@strictwire/codec/printable";
import { EXIT_OK, type ExitCode, fromCodec, type Outcome, succeed } from "../failure.js";
import { type Input, parseDocument, readInput } from "../input.js";
import { toolNameFor } from "../names.js";
import { type CompileFlags, compileOptions } from "../options.js";
import { renderInspection } from "../render/inspect.js";
import type { Reporter } from "../report.js";
import { tokenCounter } from "../tokens.js";
import { renderCalls, typicalCalls } from "./inspect-calls.js";

export async function runInspect(arg: string | undefined, flags: CompileFlags, reporter: Reporter): Promise<ExitCode> {
  const input = await readInput(arg, "schema or bundle", reporter);
  if (!input.ok) return reporter.fail(input.error);
  const bundle = await bundleFor(input.value, flags);
  if (!bundle.ok) return reporter.fail(bundle.error);
  const countTokens = await tokenCounter();
  const inspection = inspect(bundle.value.bundle, { countTokens });
  // What the model writes per call, next to what the schema costs once.
  const calls = typicalCalls(bundle.value.bundle, countTokens);
  if (reporter.json) return reporter.ok({ input: input.value.label, from: bundle.value.from, ...inspection, calls });
  // Names and values come from the schema: shown printable, as the JSON form escapes them.
  const shown = printableDeep({ inspection, calls });
  reporter.result(renderInspection(shown.inspection, reporter.out, [renderCalls(shown.calls, reporter.out)]));
  return EXIT_OK;
}

interface Subject {
  readonly bundle: Bundle;
  /** What the input was: a schema compiled here, or a bundle (recompiled when flags change its options). */
  readonly from: "schema" | "bundle";
}

async function bundleFor(input: Input, flags: CompileFlags): Promise<Outcome<Subject>> {
  const doc = parseDocument(input, "schema or bundle");
  if (!doc.ok) return doc;
  if (!isBundle(doc.value)) {
    const fallbackName = input.path !== undefined ? toolNameFor(input.path) : undefined;
    const compiled = compileWith(doc.value, flags, {}, fallbackName, input.label);
    return compiled.ok ? succeed({ bundle: compiled.value, from: "schema" }) : compiled;
  }
  // The bundle's own reader checks its format, shape and digest: the subject
  // here is the bundle, so a damaged one is a rejection (exit 1).
  const loaded = loadBundle(input.bytes);
  if (!loaded.ok) return fromCodec(loaded.error, input.label);
  const bundle = loaded.value.bundle;
  if (!changesOptions(flags)) return succeed({ bundle, from: "bundle" });
  const recompiled = compileWith(bundle.source, flags, compileOptionsOf(bundle), undefined, input.label);
  return recompiled.ok ? succeed({ bundle: recompiled.value, from: "bundle" }) : recompiled;
}

/** Anything that says it is a strictwire bundle, whatever its version, is read as one. */
function isBundle(doc: unknown): boolean {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return false;
  const format = (doc as { format?: unknown }).format;
  return format === BUNDLE_FORMAT || (typeof format === "string" && format.startsWith("strictwire/bundle"));
}

const changesOptions = (flags: CompileFlags): boolean =>
  [flags.target, flags.presence, flags.tags, flags.openObjects, flags.dialect, flags.factored].some(
    (v) => v !== undefined,
  );

function compileWith(
  schema: unknown,
  flags: CompileFlags,
  base: CompileOptions,
  fallbackName: string | undefined,
  label: string,
): Outcome<Bundle> {
  const compiled = compile(schema, { ...base, ...compileOptions(flags, fallbackName) });
  return compiled.ok ? succeed(compiled.value) : fromCodec(compiled.error, label);
}
