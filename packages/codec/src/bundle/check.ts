/**
 * Structural check of a bundle read from disk: every member the decoder will
 * touch has the type it expects, so a damaged plan is refused at load time
 * instead of failing in the middle of a tool call.
 */
import { isPlainObject, JSON_TYPES } from "../json.js";
import { MAX_DEPTH_LIMIT } from "../parse/parser.js";
import { TARGET_NAMES } from "../targets/index.js";

export type Check = { ok: true } | { ok: false; path: string; reason: string };

const OK: Check = { ok: true };
const bad = (path: string, reason: string): Check => ({ ok: false, path, reason });

export function checkBundleShape(b: unknown): Check {
  if (!isPlainObject(b)) return bad("", "a bundle is a JSON object");
  if (typeof b.name !== "string" || b.name.length === 0) return bad("/name", "expected a non-empty string");
  if (b.description !== undefined && typeof b.description !== "string") return bad("/description", "expected a string");
  if (typeof b.digest !== "string") return bad("/digest", "expected a string");
  if (!isPlainObject(b.wire)) return bad("/wire", "expected an object");
  if (b.source === undefined) return bad("/source", "missing");
  const o = b.options;
  if (!isPlainObject(o)) return bad("/options", "expected an object");
  if (!TARGET_NAMES.includes(o.target as never)) return bad("/options/target", "unknown target");
  if (o.presence !== "tagged" && o.presence !== "compact")
    return bad("/options/presence", "expected tagged or compact");
  if (o.openObjects !== "close" && o.openObjects !== "preserve")
    return bad("/options/openObjects", "expected close or preserve");
  if (typeof o.factored !== "boolean") return bad("/options/factored", "expected a boolean");
  const l = b.limits;
  if (!isPlainObject(l)) return bad("/limits", "expected an object");
  for (const k of ["maxBytes", "maxNodes", "maxDepth"]) {
    const v = l[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
      return bad(`/limits/${k}`, "expected a positive integer");
  }
  if ((l.maxDepth as number) > MAX_DEPTH_LIMIT) return bad("/limits/maxDepth", `at most ${MAX_DEPTH_LIMIT}`);
  return checkPlan(b.plan);
}

const PRESENCE = new Set(["tagged", "compact", "native"]);

export function checkPlan(plan: unknown): Check {
  if (!isPlainObject(plan)) return bad("/plan", "expected an object");
  if (!isPlainObject(plan.defs)) return bad("/plan/defs", "expected an object");
  if (!Array.isArray(plan.relaxed)) return bad("/plan/relaxed", "expected an array");
  const defs = plan.defs;
  const stack: [unknown, string][] = [[plan.root, "/plan/root"]];
  for (const name of Object.keys(defs)) stack.push([defs[name], `/plan/defs/${name}`]);
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (!isPlainObject(node)) return bad(at, "expected a plan node");
    const r = checkNode(node, at, defs, stack);
    if (!r.ok) return r;
  }
  return checkLoops(defs);
}

/**
 * References and unions hand the same value on (decode for unions decided by
 * type or discriminator, encode for every union), so a loop made of nothing
 * else never ends. Every loop must pass through structure: an array, an
 * object, a map or a tagged member, each of which reads one level deeper.
 */
function checkLoops(defs: Record<string, unknown>): Check {
  const next = (name: string): string[] => {
    const out: string[] = [];
    const stack: unknown[] = [defs[name]];
    while (stack.length > 0) {
      const n = stack.pop();
      if (!isPlainObject(n)) continue;
      if (n.kind === "ref" && typeof n.def === "string") out.push(n.def);
      else if (n.kind === "union" && Array.isArray(n.branches)) stack.push(...n.branches);
    }
    return out;
  };
  const state = new Map<string, "visiting" | "done">();
  for (const start of Object.keys(defs)) {
    if (state.has(start)) continue;
    const stack: { name: string; next: string[]; i: number }[] = [{ name: start, next: next(start), i: 0 }];
    state.set(start, "visiting");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.next.length) {
        state.set(top.name, "done");
        stack.pop();
        continue;
      }
      const name = top.next[top.i++]!;
      const s = state.get(name);
      if (s === "visiting") return bad(`/plan/defs/${name}`, "references loop without reading any structure");
      if (s === "done") continue;
      state.set(name, "visiting");
      stack.push({ name, next: next(name), i: 0 });
    }
  }
  return OK;
}

