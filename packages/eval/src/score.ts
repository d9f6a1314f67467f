/**
 * Judging one attempt against the oracle. A patch is applied under the
 * suites' policy, JSON Merge Patch (RFC 7386): absent keeps, null clears,
 * objects merge member by member, anything else replaces.
 */
import { isDeepStrictEqual } from "node:util";
import { parseJson } from "@strictwire/codec";
import type { Action, Expected, Json, JsonObject, Scenario } from "./suite.js";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export function applyPatch(state: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(state) ? { ...state } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyPatch(out[k] ?? null, v);
  }
  return out;
}

/** JSON Pointers of the members a patch writes with the value already stored (null on a member not stored counts). */
export function redundantWrites(state: Json, patch: Json, at = ""): string[] {
  if (!isObject(patch)) return [];
  const stored = isObject(state) ? state : {};
  return Object.entries(patch).flatMap(([k, v]) => {
    const path = `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const before = Object.hasOwn(stored, k) ? stored[k] : undefined;
    if (isObject(v)) return isObject(before) ? redundantWrites(before, v, path) : [];
    if (v === null) return before === undefined ? [path] : [];
    return isDeepStrictEqual(before, v) ? [path] : [];
  });
}

/** What the model did in one attempt, before judgement. */
export interface Observed {
  readonly calls: number;
  readonly toolName?: string;
  readonly argumentsText?: string;
  /** Set when the call is the workflow's tool: the decoded value or the decode error. */
  readonly decoded?: { ok: true; value: Json } | { ok: false; code: string; message: string };
}

export interface Judgement {
  readonly action: Action | "none" | "several" | "unknown-tool";
  readonly actionRight: boolean;
  readonly argsExact: boolean;
  readonly finalStateRight: boolean;
  readonly redundantWrites: readonly string[];
  /** The intent was carried out exactly: the right action, and for an update the exact arguments. */
  readonly correct: boolean;
}

/** A clarification or refusal counts when its one text member is non-empty. */
function hasReason(text: string | undefined, member: string): boolean {
  if (text === undefined) return false;
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) return false;
  const v = parsed.value[member];
  return typeof v === "string" && v.trim() !== "";
}

export function judge(scenario: Scenario, toolName: string, expected: Expected, seen: Observed): Judgement {
  const action: Judgement["action"] =
    seen.calls === 0
      ? "none"
      : seen.calls > 1
        ? "several"
        : seen.toolName === toolName
          ? "update"
          : seen.toolName === "ask_clarification"
            ? "clarify"
            : seen.toolName === "refuse_request"
              ? "reject"
              : "unknown-tool";
  const actionRight = action === expected.action;
  const unchanged = { argsExact: false, redundantWrites: [] as string[] };
  if (action === "update") {
    const d = seen.decoded;
    if (d === undefined || !d.ok) return { action, actionRight, ...unchanged, finalStateRight: false, correct: false };
    const want = expected.arguments ?? {};
    const argsExact = actionRight && isDeepStrictEqual(d.value, want);
    const wantState = expected.action === "update" ? applyPatch(scenario.state, want) : scenario.state;
    const finalStateRight = isDeepStrictEqual(applyPatch(scenario.state, d.value), wantState);
    return {
      action,
      actionRight,
      argsExact,
      finalStateRight,
      redundantWrites: redundantWrites(scenario.state, d.value),
      correct: argsExact,
    };
  }
  const member = action === "clarify" ? "question" : "reason";
  const reasoned = (action === "clarify" || action === "reject") && hasReason(seen.argumentsText, member);
  // No write happened: the state is right exactly when no write was wanted.
  const finalStateRight = expected.action !== "update" && action !== "several";
  return { action, actionRight, ...unchanged, finalStateRight, correct: actionRight && reasoned };
}
