/**
 * Does a set of tools, sent together in one request, fit the target? Each
 * schema against the per-schema limits, then the per-request caps across all
 * of them (Anthropic counts strict tools, optional and union parameters over
 * the whole request). The wires are measured as compiled.
 */
import { type FirstKeyReading, firstKeyClashes, firstKeyReadings } from "./first-key.js";
import { describeGrammar, estimateGrammar, type GrammarEstimate } from "./grammar.js";
import { type LimitFinding, measureTool, requestFindings, schemaFindings } from "./limits.js";
import type { CompiledTool, TargetName } from "./profile.js";
import { targetProfile } from "./registry.js";

/** What else a request sends besides its tools. */
export interface ToolSetOptions {
  /** The answer format (structured outputs), counted in the per-request caps with the tools. */
  readonly output?: CompiledTool;
}

/** The name an answer format goes by in findings: apart from any tool of the same name. */
export const answerLabel = (name: string): string => `${name} (answer format)`;

export function checkToolSet(
  all: readonly CompiledTool[],
  target: TargetName,
  options: ToolSetOptions = {},
): LimitFinding[] {
  const profile = targetProfile(target);
  // A tool sent with strict mode off is held to no strict limit, and counts in no strict cap.
  const bundles = all.filter((b) => b.nonStrict === undefined);
  const tools = bundles.map((b) => measureTool(b.name, b.wire));
  const output = options.output?.nonStrict === undefined ? options.output : undefined;
  const answer = output === undefined ? undefined : measureTool(answerLabel(output.name), output.wire);
  const rules = profile.distinctFirstKeys
    ? [...bundles, ...(output !== undefined ? [{ ...output, name: answerLabel(output.name) }] : [])].flatMap(
        firstKeyFinding,
      )
    : [];
  return [
    ...[...tools, ...(answer !== undefined ? [answer] : [])].flatMap((t) => schemaFindings(t, profile.limits)),
    ...rules,
    ...requestFindings(tools, profile.toolSet, answer),
  ];
}

/** A bundle compiled before the rule was modelled (or by hand) may break it. */
function firstKeyFinding(b: CompiledTool): LimitFinding[] {
  const clashes = firstKeyClashes(b.wire);
  const first = clashes[0];
  return first === undefined
    ? []
    : [{ limit: "firstKey", measured: clashes.length, max: 0, path: first.path, tool: b.name }];
}

/**
 * What a check reports without rejecting the set: a tool sent with strict mode
 * off (the provider does not hold the model to its wire; decode still holds
 * the call to the original schema), Anthropic's grammar size estimate, and a
 * wire that passes OpenAI's first-key rule only by an unconfirmed reading of it
 * (one live probe of the tool settles it).
 */
export type Advisory =
  | { readonly kind: "nonStrict"; readonly tool: string; readonly limit: string; readonly message: string }
  | { readonly kind: "grammarSize"; readonly estimate: GrammarEstimate; readonly message: string }
  | {
      readonly kind: "firstKeyReading";
      readonly tool: string;
      readonly reading: FirstKeyReading;
      /** The first `anyOf` that depends on it, and how many do. */
      readonly path: string;
      readonly member: string;
      readonly sites: number;
      readonly message: string;
    };

export function toolSetAdvisories(
  all: readonly CompiledTool[],
  target: TargetName,
  options: ToolSetOptions = {},
): Advisory[] {
  const sent =
    options.output === undefined ? all : [...all, { ...options.output, name: answerLabel(options.output.name) }];
  const out: Advisory[] = sent
    .filter((b) => b.nonStrict !== undefined)
    .map((b) => ({
      kind: "nonStrict" as const,
      tool: b.name,
      limit: b.nonStrict!.limit,
      message: `${b.name} is sent with strict mode OFF: the provider does not hold the model to its wire (${b.nonStrict!.reason}); decode still refuses any call the original schema does not accept`,
    }));
  if (targetProfile(target).distinctFirstKeys)
    out.push(...all.filter((b) => b.nonStrict === undefined).flatMap(readingAdvisory));
  if (target !== "anthropic") return out;
  const strict = all.filter((b) => b.nonStrict === undefined).map((b) => ({ name: b.name, wire: b.wire }));
  // The answer format is compiled into the same grammar as the strict tools.
  if (options.output !== undefined && options.output.nonStrict === undefined) {
    strict.push({ name: answerLabel(options.output.name), wire: options.output.wire });
  }
  const estimate = estimateGrammar(strict);
  if (estimate.level !== "fine") out.push({ kind: "grammarSize", estimate, message: describeGrammar(estimate) });
  return out;
}

const READINGS: Record<FirstKeyReading, string> = {
  "shared-name-constants": "that branches may share a first member name when its constants differ",
  "constant-behind-ref":
    "that the rule sees a constant behind a $ref (a bundle compiled before the constant was written in place)",
};

/** One advisory per tool: the reading its wire needs (the stronger one first), where, and at how many unions. */
function readingAdvisory(b: CompiledTool): Advisory[] {
  const sites = firstKeyReadings(b.wire);
  const first = sites.find((s) => s.reading === "constant-behind-ref") ?? sites[0];
  if (first === undefined) return [];
  const more = sites.length > 1 ? ` and ${sites.length - 1} more` : "";
  const message = `${b.name} passes OpenAI's first-key rule only by an undocumented reading of it, ${READINGS[first.reading]}: the object branches of the anyOf at ${first.path || "/"}${more} share their first member ${first.member}, told apart by its constants; a live probe of this tool confirms or refutes it`;
  return [
    {
      kind: "firstKeyReading",
      tool: b.name,
      reading: first.reading,
      path: first.path,
      member: first.member,
      sites: sites.length,
      message,
    },
  ];
}