function checkNode(
  n: Record<string, unknown>,
  at: string,
  defs: Record<string, unknown>,
  stack: [unknown, string][],
): Check {
  const schemaOk = n.kind === "ref" || isPlainObject(n.schema);
  if (!schemaOk) return bad(`${at}/schema`, "expected an object");
  switch (n.kind) {
    case "scalar":
      return Array.isArray(n.types) && n.types.every((t) => typeof t === "string")
        ? OK
        : bad(`${at}/types`, "expected type names");
    case "any":
    case "json-text":
      return OK;
    case "array":
      stack.push([n.items, `${at}/items`]);
      return OK;
    case "ref":
      return typeof n.def === "string" && Object.hasOwn(defs, n.def) ? OK : bad(`${at}/def`, "names no definition");
    case "map":
      if (!isPlainObject(n.key)) return bad(`${at}/key`, "expected an object");
      stack.push([n.value, `${at}/value`]);
      return OK;
    case "object":
    case "mixed": {
      if (n.kind === "mixed") {
        if (!isPlainObject(n.key)) return bad(`${at}/key`, "expected an object");
        stack.push([n.value, `${at}/value`]);
      }
      if (!Array.isArray(n.fields)) return bad(`${at}/fields`, "expected an array");
      const names = new Set<string>();
      for (const [i, f] of n.fields.entries()) {
        const fa = `${at}/fields/${i}`;
        if (!isPlainObject(f) || typeof f.name !== "string" || typeof f.optional !== "boolean")
          return bad(fa, "expected a field");
        if (names.has(f.name)) return bad(fa, "a field name appears twice");
        names.add(f.name);
        if (f.optional && !PRESENCE.has(f.presence as string)) return bad(`${fa}/presence`, "unknown presence");
        stack.push([f.node, `${fa}/node`]);
      }
      return OK;
    }
    case "union": {
      if (!Array.isArray(n.branches) || n.branches.length === 0) return bad(`${at}/branches`, "expected branches");
      if (
        !Array.isArray(n.branchSources) ||
        n.branchSources.length !== n.branches.length ||
        !n.branchSources.every((s) => typeof s === "string")
      ) {
        return bad(`${at}/branchSources`, "one string per branch");
      }
      if (n.branchTypes !== undefined) {
        const types = n.branchTypes;
        const typeList = (t: unknown) =>
          Array.isArray(t) && t.every((x) => JSON_TYPES.includes(x as (typeof JSON_TYPES)[number]));
        if (!Array.isArray(types) || types.length !== n.branches.length || !types.every(typeList)) {
          return bad(`${at}/branchTypes`, "one list of JSON types per branch");
        }
      }
      const r = checkRule(n.rule, n.branches.length, `${at}/rule`);
      if (!r.ok) return r;
      n.branches.forEach((b, i) => {
        stack.push([b, `${at}/branches/${i}`]);
      });
      return OK;
    }
    default:
      return bad(`${at}/kind`, "unknown node kind");
  }
}

function checkRule(rule: unknown, count: number, at: string): Check {
  if (!isPlainObject(rule)) return bad(at, "expected a rule");
  const inRange = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v < count;
  switch (rule.by) {
    case "same":
    case "tag":
      return OK;
    case "type":
      return isPlainObject(rule.types) && Object.values(rule.types).every(inRange)
        ? OK
        : bad(at, "branch out of range");
    case "discriminator":
      return typeof rule.field === "string" && isPlainObject(rule.values) && Object.values(rule.values).every(inRange)
        ? OK
        : bad(at, "branch out of range");
    default:
      return bad(at, "unknown rule");
  }
}
