/**
 * A target's limits held against measured wire schemas: per schema (its
 * `limits`) and per request (its `toolSet`, counted across every tool sent
 * together). Findings are data; compile turns the first into `target-limit`.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/author.js";
import type { JsonObject } from "../json.js";
import { type Contribution, measureWire, type WireMeasures } from "./measure.js";
import type { TargetLimits, TargetProfile, ToolSetLimits } from "./profile.js";

/** A limit with a figure, or a rule a wire breaks ("firstKey": OpenAI's first-key rule, targets/first-key.ts). */
export type LimitName = keyof TargetLimits | keyof ToolSetLimits | "firstKey";

export interface LimitFinding {
  readonly limit: LimitName;
  readonly measured: number;
  readonly max: number;
  /** JSON Pointer into the tool's wire schema where the limit is crossed ("" for the whole schema or set). */
  readonly path: string;
  /** The tool concerned; for a total across tools, the one whose schema crosses the limit. */
  readonly tool: string;
  /** Present on a per-request cap: the total is the whole request's, not this tool's. */
  readonly scope?: "request";
  /** For a total across tools: what each tool adds to it, in the request's order. */
  readonly across?: readonly { readonly tool: string; readonly measured: number }[];
}

/** What to do about a per-request cap: the set crosses it, so the remedy is in the set. */
const REMEDIES: Partial<Record<LimitName, string>> = {
  maxStrictTools:
    "send fewer tools in one request: split the set across requests, or leave out tools the turn does not need",
  maxOptionalParameters:
    "split these tools across requests (each request's tools count on their own), leave out tools the turn does not need, or make some optional members required in the contract",
  maxUnionParameters:
    "split these tools across requests, leave out tools the turn does not need, or remove unions (nullable types and type lists count too)",
};

/** What each limit counts, for messages. */
const COUNTS: Readonly<Record<LimitName, string>> = {
  maxProperties: "object properties",
  maxNesting: "levels of object nesting",
  maxStringBudget: "characters of property names, definition names, enum and const values",
  maxEnumValues: "enum values",
  largeEnumThreshold: "values in one string enum",
  maxLargeEnumChars: "characters in one large string enum",
  maxSchemaChars: "characters of wire schema",
  maxStrictTools: "strict tools",
  maxOptionalParameters: "optional parameters",
  maxUnionParameters: "parameters with union types (anyOf or a type list)",
  firstKey: "anyOf sites whose object branches share their first member",
};

export function describeFinding(f: LimitFinding, target: string): string {
  if (f.limit === "firstKey")
    return `${f.tool}: ${f.measured} ${COUNTS.firstKey}, the first at ${f.path || "/"}; the ${target} target refuses this ("Objects provided via 'anyOf' must not share identical first keys"). Compile it again with this version: compile reorders members or tags the union`;
  const where = f.path === "" ? "" : ` (crossed at ${f.path})`;
  if (f.scope !== "request") {
    return `${f.tool}: ${f.measured} ${COUNTS[f.limit]}, where the ${target} target allows at most ${f.max}${where}`;
  }
  const parts = f.across !== undefined ? ` (${f.across.map((t) => `${t.tool} ${t.measured}`).join(", ")})` : "";
  const crossed = f.path === "" ? "" : `; crossed in ${f.tool} at ${f.path}`;
  const remedy = REMEDIES[f.limit] !== undefined ? `. To fit: ${REMEDIES[f.limit]}` : "";
  return `the request's tools together: ${f.measured} ${COUNTS[f.limit]}${parts}, where the ${target} target allows at most ${f.max} per request${crossed}${remedy}`;
}

export interface MeasuredTool {
  readonly tool: string;
  readonly measures: WireMeasures;
}

export function measureTool(tool: string, wire: JsonObject): MeasuredTool {
  return { tool, measures: measureWire(wire) };
}

