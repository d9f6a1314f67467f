/**
 * Wire issues as a model can act on them. ajv reports every alternative's
 * complaint (both forms of a presence tag, every union branch); this picks the
 * alternative the model evidently meant, the way `best_match` in Python's
 * jsonschema does: the tag or discriminator it wrote, then its JSON type, then
 * the branch that got furthest. It then restates each issue with the
 * offending value and, where the wire has a form the model must know (a
 * presence tag, a closed object's members), shows it.
 */
import type { Issue, PathStep } from "../errors.js";
import { isPlainObject, pointerTokens, unescapeToken } from "../json.js";

const MISSING: unique symbol = Symbol("missing");

/** Issues this module wrote itself: already in the model's terms, with the value shown. */
const restated = new WeakSet<Issue>();

function said(issue: Issue): Issue {
  restated.add(issue);
  return issue;
}

/** The value at a JSON Pointer, or MISSING. */
export function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const t of pointerTokens(pointer)) {
    if (Array.isArray(v)) {
      const i = Number(t);
      if (!Number.isInteger(i) || i < 0 || i >= v.length) return MISSING;
      v = v[i];
    } else if (isPlainObject(v) && Object.hasOwn(v, t)) {
      v = v[t];
    } else return MISSING;
  }
  return v;
}

/** The schema at an ajv schema path ("#/properties/a/anyOf/1"), or undefined. */
export function schemaAt(schema: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith("#")) return undefined;
  const v = valueAt(schema, schemaPath.slice(1));
  return v === MISSING ? undefined : v;
}

/** A value shown in feedback: JSON, cut to `max` characters. */
export function shortValue(value: unknown, max = 60): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

const PRESENCE_FORMS = '{"state":"absent"} (leave it out) or {"state":"present","value":…}';

/** Whether a list of alternatives is a presence tag's two forms. */
export function isPresenceUnion(branches: unknown, root: unknown): boolean {
  if (!Array.isArray(branches) || branches.length !== 2) return false;
  const states = branches.map((branch) => {
    const ref = refOf(branch);
    const b = ref === undefined ? branch : schemaAt(root, ref);
    const state = isPlainObject(b) && isPlainObject(b.properties) ? b.properties.state : undefined;
    return isPlainObject(state) ? state.const : undefined;
  });
  return states.includes("absent") && states.includes("present");
}

function depth(pointer: string): number {
  return pointerTokens(pointer).length;
}

function isChildOf(child: string, parent: string): boolean {
  return child.startsWith(`${parent}/`) && depth(child) === depth(parent) + 1;
}

interface Branch {
  readonly index: number;
  readonly issues: Issue[];
  /** The member whose const/enum the model's value fails (a discriminator it wrote differently). */
  readonly tagMismatch: string | undefined;
  /** The branch wants another JSON type at the union's location. */
  readonly typeMismatch: boolean;
}

function branchOf(index: number, issues: Issue[], at: string, wire: unknown, presence: boolean): Branch {
  let tagMismatch: string | undefined;
  let typeMismatch = false;
  for (const i of issues) {
    // A presence tag's only tag is its state; its value's enum is a rule on the value.
    const tag = presence ? i.path === `${at}/state` : isChildOf(i.path, at);
    if ((i.keyword === "const" || i.keyword === "enum") && tag && valueAt(wire, i.path) !== MISSING) {
      tagMismatch ??= i.path;
    }
    if (i.keyword === "type" && i.path === at) typeMismatch = true;
  }
  return { index, issues, tagMismatch, typeMismatch };
}

/** Lower is better: a branch whose tag the model wrote, then of its JSON type, then deepest, then fewest. */
function rank(b: Branch): [number, number, number] {
  const mismatch = b.tagMismatch !== undefined ? 2 : b.typeMismatch ? 1 : 0;
  const deepest = Math.max(0, ...b.issues.map((i) => depth(i.path)));
  return [mismatch, -deepest, b.issues.length];
}

function better(a: Branch, b: Branch): boolean {
  const ra = rank(a);
  const rb = rank(b);
  for (let k = 0; k < ra.length; k++) if (ra[k] !== rb[k]) return ra[k]! < rb[k]!;
  return a.index < b.index;
}

