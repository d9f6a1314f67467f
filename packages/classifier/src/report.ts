/** Turning classifications into report lines, for people and for machines. Pure. */
import { printable } from "@strictwire/codec/printable";
import { type CallState, type ClassifyOptions, classify, FINDINGS, repairLines, STATES } from "./classify.js";
import type { ToolCodec } from "./codecs.js";
import { type DeclaredTool, declaredTools, readResponse } from "./shapes.js";

export interface CallReport {
  readonly state: CallState;
  readonly responseId: string;
  readonly name: string;
  readonly callId: string;
  readonly detail: string;
  /** Repairs for a finding, notes for the other states, nothing for dispatchable. */
  readonly repairs: readonly string[];
  /**
   * Where the tools were declared: the response's own tool list, or, when the
   * response carries none (a stored Chat Completions response), the bundles given.
   */
  readonly declaredBy: "response" | "bundles";
}

export interface Summary {
  readonly checked: number;
  readonly findings: number;
  readonly byState: Readonly<Record<CallState, number>>;
  readonly unreadable: readonly { readonly responseId: string; readonly reason: string }[];
  readonly parallel: readonly { readonly responseId: string; readonly calls: number }[];
}

const COLUMN = 27;

export const NOT_FOUND =
  "not found. Stored responses expire, and a response created without storage was never readable.";

const BY_BUNDLES = "; the tools are the bundles given, as this response declares none";

/**
 * The bundles as a tool list, for a response that declares none. A bundle's
 * wire schema is made to be sent with strict: true, so it is declared strict.
 */
export function bundleTools(codecs: readonly ToolCodec[]): Map<string, DeclaredTool> {
  const tools = new Map<string, DeclaredTool>();
  for (const codec of codecs)
    if (!tools.has(codec.name)) tools.set(codec.name, { parameters: codec.wire, strict: true });
  return tools;
}

/**
 * Every call in one stored response, classified against the tools declared
 * beside it, or against the bundles given when it declares none.
 */
export function reportCalls(
  responseId: string,
  response: unknown,
  options: ClassifyOptions = {},
  /** The bundles as a tool list, computed once per run; from options.codecs when absent. */
  fromBundles?: ReadonlyMap<string, DeclaredTool>,
): CallReport[] {
  const { calls, truncation } = readResponse(response);
  if (calls.length === 0) return [];
  const declared = declaredTools(response);
  const useBundles = declared.size === 0 && (options.codecs?.length ?? 0) > 0;
  const tools = useBundles ? (fromBundles ?? bundleTools(options.codecs ?? [])) : declared;
  const truncated = truncation ?? false;
  return calls.map((call) => {
    const { state, detail, cause, strict } = classify(call, tools, truncated, options);
    return {
      state,
      responseId,
      name: call.name,
      callId: call.callId,
      detail: useBundles ? `${detail}${BY_BUNDLES}` : detail,
      repairs: repairLines(state, call.name, cause, strict === true),
      declaredBy: useBundles ? "bundles" : "response",
    };
  });
}

/** Ids, names and details come from the log: every line for a person is made printable. */
export function callLine(report: CallReport): string {
  return printable(
    `${report.state.padEnd(COLUMN)} ${report.responseId} ${report.name}/${report.callId || "-"}  ${report.detail}`,
  );
}

/** The seed's lines: findings with repairs, notes for the rest, dispatchable only on request. */
export function humanLines(report: CallReport, showAll: boolean): string[] {
  if (FINDINGS.has(report.state)) return [callLine(report), ...report.repairs.map((r) => printable(`  repair: ${r}`))];
  if (report.state === "dispatchable") return showAll ? [callLine(report)] : [];
  return [callLine(report), ...report.repairs.map((r) => printable(`  note: ${r}`))];
}

export function parallelLine(responseId: string, calls: number): string {
  return printable(`${"parallel-calls".padEnd(COLUMN)} ${responseId}  ${calls} call(s) in one turn`);
}

export function unreadableLine(responseId: string, reason: string): string {
  return printable(`${"unreadable".padEnd(COLUMN)} ${responseId}  ${reason}`);
}

export function summaryLine(summary: Summary): string {
  return `${summary.checked} tool call(s) checked, ${summary.findings} your dispatcher cannot use`;
}

export function emptyByState(): Record<CallState, number> {
  return Object.fromEntries(STATES.map((state) => [state, 0])) as Record<CallState, number>;
}