/** The target's per-schema limits. */
export function schemaFindings({ tool, measures: m }: MeasuredTool, limits: TargetLimits): LimitFinding[] {
  const out: LimitFinding[] = [];
  const add = (limit: LimitName, contributions: readonly Contribution[], max: number | undefined): void => {
    const crossed = total(contributions, max);
    if (crossed !== undefined)
      out.push({ limit, measured: crossed.measured, max: crossed.max, path: crossed.path, tool });
  };
  add("maxProperties", m.properties, limits.maxProperties);
  if (limits.maxNesting !== undefined && m.nesting.depth > limits.maxNesting) {
    out.push({ limit: "maxNesting", measured: m.nesting.depth, max: limits.maxNesting, path: m.nesting.at, tool });
  }
  add("maxStringBudget", m.stringChars, limits.maxStringBudget);
  add("maxEnumValues", m.enumValues, limits.maxEnumValues);
  const threshold = limits.largeEnumThreshold;
  const maxChars = limits.maxLargeEnumChars;
  if (threshold !== undefined && maxChars !== undefined) {
    for (const e of m.stringEnums) {
      if (e.values > threshold && e.chars > maxChars) {
        out.push({ limit: "maxLargeEnumChars", measured: e.chars, max: maxChars, path: e.at, tool });
      }
    }
  }
  if (limits.maxSchemaChars !== undefined && m.schemaChars > limits.maxSchemaChars) {
    out.push({ limit: "maxSchemaChars", measured: m.schemaChars, max: limits.maxSchemaChars, path: "", tool });
  }
  return out;
}

/**
 * The target's per-request caps, counted across every tool in the request, in
 * order, and the answer format (structured outputs) when one is sent: Anthropic
 * counts its optional and union parameters with the tools' (it is no tool, so
 * it does not count as one).
 */
export function requestFindings(
  strictTools: readonly MeasuredTool[],
  caps: ToolSetLimits,
  answer?: MeasuredTool,
): LimitFinding[] {
  const out: LimitFinding[] = [];
  const tools = strictTools;
  if (caps.maxStrictTools !== undefined && tools.length > caps.maxStrictTools) {
    const first = tools[caps.maxStrictTools]!;
    out.push({
      limit: "maxStrictTools",
      measured: tools.length,
      max: caps.maxStrictTools,
      path: "",
      tool: first.tool,
      scope: "request",
    });
  }
  const schemas = answer === undefined ? tools : [...tools, answer];
  const across = (limit: LimitName, pick: (m: WireMeasures) => readonly Contribution[], max: number | undefined) => {
    if (max === undefined) return;
    const all = schemas.flatMap((t) => pick(t.measures).map((c) => ({ ...c, tool: t.tool })));
    const crossed = total(all, max);
    if (crossed === undefined) return;
    const perTool = schemas
      .map((t) => ({ tool: t.tool, measured: pick(t.measures).reduce((n, c) => n + c.amount, 0) }))
      .filter((t) => t.measured > 0);
    out.push({
      limit,
      measured: crossed.measured,
      max,
      path: crossed.path,
      tool: all[crossed.index]!.tool,
      // One tool alone (compile's own check): the total is that tool's.
      ...(schemas.length > 1 ? { scope: "request" as const, across: perTool } : {}),
    });
  };
  across("maxOptionalParameters", (m) => m.optional, caps.maxOptionalParameters);
  across("maxUnionParameters", (m) => m.unions, caps.maxUnionParameters);
  return out;
}

/** Every finding for one schema sent alone: compile's check. */
export function checkSchemaLimits(tool: string, wire: JsonObject, target: TargetProfile): Result<void> {
  const measured = measureTool(tool, wire);
  const first = [...schemaFindings(measured, target.limits), ...requestFindings([measured], target.toolSet)][0];
  if (first === undefined) return ok(undefined);
  return fail("target-limit", first.path, `${first.limit}: ${describeFinding(first, target.name)}`);
}

/** The sum, and the contribution that first takes it over `max`; undefined within the limit. */
function total(
  contributions: readonly Contribution[],
  max: number | undefined,
): { measured: number; max: number; path: string; index: number } | undefined {
  if (max === undefined) return undefined;
  let sum = 0;
  let index = -1;
  contributions.forEach((c, i) => {
    sum += c.amount;
    if (index < 0 && sum > max) index = i;
  });
  return index < 0 ? undefined : { measured: sum, max, path: contributions[index]!.at, index };
}