/** The values a union's branches allow at one member, from their const/enum rules. */
function allowedAcross(branches: readonly Branch[], member: string): unknown[] {
  const out: unknown[] = [];
  for (const b of branches) {
    for (const i of b.issues) {
      if (i.path !== member) continue;
      if (i.rule?.keyword === "const") out.push(i.rule.params.allowedValue);
      if (i.rule?.keyword === "enum") out.push(...i.rule.params.allowedValues);
    }
  }
  return out.filter((v, k) => out.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === k);
}

/**
 * Keep, for each union the wire value failed, only the failures of the branch
 * the model meant; when it meant none (a tag or discriminator no branch has),
 * one issue that lists what the branches allow.
 */
export function bestMatch(issues: readonly Issue[], wire: unknown, wireSchema: unknown): Issue[] {
  return foldUnions(issues, wire, wireSchema, (current, { union, alternatives, presence, branches, best }) => {
    const members = new Set(branches.flatMap((b) => b.issues));
    members.add(union);
    const replacement = replacementFor(best, branches, union, wire, presence, alternatives);
    const at = current.indexOf(union);
    const kept = current.filter((i, k) => k < at && !members.has(i));
    const rest = current.filter((i, k) => k > at && !members.has(i));
    return [...kept, ...replacement, ...rest];
  });
}

/** A union the value failed: its alternatives, its failures by branch (ranked), and the one the model meant. */
interface FailedUnion {
  readonly union: Issue;
  readonly alternatives: unknown;
  readonly presence: boolean;
  readonly branches: readonly Branch[];
  readonly best: Branch;
}

/**
 * Each union the value failed, outermost first, with the issues grouped by
 * the branch they came from; `fold` rewrites the list around it (`bestMatch`
 * keeps the meant branch, `issueTree` nests them all). A union whose issues
 * an outer one already took, or with no branch's issues, is passed over.
 */
function foldUnions(
  issues: readonly Issue[],
  wire: unknown,
  wireSchema: unknown,
  fold: (current: Issue[], failed: FailedUnion) => Issue[],
): Issue[] {
  let current = [...issues];
  const unions = current
    .filter((i) => (i.keyword === "anyOf" || i.keyword === "oneOf") && i.schemaPath !== undefined)
    .sort((a, b) => a.schemaPath!.length - b.schemaPath!.length);
  for (const union of unions) {
    if (!current.includes(union)) continue;
    const prefix = `${union.schemaPath}/`;
    const alternatives = schemaAt(wireSchema, union.schemaPath!);
    const refs = Array.isArray(alternatives) ? alternatives.map(refOf) : [];
    const groups = new Map<number, Issue[]>();
    for (const i of current) {
      const index = branchIndexOf(i, prefix, refs, union.path);
      if (index !== undefined) groups.set(index, [...(groups.get(index) ?? []), i]);
    }
    if (groups.size === 0) continue;
    const presence = isPresenceUnion(alternatives, wireSchema);
    const branches = [...groups].map(([index, list]) => branchOf(index, list, union.path, wire, presence));
    const best = branches.reduce((a, b) => (better(b, a) ? b : a));
    current = fold(current, { union, alternatives, presence, branches, best });
  }
  return current;
}

/** A branch that is only a reference: its failures carry the referenced schema's path. */
function refOf(branch: unknown): string | undefined {
  return isPlainObject(branch) && typeof branch.$ref === "string" && Object.keys(branch).length === 1
    ? branch.$ref
    : undefined;
}

/** Which branch of a union an issue came from, or undefined when from none. */
function branchIndexOf(
  i: Issue,
  prefix: string,
  refs: readonly (string | undefined)[],
  at: string,
): number | undefined {
  if (i.schemaPath === undefined) return undefined;
  if (i.schemaPath.startsWith(prefix)) {
    const index = Number(i.schemaPath.slice(prefix.length).split("/")[0]);
    return Number.isInteger(index) ? index : undefined;
  }
  const k = refs.findIndex((r) => r !== undefined && i.schemaPath!.startsWith(`${r}/`) && fromRefAt(i, r, at));
  return k === -1 ? undefined : k;
}

/**
 * A referenced schema is shared (every presence tag's absent form is one
 * definition), so its failures belong to this union only where its schema
 * path, read as member steps, leads from the union's location to the issue's.
 */
function fromRefAt(i: Issue, ref: string, at: string): boolean {
  const rel = i.schemaPath!.slice(ref.length + 1).split("/");
  let expected = at;
  let j = 0;
  while (j < rel.length - 1) {
    if (rel[j] !== "properties") return i.path.startsWith(`${at}/`);
    expected += `/${rel[j + 1]}`;
    j += 2;
  }
  const objectLevel = i.keyword === "required" || i.keyword === "additionalProperties";
  return (objectLevel ? i.path.slice(0, i.path.lastIndexOf("/")) : i.path) === expected;
}

