/**
 * Source schema -> IR: the stateful walk. The pure schema algebra (types,
 * merges) is in algebra.ts, the keyword keep/relax decisions in decisions.ts.
 * Each schema position becomes one node that says how its
 * values travel. Anything the wire cannot carry exactly travels in a form that
 * can represent every valid value (ultimately: any JSON value), and the
 * constraint it could not carry is recorded as relaxed: the final validation
 * against the original schema enforces it.
 */
import type { AbsenceSpelling, TagSpelling } from "../bundle/bundle.js";
import { pointerJoin } from "../errors.js";
import { isPlainObject, type JsonObject, type JsonType, type JsonValue, pointerTokens } from "../json.js";
import type { Resources } from "../schema/resources.js";
import type { TargetProfile } from "../targets/profile.js";
import { patternProblem } from "../validate/regexp.js";
import {
  annotationsOf,
  hasAnnotations,
  hasAny,
  hasShape,
  mergeViews,
  originOf,
  primary,
  primitiveJsonTypes,
  type Schema,
  typeSet,
  type View,
} from "./algebra.js";
import type { NodeKinds } from "./children.js";
import { breakCycles, jsonTextNode } from "./cycles.js";
import {
  KEY_SCHEMA_KEYWORDS,
  keepsArrayKeyword,
  keepsNumberKeyword,
  keepsStringKeyword,
  notTakenReason,
  refuseDynamicRef,
  refuseUnsafePattern,
  unspelledConstants,
} from "./decisions.js";
import { finalizePlan } from "./finalize.js";
import {
  ARRAY_KEYWORDS,
  ARRAY_SHAPE,
  CONSTRAINT_KEYWORDS,
  GENERAL_KEYWORDS,
  NUMBER_KEYWORDS,
  OBJECT_KEYWORDS,
  OBJECT_SHAPE,
  SHAPE_KEYWORDS,
  STRING_KEYWORDS,
} from "./keywords.js";
import type { Field, KeySchema, Node, Plan, RelaxedConstraint, UnionNode } from "./nodes.js";
import { SchemaRefusal } from "./schema-refusal.js";

export interface BuildOptions {
  readonly openObjects: "close" | "preserve";
  /** The `presence` option: how absence is spelled where the target has no native optional members. */
  readonly presence: AbsenceSpelling;
  /** How presence tags are spelled: `{"state":…}` (default) or minimal (`{}` / `{"value":…}`). */
  readonly tags?: TagSpelling;
  readonly target: TargetProfile;
  /** IR nodes at most: the expansion budget. */
  readonly maxNodes: number;
  /** Whether the source is read with draft-07 rules (items arrays, additionalItems). */
  readonly draft07: boolean;
  /** What the IR stages need of each node kind: compile hands in the constructs registry. */
  readonly kinds: NodeKinds;
  /** Unions written in the tag form whatever their branches (see FinalizeOptions). */
  readonly tagUnions?: (node: UnionNode) => boolean;
}

/** Names the wire reserves for its own definitions. */
export const RESERVED_DEFS = new Set(["strictwire_json", "strictwire_absent", "strictwire_empty"]);

const MAX_DISTRIBUTED_BRANCHES = 32;
const MAX_BUILD_DEPTH = 256;
const MAX_COMBINATION_DEPTH = 8;

export function buildPlan(root: unknown, resources: Resources, options: BuildOptions): Plan {
  return new Builder(resources, options).run(root);
}

class Builder {
  private readonly defs: Record<string, Node> = {};
  private readonly defByPointer = new Map<string, string>();
  private readonly usedNames = new Set<string>(RESERVED_DEFS);
  private readonly pending: { name: string; view: View }[] = [];
  private readonly relaxed: RelaxedConstraint[] = [];
  private readonly relaxedKeys = new Set<string>();
  private count = 0;
  /** Nesting of node() calls and of unions distributed inside unions: both bounded. */
  private depth = 0;
  private combinationDepth = 0;

  constructor(
    private readonly resources: Resources,
    private readonly options: BuildOptions,
  ) {}

