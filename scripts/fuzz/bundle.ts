/**
 * Bundles as an attacker would make them: change anything, then recompute the
 * digest so that only the structural check stands between the change and the
 * decoder. The digest is recomputed here from the documented rule ("sha256-"
 * + hex of the canonical JSON of every other member), not with the codec's code.
 */
import { createHash } from "node:crypto";
import type { Dice } from "./mutate.js";

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
    .join(",")}}`;
}

/** The bundle text with its digest recomputed over whatever it now holds. */
export function resign(bundle: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(bundle)) if (k !== "digest") defineOwn(rest, k, bundle[k]);
  const digest = `sha256-${createHash("sha256").update(canonicalJson(rest)).digest("hex")}`;
  defineOwn(rest, "digest", digest);
  return JSON.stringify(rest);
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const KINDS = ["scalar", "array", "object", "map", "mixed", "union", "ref", "any", "json-text", "nope"];

type Json = Record<string, unknown>;

/** Every plan node (objects with a `kind`) under a value, the root first. */
export function planNodes(root: unknown): Json[] {
  const out: Json[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    const o = v as Json;
    if (typeof o.kind === "string") out.push(o);
    for (const k of Object.keys(o)) stack.push(o[k]);
  }
  return out;
}

export type PlanMutation =
  | "retarget-ref"
  | "alias-cycle"
  | "union-cycle"
  | "swap-kind"
  | "swap-rule"
  | "branch-types"
  | "drop-key"
  | "limits"
  | "options";

const PLAN_MUTATIONS: readonly PlanMutation[] = [
  "retarget-ref",
  "alias-cycle",
  "union-cycle",
  "swap-kind",
  "swap-rule",
  "branch-types",
  "drop-key",
  "limits",
  "options",
];

/** One plan-aware change to a parsed bundle, in place. Returns what it did. */
export function mutatePlan(bundle: Json, dice: Dice): PlanMutation {
  const plan = bundle.plan as Json;
  const defs = (plan.defs ?? {}) as Json;
  const nodes = planNodes(plan);
  const node = nodes.length > 0 ? dice.pick(nodes) : undefined;
  const m = dice.pick(PLAN_MUTATIONS);
  switch (m) {
    case "retarget-ref": {
      const refs = nodes.filter((n) => n.kind === "ref");
      const names = Object.keys(defs);
      if (refs.length > 0 && names.length > 0) dice.pick(refs).def = dice.pick(names);
      break;
    }
    case "alias-cycle":
      // Two definitions that only name each other: no structure between them.
      defs.fuzz_a = { kind: "ref", def: "fuzz_b" };
      defs.fuzz_b = { kind: "ref", def: "fuzz_a" };
      plan.defs = defs;
      pointAt(plan, nodes, dice, { kind: "ref", def: "fuzz_a" });
      break;
    case "union-cycle":
      // A union decided by JSON type whose branch leads back to itself.
      defs.fuzz_u = {
        kind: "union",
        schema: {},
        branches: [{ kind: "ref", def: "fuzz_u" }],
        branchSources: [[""]],
        rule: { by: "type", types: { string: 0, number: 0, boolean: 0, null: 0, array: 0, object: 0 } },
      };
      plan.defs = defs;
      pointAt(plan, nodes, dice, { kind: "ref", def: "fuzz_u" });
      break;
    case "swap-kind":
      if (node !== undefined) node.kind = dice.pick(KINDS);
      break;
    case "swap-rule": {
      const unions = nodes.filter((n) => n.kind === "union");
      if (unions.length > 0) {
        const u = dice.pick(unions);
        u.rule = dice.pick([
          { by: "same" },
          { by: "tag" },
          { by: "type", types: { object: 0, string: 0 } },
          { by: "discriminator", field: "state", values: { '"absent"': 0 } },
          { by: "type", types: { object: 99 } },
          { by: "unknown" },
        ]);
      }
      break;
    }
    case "branch-types": {
      const unions = nodes.filter((n) => n.kind === "union");
      if (unions.length > 0) dice.pick(unions).branchTypes = dice.pick([5, [], [5], [["object"]], "x", null]);
      break;
    }
    case "drop-key":
      if (node !== undefined) {
        const keys = Object.keys(node);
        if (keys.length > 0) delete node[dice.pick(keys)];
      }
      break;
    case "limits":
      bundle.limits = dice.pick([
        { maxBytes: 1, maxNodes: 1, maxDepth: 1 },
        { maxBytes: 10, maxNodes: 3, maxDepth: 2 },
        { maxBytes: 1_000_000, maxNodes: 20_000, maxDepth: 1 },
        { maxBytes: 0, maxNodes: 20_000, maxDepth: 64 },
        { maxBytes: 1.5, maxNodes: 20_000, maxDepth: 64 },
        { maxBytes: "1000", maxNodes: 20_000, maxDepth: 64 },
      ]);
      break;
    case "options":
      bundle.options = dice.pick([
        { target: "openai", presence: "compact", openObjects: "close", factored: false },
        { target: "openai", presence: "tagged", openObjects: "preserve", factored: true },
        { target: "nope", presence: "tagged", openObjects: "close", factored: false },
        { target: "openai", presence: "native", openObjects: "close", factored: false },
        { target: "openai", presence: "tagged", openObjects: "close", factored: false, dialect: "bfcl" },
      ]);
      break;
  }
  return m;
}

/** Replace a random child node (a field's node, array items, a map value or a branch) by `replacement`. */
function pointAt(plan: Json, nodes: Json[], dice: Dice, replacement: Json): void {
  const slots: [Json, string][] = [];
  for (const n of nodes) {
    if (Array.isArray(n.fields))
      for (const f of n.fields as Json[]) if (f && typeof f === "object") slots.push([f, "node"]);
    if (n.items !== undefined) slots.push([n, "items"]);
    if (n.value !== undefined && n.kind !== "scalar") slots.push([n, "value"]);
  }
  if (slots.length === 0) {
    plan.root = replacement;
    return;
  }
  const [holder, key] = dice.pick(slots);
  holder[key] = replacement;
}