function replacementFor(
  best: Branch,
  branches: readonly Branch[],
  union: Issue,
  wire: unknown,
  presence: boolean,
  alternatives: unknown,
): Issue[] {
  const written = valueAt(wire, union.path);
  // A branch that fails on nothing but its tag: the model wrote the rest of that branch and the wrong tag.
  const wrongTag = presence
    ? undefined
    : branches.find((b) => b !== best && b.tagMismatch !== undefined && b.issues.length === 1);
  if (wrongTag !== undefined && best.tagMismatch === undefined) {
    const tag = wrongTag.issues[0]!;
    const name = pointerTokens(tag.path).at(-1) ?? "";
    const want =
      tag.rule?.keyword === "const"
        ? tag.rule.params.allowedValue
        : tag.rule?.keyword === "enum"
          ? tag.rule.params.allowedValues[0]
          : undefined;
    const hint = said({
      path: tag.path,
      keyword: tag.keyword ?? "const",
      message: `is ${shortValue(valueAt(wire, tag.path))}; the other members fit the form where it is ${shortValue(want, 40)} ("${name}":${shortValue(want, 40)})`,
    });
    return [...best.issues, hint];
  }
  if (best.tagMismatch !== undefined) {
    // No branch has the tag the model wrote: say which values exist.
    const member = best.tagMismatch;
    const allowed = allowedAcross(branches, member);
    const got = shortValue(valueAt(wire, member));
    const message = presence
      ? `the tag's state is ${got}; a presence tag is ${PRESENCE_FORMS}`
      : `is ${got}; must be one of ${allowed.map((v) => shortValue(v, 40)).join(", ")}`;
    return [said({ path: member, keyword: "const", message })];
  }
  if (best.typeMismatch) {
    if (presence) {
      const message = `a presence tag is due here, not a bare ${jsonKind(written)}: write {"state":"present","value":${shortValue(written, 80)}}, or {"state":"absent"} to leave it out`;
      return [said({ path: union.path, keyword: "type", message })];
    }
    const types = branchTypes(alternatives);
    const message = `is ${shortValue(written)}; must be ${types.length > 0 ? `one of the types ${types.join(", ")}` : "another JSON type"}`;
    return [said({ path: union.path, keyword: "type", message })];
  }
  if (presence && best.issues.some((i) => tagLevel(i, union.path))) {
    // A malformed tag: show both forms next to what is wrong with it.
    return best.issues.map((i) =>
      tagLevel(i, union.path) ? { ...i, message: `${i.message}; a presence tag is ${PRESENCE_FORMS}` } : i,
    );
  }
  const others = branchTypes(alternatives).filter((t) => t !== jsonKind(written));
  if (!presence && others.length > 0 && branches.length > 1) {
    const [first, ...rest] = best.issues;
    if (first !== undefined)
      return [{ ...first, message: `${first.message} (or a value of type ${others.join(", ")})` }, ...rest];
  }
  return best.issues;
}

function tagLevel(i: Issue, at: string): boolean {
  return (
    i.path === at ||
    i.path === `${at}/state` ||
    (i.path === `${at}/value` && i.keyword !== undefined && ["required", "additionalProperties"].includes(i.keyword))
  );
}

function branchTypes(alternatives: unknown): string[] {
  if (!Array.isArray(alternatives)) return [];
  const out: string[] = [];
  for (const b of alternatives) {
    const t = isPlainObject(b) ? b.type : undefined;
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === "string" && !out.includes(x)) out.push(x);
  }
  return out;
}

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/**
 * One issue restated for the model: the offending value next to the rule, the
 * declared members next to an undeclared one, the absent form next to a
 * missing optional member.
 */
export function explain(issue: Issue, wire: unknown, wireSchema: unknown): Issue {
  if (restated.has(issue)) return issue;
  const worded = explainRule(issue, wire, wireSchema);
  // A rule that applies because of the key's name (patternProperties) says which pattern chose it.
  const pattern = keyPatternOf(issue.schemaPath);
  return pattern === undefined
    ? worded
    : { ...worded, message: `${worded.message} (the rule for keys matching ${pattern})` };
}