  run(root: unknown): Plan {
    const rootNode = this.node({ schema: root, pointers: [""] });
    // Definitions are built from a work list, not by recursion: a long $ref
    // chain must not grow the stack.
    while (this.pending.length > 0) {
      const { name, view } = this.pending.pop()!;
      this.defs[name] = this.node(view);
    }
    const sources = new Map(
      [...this.defByPointer].map(([pointer, name]) => [name, { pointer, schema: this.resources.at(pointer)?.schema }]),
    );
    const plan = breakCycles(
      { root: rootNode, envelope: "arguments", defs: this.defs, relaxed: this.relaxed, nodes: this.count },
      this.options.target,
      sources,
      this.options.kinds,
    );
    return finalizePlan(plan, this.options);
  }

  // ---- bookkeeping -------------------------------------------------------

  private tick(pointer: string): void {
    this.count++;
    if (this.count > this.options.maxNodes) {
      throw new SchemaRefusal(
        "expansion-limit",
        pointer,
        `the wire form needs more than ${this.options.maxNodes} nodes (the expansion budget for this schema)`,
      );
    }
  }

  private relax(pointer: string, keyword: string, reason: string): void {
    const key = `${pointer}\u0000${keyword}`;
    if (this.relaxedKeys.has(key)) return;
    this.relaxedKeys.add(key);
    this.relaxed.push({ path: pointer, keyword, reason });
  }

  private relaxAll(view: View, reason: string, except: ReadonlySet<string> = new Set()): void {
    const s = view.schema;
    if (!isPlainObject(s)) return;
    for (const k of CONSTRAINT_KEYWORDS) if (s[k] !== undefined && !except.has(k)) this.relax(primary(view), k, reason);
  }

  // ---- dispatch ----------------------------------------------------------

  private node(view: View): Node {
    const pointer = primary(view);
    this.tick(pointer);
    if (this.depth > MAX_BUILD_DEPTH) {
      throw new SchemaRefusal("schema-too-large", pointer, `the schema nests deeper than ${MAX_BUILD_DEPTH} levels`);
    }
    this.depth++;
    try {
      return this.nodeAt(view, pointer);
    } finally {
      this.depth--;
    }
  }

  private nodeAt(view: View, pointer: string): Node {
    const s = view.schema;
    if (s === true) return anyNode({}, this.options.target);
    if (s === false) {
      throw new SchemaRefusal(
        "unsupported-schema",
        pointer,
        "the schema `false` accepts no value, so nothing can travel here",
        true,
      );
    }
    if (!isPlainObject(s))
      throw new SchemaRefusal("invalid-schema", pointer, "a schema must be an object or a boolean");
    refuseDynamicRef(s, pointer);
    if (typeof s.$ref === "string") return this.reference(view, s, s.$ref);
    if (hasAny(s, ["allOf", "anyOf", "oneOf"])) return this.combination(view, s);
    return this.plain(view, s);
  }

  // ---- $ref -------------------------------------------------------------

  private reference(view: View, s: Schema, ref: string): Node {
    const pointer = primary(view);
    const siblings = Object.keys(s).filter((k) => k !== "$ref" && SHAPE_KEYWORDS.has(k));
    // Shape beside $ref: the validator applies both, so the pair travels as their merge.
    if (siblings.length > 0) return this.combination(view, s);
    for (const k of CONSTRAINT_KEYWORDS) {
      if (s[k] !== undefined) this.relax(pointer, k, "beside $ref: enforced by the final validation");
    }
    return { kind: "ref", def: this.defFor(ref, originOf(view, "$ref")) };
  }

  private resolve(ref: string, pointer: string): { schema: unknown; pointer: string } {
    const r = this.resources.resolve(ref, pointer);
    if (r.ok) return r.target;
    if (r.reason === "remote") {
      throw new SchemaRefusal(
        "remote-ref",
        pointer,
        `the reference ${JSON.stringify(ref)} leaves this document; only local references are followed`,
      );
    }
    throw new SchemaRefusal(
      "unresolved-ref",
      pointer,
      `the reference ${JSON.stringify(ref)} does not resolve inside this document`,
    );
  }

  private defFor(ref: string, pointer: string): string {
    const target = this.resolve(ref, pointer);
    const known = this.defByPointer.get(target.pointer);
    if (known !== undefined) return known;
    const name = this.nameFor(target.pointer);
    this.defByPointer.set(target.pointer, name);
    this.pending.push({ name, view: { schema: target.schema, pointers: [target.pointer] } });
    return name;
  }

