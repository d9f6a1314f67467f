/**
 * Judging one attempt against the oracle. A patch is applied under the
 * suites' policy, JSON Merge Patch (RFC 7386): absent keeps, null clears,
 * objects merge member by member, anything else replaces.
 */
import { isDeepStrictEqual } from "node:util";
import { parseJson } from "@strictwire/codec";
import { pointerToken, unescapeToken } from "@strictwire/codec/schema";
import type { Action, Expected, Json, JsonObject, Scenario, Tool } from "./suite.js";

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

/**
 * What a write is judged against: the tool's contract (a member it requires
 * is never redundant: `resource_id` names the resource, it does not restate
 * it) and the patch the request needed (a member the oracle's answer writes
 * was asked for, whatever the stored value).
 */
export interface WriteContext {
  readonly schema?: Json;
  readonly needed?: Json;
  /** The document the schema's local `$ref`s point into (default: the schema itself). */
  readonly root?: Json;
}

/**
 * JSON Pointers of the members a patch writes that the request did not need:
 * the value already stored (or a clear of a member not stored), on a member
 * the contract does not require and the oracle's answer does not write.
 */
export function redundantWrites(state: Json, patch: Json, context: WriteContext = {}, at = ""): string[] {
  if (!isObject(patch)) return [];
  const stored = isObject(state) ? state : {};
  const needed = isObject(context.needed) ? context.needed : {};
  const root = context.root ?? context.schema;
  const required = requiredMembers(root, context.schema);
  return Object.entries(patch).flatMap(([k, v]) => {
    const path = `${at}/${pointerToken(k)}`;
    const before = Object.hasOwn(stored, k) ? stored[k] : undefined;
    if (isObject(v)) {
      const inner = {
        schema: memberSchema(root, context.schema, k),
        needed: Object.hasOwn(needed, k) ? (needed[k] as Json) : null,
        ...(root !== undefined ? { root } : {}),
      };
      return isObject(before) ? redundantWrites(before, v, inner, path) : [];
    }
    if (required.has(k) || Object.hasOwn(needed, k)) return [];
    if (v === null) return before === undefined ? [path] : [];
    return isDeepStrictEqual(before, v) ? [path] : [];
  });
}

/** The schemas an object's member is described by: properties, the map's value schema, and each branch's. */
function memberSchema(root: Json | undefined, schema: Json | undefined, key: string): Json {
  const branches = alternatives(root, schema);
  const found: Json[] = [];
  for (const b of branches) {
    if (isObject(b.properties) && Object.hasOwn(b.properties, key)) found.push(b.properties[key] as Json);
    else if (isObject(b.additionalProperties)) found.push(b.additionalProperties);
  }
  return { anyOf: found };
}

/** Members any branch of the schema requires (a union's tag is required in every branch that has it). */
function requiredMembers(root: Json | undefined, schema: Json | undefined): Set<string> {
  const out = new Set<string>();
  for (const b of alternatives(root, schema))
    if (Array.isArray(b.required)) for (const r of b.required) if (typeof r === "string") out.add(r);
  return out;
}

/** The schema, what its local $ref names, and its anyOf/oneOf/allOf branches, flattened (bounded: suites are untrusted). */
function alternatives(root: Json | undefined, schema: Json | undefined, depth = 0): JsonObject[] {
  if (!isObject(schema) || depth > 16) return [];
  const out: JsonObject[] = [schema];
  if (typeof schema.$ref === "string") out.push(...alternatives(root, pointer(root, schema.$ref), depth + 1));
  for (const k of ["anyOf", "oneOf", "allOf"] as const) {
    const list = schema[k];
    if (Array.isArray(list)) for (const b of list) out.push(...alternatives(root, b, depth + 1));
  }
  return out;
}

/** A local reference ("#/$defs/x"); anything else names nothing here. */
function pointer(root: Json | undefined, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: Json | undefined = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    let step: string;
    try {
      step = unescapeToken(decodeURIComponent(raw));
    } catch {
      return undefined; // a malformed escape names nothing
    }
    node = isObject(node) && Object.hasOwn(node, step) ? node[step] : undefined;
  }
  return node;
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

export function judge(scenario: Scenario, tool: Tool, expected: Expected, seen: Observed): Judgement {
  const action: Judgement["action"] =
    seen.calls === 0
      ? "none"
      : seen.calls > 1
        ? "several"
        : seen.toolName === tool.name
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
      redundantWrites: redundantWrites(scenario.state, d.value, {
        schema: tool.parameters,
        ...(expected.action === "update" ? { needed: want } : {}),
      }),
      correct: argsExact,
    };
  }
  const member = action === "clarify" ? "question" : "reason";
  const reasoned = (action === "clarify" || action === "reject") && hasReason(seen.argumentsText, member);
  // No write happened: the state is right exactly when no write was wanted.
  const finalStateRight = expected.action !== "update" && action !== "several";
  return { action, actionRight, ...unchanged, finalStateRight, correct: actionRight && reasoned };
}