/** The pattern of the patternProperties entry a rule sits under, if it does. */
function keyPatternOf(schemaPath: string | undefined): string | undefined {
  if (schemaPath === undefined) return undefined;
  const steps = schemaPath.split("/");
  const k = steps.lastIndexOf("patternProperties");
  const raw = k === -1 ? undefined : steps[k + 1];
  if (raw === undefined) return undefined;
  let token = raw;
  try {
    token = decodeURIComponent(raw);
  } catch {
    // ajv left it as written.
  }
  return unescapeToken(token);
}

function explainRule(issue: Issue, wire: unknown, wireSchema: unknown): Issue {
  const { keyword, schemaPath } = issue;
  const parentSchema = schemaPath === undefined ? undefined : schemaAt(wireSchema, schemaPath.replace(/\/[^/]*$/, ""));
  if (keyword === "additionalProperties") {
    const props =
      isPlainObject(parentSchema) && isPlainObject(parentSchema.properties) ? Object.keys(parentSchema.properties) : [];
    if (props.length === 0) return issue;
    const listed = props.slice(0, 12).join(", ") + (props.length > 12 ? `, and ${props.length - 12} more` : "");
    return { ...issue, message: `${issue.message}; the declared members are ${listed}` };
  }
  if (keyword === "required") {
    const name = pointerTokens(issue.path).at(-1) ?? "";
    const props = isPlainObject(parentSchema) && isPlainObject(parentSchema.properties) ? parentSchema.properties : {};
    const member = props[name];
    if (isPlainObject(member) && isPresenceUnion(member.anyOf ?? member.oneOf, wireSchema)) {
      return {
        ...issue,
        message: `${issue.message}; every member is written, an optional one left out as {"state":"absent"}`,
      };
    }
    return issue;
  }
  if (keyword === "anyOf" || keyword === "oneOf" || keyword === "not") return issue;
  if (keyword === "type" && isEntries(parentSchema)) {
    return { ...issue, message: `${issue.message}; a map is written as entries [{"key":…,"value":…}], one per key` };
  }
  const value = valueAt(wire, issue.path);
  if (value === MISSING || isPlainObject(value) || (Array.isArray(value) && keyword !== "type")) return issue;
  return { ...issue, message: `${issue.message}, got ${shortValue(value)}` };
}

/** An entries array: the wire form of a map, items of {"key","value"}. */
function isEntries(schema: unknown): boolean {
  if (!isPlainObject(schema) || schema.type !== "array" || !isPlainObject(schema.items)) return false;
  const props = schema.items.properties;
  return isPlainObject(props) && "key" in props && "value" in props;
}

/**
 * The issues as a tree: each failed union (a presence tag's two forms, a
 * union's branches) carries its alternatives' own issues as `branches`,
 * nested unions inside them, and `chosen`, the branch `bestMatch` takes for
 * the one the model meant. The same grouping as `bestMatch`, kept whole.
 */
export function issueTree(issues: readonly Issue[], wire: unknown, wireSchema: unknown): Issue[] {
  return foldUnions(issues, wire, wireSchema, (current, { union, alternatives, branches, best }) => {
    const count = Math.max(Array.isArray(alternatives) ? alternatives.length : 0, ...branches.map((b) => b.index + 1));
    const nested = Array.from({ length: count }, (_, k) =>
      issueTree(branches.find((b) => b.index === k)?.issues ?? [], wire, wireSchema),
    );
    const members = new Set(branches.flatMap((b) => b.issues));
    const node: Issue = { ...union, branches: nested, chosen: best.index };
    return current.filter((i) => !members.has(i)).map((i) => (i === union ? node : i));
  });
}

/** The same tree with every issue rewritten by `f` (its branches first). */
export function mapTree(tree: readonly Issue[], f: (i: Issue) => Issue): Issue[] {
  return tree.map((i) => f(i.branches === undefined ? i : { ...i, branches: i.branches.map((b) => mapTree(b, f)) }));
}

/**
 * A pointer into `root` as steps: a token under an array is its index (a
 * number), under anything else a member name, so a key "0" stays a name.
 */
export function stepsIn(root: unknown, pointer: string): PathStep[] {
  const steps: PathStep[] = [];
  let v: unknown = root;
  for (const t of pointerTokens(pointer)) {
    if (Array.isArray(v) && /^(0|[1-9]\d*)$/.test(t)) {
      steps.push(Number(t));
      v = v[Number(t)];
    } else {
      steps.push(t);
      v = isPlainObject(v) && Object.hasOwn(v, t) ? v[t] : undefined;
    }
  }
  return steps;
}
