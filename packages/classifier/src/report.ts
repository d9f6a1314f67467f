/** Turning classifications into report lines, for people and for machines. Pure. */
import { type CallState, type ClassifyOptions, classify, FINDINGS, repairLines, STATES } from "./classify.js";
import { declaredTools, functionCalls, truncation } from "./shapes.js";

export interface CallReport {
  readonly state: CallState;
  readonly responseId: string;
  readonly name: string;
  readonly callId: string;
  readonly detail: string;
  /** Repairs for a finding, notes for the other states, nothing for dispatchable. */
  readonly repairs: readonly string[];
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

/** Every call in one stored response, classified against the tools declared beside it. */
export function reportCalls(responseId: string, response: unknown, options: ClassifyOptions = {}): CallReport[] {
  const tools = declaredTools(response);
  const truncated = truncation(response) ?? false;
  return functionCalls(response).map((call) => {
    const { state, detail, cause } = classify(call, tools, truncated, options);
    return {
      state,
      responseId,
      name: call.name,
      callId: call.callId,
      detail,
      repairs: repairLines(state, call.name, cause),
    };
  });
}

export function callLine(report: CallReport): string {
  return `${report.state.padEnd(COLUMN)} ${report.responseId} ${report.name}/${report.callId || "-"}  ${report.detail}`;
}

/** The seed's lines: findings with repairs, notes for the rest, dispatchable only on request. */
export function humanLines(report: CallReport, showAll: boolean): string[] {
  if (FINDINGS.has(report.state)) return [callLine(report), ...report.repairs.map((r) => `  repair: ${r}`)];
  if (report.state === "dispatchable") return showAll ? [callLine(report)] : [];
  return [callLine(report), ...report.repairs.map((r) => `  note: ${r}`)];
}

export function parallelLine(responseId: string, calls: number): string {
  return `${"parallel-calls".padEnd(COLUMN)} ${responseId}  ${calls} call(s) in one turn`;
}

export function unreadableLine(responseId: string, reason: string): string {
  return `${"unreadable".padEnd(COLUMN)} ${responseId}  ${reason}`;
}

export function summaryLine(summary: Summary): string {
  return `${summary.checked} tool call(s) checked, ${summary.findings} your dispatcher cannot use`;
}

export function emptyByState(): Record<CallState, number> {
  return Object.fromEntries(STATES.map((state) => [state, 0])) as Record<CallState, number>;
}