  private nameFor(pointer: string): string {
    const tokens = pointerTokens(pointer);
    let base: string;
    if (tokens.length === 0) base = "root";
    else if (tokens.length === 2 && (tokens[0] === "$defs" || tokens[0] === "definitions")) base = tokens[1]!;
    else base = tokens.join("_");
    base = base.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60) || "def";
    // Names become object keys: "__proto__" would not be an ordinary one.
    if (base === "__proto__") base = "proto";
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}_${i}`;
    this.usedNames.add(name);
    return name;
  }

  // ---- allOf / anyOf / oneOf -------------------------------------------

  /**
   * A conjunction of parts, some of which may be unions. Plain parts merge into
   * one schema; unions distribute over it (A ∧ (B ∨ C) = (A∧B) ∨ (A∧C)).
   */
  private combination(view: View, s: Schema): Node {
    if (this.combinationDepth >= MAX_COMBINATION_DEPTH) {
      return this.fallback(view, "anyOf", "unions nested in merged unions too deeply");
    }
    this.combinationDepth++;
    try {
      return this.combine(view, s);
    } finally {
      this.combinationDepth--;
    }
  }

  private combine(view: View, s: Schema): Node {
    const pointer = primary(view);
    const flat = this.flatten(view, s);
    if (flat === undefined)
      return this.fallback(view, "allOf", "an allOf the wire cannot merge (recursive or conflicting)");
    const { plain, unions } = flat;

    // Unions whose branches add no shape only narrow: relax them, keep the plain part.
    const shaping = unions.filter((u) => u.branches.some((b) => hasShape(b.schema)));
    for (const u of unions) {
      if (!shaping.includes(u))
        this.relax(u.pointer, u.keyword, "its branches only narrow values: enforced by the final validation");
    }
    if (unions.some((u) => u.keyword === "oneOf")) {
      for (const u of shaping)
        if (u.keyword === "oneOf") this.relax(u.pointer, "oneOf", "exclusivity is enforced by the final validation");
    }

    if (shaping.length === 0) return this.plainOrMerged(plain, pointer);

    let combos: View[][] = [[]];
    for (const u of shaping) {
      const next: View[][] = [];
      for (const combo of combos) for (const b of u.branches) next.push([...combo, b]);
      combos = next;
      if (combos.length > MAX_DISTRIBUTED_BRANCHES) {
        return this.fallback(
          view,
          u.keyword,
          `more than ${MAX_DISTRIBUTED_BRANCHES} alternatives after distributing unions`,
        );
      }
    }
    const branches: View[] = [];
    for (const combo of combos) {
      const parts = [...plain, ...combo];
      const merged = mergeViews(parts);
      if (merged === undefined) continue; // contradictory types: this alternative accepts nothing
      branches.push(merged);
    }
    if (branches.length === 0) {
      throw new SchemaRefusal(
        "unsupported-schema",
        pointer,
        "no alternative of this union can hold a value (contradictory types)",
        true,
      );
    }
    if (branches.length === 1) return this.node(branches[0]!);
    return this.union(view, branches);
  }

  private plainOrMerged(plain: View[], pointer: string): Node {
    const merged = mergeViews(plain);
    if (merged === undefined)
      throw new SchemaRefusal("unsupported-schema", pointer, "the parts of this allOf have no type in common", true);
    if (isPlainObject(merged.schema)) return this.plain(merged, merged.schema);
    return this.node(merged);
  }

  /** Split a schema into plain conjuncts and unions, inlining allOf members and $ref targets. */
  private flatten(
    view: View,
    s: Schema,
  ): { plain: View[]; unions: { keyword: string; pointer: string; branches: View[] }[] } | undefined {
    const plain: View[] = [];
    const unions: { keyword: string; pointer: string; branches: View[] }[] = [];
    const work: View[] = [{ schema: s, pointers: view.pointers }];
    const inlined = new Set<string>();
    let steps = 0;
    while (work.length > 0) {
      if (++steps > 256) return undefined;
      const part = work.pop()!;
      const p = part.schema;
      const at = primary(part);
      const originOf = (k: string): string => part.origins?.get(k) ?? at;
      if (p === true) continue;
      if (p === false)
        throw new SchemaRefusal("unsupported-schema", at, "allOf contains `false`: no value is valid here");
      if (!isPlainObject(p)) throw new SchemaRefusal("invalid-schema", at, "a schema must be an object or a boolean");
      refuseDynamicRef(p, at);
      const rest: Schema = { ...p };
      if (typeof p.$ref === "string") {
        const target = this.resolve(p.$ref, originOf("$ref"));
        // A ∧ A = A: a conjunct already inlined (recursion included) adds nothing.
        if (!inlined.has(target.pointer)) {
          inlined.add(target.pointer);
          work.push({ schema: target.schema, pointers: [target.pointer] });
        }
        delete rest.$ref;
      }
      if (Array.isArray(p.allOf)) {
        p.allOf.forEach((sub, i) => {
          work.push({ schema: sub, pointers: [pointerJoin(`${originOf("allOf")}/allOf`, i)] });
        });
        delete rest.allOf;
      }
      for (const keyword of ["anyOf", "oneOf"] as const) {
        const list = p[keyword];
        if (Array.isArray(list)) {
          const base = originOf(keyword);
          unions.push({
            keyword,
            pointer: base,
            // A `false` branch accepts nothing: leaving it out changes no verdict.
            branches: list
              .map((sub, i) => ({ schema: sub, pointers: [pointerJoin(`${base}/${keyword}`, i)] }))
              .filter((b) => b.schema !== false),
          });
          delete rest[keyword];
        }
      }
      plain.push({ ...part, schema: rest });
    }
    return { plain, unions };
  }

  private fallback(view: View, keyword: string, reason: string): Node {
    this.relax(primary(view), keyword, `${reason}: travels as any JSON value, enforced by the final validation`);
    this.relaxAll(view, "travels as any JSON value: enforced by the final validation");
    return anyNode(annotationsOf(view.schema), this.options.target);
  }

  private union(view: View, branches: readonly View[]): UnionNode {
    const kept: { node: Node; view: View }[] = [];
    for (const b of branches) {
      try {
        kept.push({ node: this.node(b), view: b });
      } catch (error) {
        // A branch that accepts no value (contradictory types deeper down) changes no verdict: leave it out.
        if (!(error instanceof SchemaRefusal && error.unsatisfiable)) throw error;
      }
    }
    if (kept.length === 0) {
      throw new SchemaRefusal(
        "unsupported-schema",
        primary(view),
        "no alternative of this union can hold a value",
        true,
      );
    }
    return {
      kind: "union",
      branches: kept.map((k) => k.node),
      rule: { by: "tag" }, // decided in finalizePlan, once every definition exists
      branchSources: kept.map((k) => k.view.pointers.map(encodeURI)),
      schema: annotationsOf(view.schema),
    };
  }

  // ---- plain schemas ----------------------------------------------------

  private plain(view: View, s: Schema): Node {
    const types = typeSet(s);
    const pointer = primary(view);

    if (s.enum !== undefined || s.const !== undefined) {
      const values: unknown[] = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
      if (values.some((v) => v !== null && typeof v === "object")) {
        return this.fallback(view, s.const !== undefined ? "const" : "enum", "a structured enum or const value");
      }
    }

    const wantsObject = types.has("object");
    const wantsArray = types.has("array");
    const primitives = ["string", "number", "integer", "boolean", "null"].filter((t) =>
      types.has(t as JsonType | "integer"),
    );
    const typeless = s.type === undefined;

    if (typeless && !hasAny(s, [...OBJECT_SHAPE, ...ARRAY_SHAPE]) && s.enum === undefined && s.const === undefined) {
      this.relaxAll(view, "no type is declared, so any JSON value travels: enforced by the final validation");
      return anyNode(annotationsOf(s), this.options.target);
    }

    const parts: { node: Node; types: JsonType[] }[] = [];
    if (primitives.length > 0)
      parts.push({ node: this.scalar(view, s, primitives), types: primitiveJsonTypes(primitives) });
    if (wantsObject) parts.push({ node: this.objectLike(view, s), types: ["object"] });
    if (wantsArray) parts.push({ node: this.array(view, s), types: ["array"] });
    if (parts.length === 0)
      throw new SchemaRefusal("unsupported-schema", pointer, "no type can satisfy this schema", true);
    if (parts.length === 1) return parts[0]!.node;
    this.tick(pointer);
    return {
      kind: "union",
      branches: parts.map((p) => p.node),
      rule: { by: "tag" },
      branchSources: parts.map(() => view.pointers.map(encodeURI)),
      // Each branch takes the values of its own JSON types: encode picks by type.
      branchTypes: parts.map((p) => p.types),
      schema: annotationsOf(s),
    };
  }

  private scalar(view: View, s: Schema, primitives: string[]): Node {
    const pointer = primary(view);
    const target = this.options.target;
    const schema: JsonObject = { ...annotationsOf(s) };
    schema.type = primitives.length === 1 ? primitives[0]! : primitives;
    if (s.enum !== undefined) schema.enum = s.enum as JsonValue;
    if (s.const !== undefined) schema.const = s.const as JsonValue;
    for (const k of unspelledConstants(target, s)) this.relax(pointer, k, notTakenReason(target));
    const hasString = primitives.includes("string");
    const hasNumber = primitives.includes("number") || primitives.includes("integer");

    refuseUnsafePattern(s.pattern, pointer);
    for (const k of STRING_KEYWORDS) {
      if (s[k] === undefined) continue;
      if (hasString && keepsStringKeyword(target, k, s[k])) schema[k] = s[k] as JsonValue;
      else this.relax(pointer, k, notTakenReason(target));
    }
    for (const k of NUMBER_KEYWORDS) {
      if (s[k] === undefined) continue;
      if (hasNumber && keepsNumberKeyword(target, k, s[k])) schema[k] = s[k] as number;
      else this.relax(pointer, k, notTakenReason(target));
    }
    this.relaxGeneral(view, s);
    return { kind: "scalar", schema, types: primitiveJsonTypes(primitives) };
  }

  /** not, if/then/else: they only narrow, wherever they stand. */
  private relaxGeneral(view: View, s: Schema): void {
    for (const k of GENERAL_KEYWORDS) {
      if (k === "enum" || k === "const") continue; // carried by scalars, decided there
      if (s[k] !== undefined) this.relax(primary(view), k, "only narrows values: enforced by the final validation");
    }
  }

  private array(view: View, s: Schema): Node {
    const pointer = primary(view);
    const target = this.options.target;
    const schema: JsonObject = {};
    if (typeof s.description === "string") schema.description = s.description;
    for (const k of ["minItems", "maxItems"] as const) {
      if (typeof s[k] !== "number") continue;
      const value = s[k] as number;
      if (keepsArrayKeyword(target, k, value)) schema[k] = value;
      else this.relax(pointer, k, notTakenReason(target));
    }
    for (const k of ARRAY_KEYWORDS) {
      if (k === "minItems" || k === "maxItems") continue; // decided above, per target
      if (s[k] !== undefined) this.relax(pointer, k, "only narrows values: enforced by the final validation");
    }

    let prefix: unknown[] = [];
    let rest: unknown = s.items;
    let restAt = `${originOf(view, "items")}/items`;
    if (Array.isArray(s.prefixItems)) prefix = s.prefixItems;
    if (Array.isArray(s.items)) {
      prefix = s.items;
      rest = s.additionalItems;
      restAt = `${originOf(view, "additionalItems")}/additionalItems`;
    }
    if (prefix.length > 0) return this.tuple(view, s, schema, prefix, rest, restAt);
    // Items no value satisfies still leave the empty array valid: it must travel.
    const restNode =
      rest === undefined || rest === false
        ? undefined
        : this.satisfiable(() => this.node({ schema: rest, pointers: [restAt] }));
    const items = restNode ?? anyNode({}, target);
    if (rest === false)
      this.relax(pointer, "items", "items: false travels as any JSON: enforced by the final validation");
    else if (rest !== undefined && restNode === undefined)
      this.relax(
        pointer,
        "items",
        "no value satisfies the items, so only an empty array is valid: travels as any JSON, enforced by the final validation",
      );
    this.relaxGeneral(view, s);
    return { kind: "array", items, schema };
  }

  /**
   * A tuple: each position to its own schema (constructs/tuple.ts). Positions
   * past minItems are optional; one no value satisfies ends the tuple there.
   * A target that keeps prefixItems takes the array form, the others an object.
   */
  private tuple(view: View, s: Schema, schema: JsonObject, prefix: unknown[], rest: unknown, restAt: string): Node {
    const pointer = primary(view);
    const key = Array.isArray(s.prefixItems) ? "prefixItems" : "items";
    const minItems = typeof s.minItems === "number" ? s.minItems : 0;
    const positions: Field[] = [];
    let closed = rest === false;
    for (const [i, p] of prefix.entries()) {
      const optional = i >= minItems;
      const at = pointerJoin(`${originOf(view, key)}/${key}`, i);
      const node = this.memberNode(view, String(i), p, at, optional, { schema: p, pointers: [at] });
      if (node === undefined) {
        this.relax(at, "false", "no value satisfies this position, so the tuple ends before it");
        closed = true;
        break;
      }
      positions.push({ name: String(i), node, optional });
    }
    if (positions.length === 0) {
      // The first position is optional and nothing satisfies it: the empty array is the one valid value, and it
      // must travel (as any JSON; the final validation keeps it empty).
      this.relax(
        pointer,
        key,
        "no value satisfies the first position, so only an empty array is valid: travels as any JSON, enforced by the final validation",
      );
      this.relaxGeneral(view, s);
      return { kind: "array", items: anyNode({}, this.options.target), schema };
    }
    // Without `items` (or `additionalItems`), elements after the positions may be anything.
    const restNode = closed ? undefined : this.node({ schema: rest ?? true, pointers: [restAt] });
    const form = this.options.target.keeps.array.has("prefixItems") ? "array" : "object";
    let kept = schema;
    if (form === "object") {
      // An object has no element counts: the required positions carry a minItems up to their count, and a
      // closed tuple its maxItems from there; any other count is the final validation's.
      const { minItems: min, maxItems: max, ...others } = schema;
      const n = positions.length;
      const reason = "a tuple travels as an object: enforced by the final validation";
      if (typeof min === "number" && min > n) this.relax(pointer, "minItems", reason);
      if (typeof max === "number" && (restNode !== undefined || max < n)) this.relax(pointer, "maxItems", reason);
      kept = others;
    }
    this.relaxGeneral(view, s);
    return { kind: "tuple", schema: kept, positions, form, ...(restNode === undefined ? {} : { rest: restNode }) };
  }

  private objectLike(view: View, s: Schema): Node {
    const pointer = primary(view);
    const properties = isPlainObject(s.properties) ? s.properties : {};
    const required = new Set(
      Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [],
    );
    // unevaluatedProperties closes the object only when nothing else here can evaluate more members.
    const unevaluatedCloses =
      !this.options.draft07 &&
      view.origins === undefined &&
      !hasAny(s, ["dependentSchemas", "if", "then", "else", "patternProperties", "anyOf", "oneOf", "allOf", "$ref"]);
    const additional = s.additionalProperties ?? (unevaluatedCloses ? s.unevaluatedProperties : undefined);
    const patterns = isPlainObject(s.patternProperties) ? s.patternProperties : {};
    const patternKeys = Object.keys(patterns);

    for (const k of OBJECT_KEYWORDS) {
      if (s[k] !== undefined && k !== "propertyNames")
        this.relax(pointer, k, "only narrows values: enforced by the final validation");
    }
    this.relaxGeneral(view, s);

    const fields: Field[] = [];
    for (const name of Object.keys(properties)) {
      const sub = properties[name];
      const at = pointerJoin(`${originOf(view, "properties")}/properties`, name);
      if (name === "__proto__") {
        // ajv 8 drops a declared "__proto__" from `properties`, so neither contract could be checked.
        throw new SchemaRefusal(
          "unsupported-schema",
          at,
          "a declared member named __proto__ cannot be validated reliably; use a map (additionalProperties) for such keys",
        );
      }
      if (sub === false) {
        this.relax(at, "false", "this member can never be present: it does not travel");
        continue;
      }
      const optional = !required.has(name);
      const node = this.memberNode(view, name, sub, at, optional);
      if (node === undefined) {
        this.relax(at, "type", "no value satisfies this member, so it can never be present: it does not travel");
        continue;
      }
      fields.push({
        name,
        node,
        optional,
        ...(isPlainObject(sub) && hasAnnotations(sub) ? { annotations: annotationsOf(sub) } : {}),
      });
    }
    for (const name of required) {
      if (Object.hasOwn(properties, name)) continue;
      // Required but undeclared: it must be there, with whatever the dynamic members allow.
      const sub = isPlainObject(additional) || additional === true ? additional : true;
      fields.push({ name, node: this.node({ schema: sub, pointers: [`${pointer}/required`] }), optional: false });
    }

    // Dynamic members: what may appear beside the declared ones.
    let value: Node | undefined;
    const key: KeySchema = this.keySchema(view, s);
    if (patternKeys.length > 0) {
      this.relax(
        pointer,
        "patternProperties",
        "names and values of matching members are checked by the final validation",
      );
      if (patternKeys.length === 1 && additional === false) {
        const only = patternKeys[0]!;
        value = this.satisfiable(() =>
          this.node({
            schema: patterns[only],
            pointers: [pointerJoin(`${originOf(view, "patternProperties")}/patternProperties`, only)],
          }),
        );
        if (
          this.options.target.keeps.string.has("pattern") &&
          patternProblem(only) === undefined &&
          key.pattern === undefined
        ) {
          key.pattern = only;
        }
      } else {
        value = anyNode({}, this.options.target);
      }
    } else if (additional === false) {
      value = undefined;
    } else if (isPlainObject(additional) || additional === true) {
      const at = `${originOf(view, "additionalProperties")}/additionalProperties`;
      // Values no value satisfies: no other member can be present, and the object travels closed (`{}` included).
      value = this.satisfiable(() => this.node({ schema: additional, pointers: [at] }));
      if (value === undefined) {
        this.relax(
          at,
          "type",
          "no value satisfies the other members, so none can be present: the object travels closed",
        );
      }
    } else if (this.options.openObjects === "preserve") {
      value = anyNode({}, this.options.target);
    }

    const schema: JsonObject = typeof s.description === "string" ? { description: s.description } : {};
    if (value === undefined) return { kind: "object", fields, schema };
    if (fields.length === 0) return { kind: "map", key, value, schema };
    return { kind: "mixed", fields, key, value, schema };
  }

  /** An optional member that no value satisfies is simply never present: undefined, not a refusal. */
  private memberNode(
    view: View,
    name: string,
    sub: unknown,
    at: string,
    optional: boolean,
    own?: View,
  ): Node | undefined {
    const build = () => (own === undefined ? this.propertyNode(view, name, sub, at) : this.node(own));
    return optional ? this.satisfiable(build) : build();
  }

  /** The node `build` makes, or undefined when no value satisfies its schema. */
  private satisfiable(build: () => Node): Node | undefined {
    try {
      return build();
    } catch (error) {
      if (error instanceof SchemaRefusal && error.unsatisfiable) return undefined;
      throw error;
    }
  }

  /** A declared member's node; after a merge, the merge of every part that declared it. */
  private propertyNode(view: View, name: string, sub: unknown, at: string): Node {
    const parts = view.propertyParts?.get(name);
    if (parts === undefined || parts.length < 2)
      return this.node({ schema: sub, pointers: [parts?.[0]?.pointers[0] ?? at] });
    const merged = mergeViews(parts);
    if (merged === undefined)
      throw new SchemaRefusal("unsupported-schema", at, "the parts of this member have no type in common", true);
    return this.node(merged);
  }

  private keySchema(view: View, s: Schema): KeySchema {
    const key: KeySchema = { type: "string" };
    const names = s.propertyNames;
    if (names === undefined || names === true) return key;
    const pointer = primary(view);
    const target = this.options.target;
    if (isPlainObject(names) && Object.keys(names).every((k) => KEY_SCHEMA_KEYWORDS.has(k))) {
      if (typeof names.pattern === "string") {
        refuseUnsafePattern(names.pattern, `${pointer}/propertyNames`);
        if (target.keeps.string.has("pattern")) key.pattern = names.pattern;
        else this.relax(`${pointer}/propertyNames`, "pattern", "enforced by the final validation");
      }
      if (Array.isArray(names.enum) && names.enum.every((v) => typeof v === "string"))
        key.enum = names.enum as string[];
      if (typeof names.const === "string") key.const = names.const;
      for (const k of ["format", "minLength", "maxLength"]) {
        if (names[k] === undefined) continue;
        if (keepsStringKeyword(target, k, names[k])) key[k] = names[k] as JsonValue;
        else this.relax(`${pointer}/propertyNames`, k, "enforced by the final validation");
      }
      return key;
    }
    this.relax(pointer, "propertyNames", "member names are checked by the final validation");
    return key;
  }
}

/** Any JSON value: its recursive wire form, or JSON text where the target refuses recursion. */
function anyNode(schema: JsonObject, target: { readonly recursion: boolean }): Node {
  return target.recursion ? { kind: "any", schema } : jsonTextNode(schema);
}
