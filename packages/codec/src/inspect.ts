/**
 * Inspection: what a bundle costs and how each member travels. Pure data, so
 * that a CLI can print it for people or as JSON, and a test can assert on it.
 * Token counts are the caller's: the codec carries no tokenizer.
 */
import type { Bundle, BundleOptions } from "./bundle/bundle.js";
import { type CompileOptions, compile } from "./compile.js";
import { compilerOf } from "./constructs/compile/registry.js";
import { constructOf } from "./constructs/registry.js";
import type { Child } from "./ir/children.js";
import type { KeySchema, Node, Presence, RelaxedConstraint, UnionRule } from "./ir/nodes.js";
import type { JsonValue } from "./json.js";
import { utf8Length } from "./parse/utf8.js";

export interface InspectOptions {
  /** Counts the tokens of a JSON text; sizes carry no token count without it. */
  readonly countTokens?: (text: string) => number;
}

/** The size of one JSON document, written compactly (JSON.stringify). */
export interface Size {
  readonly bytes: number;
  readonly tokens?: number;
}

export interface Sizes {
  readonly source: Size;
  readonly wire: Size;
  /** Wire size over source size, to two decimals. */
  readonly ratio: { readonly bytes: number; readonly tokens?: number };
  /** The wire compiled with `factored: true`; null when that compile fails. */
  readonly factored: Size | null;
}

/** One position of the plan, as it travels. */
export interface TravelNode {
  /** Where it sits under its parent: a member name, "[]" for items, "{}" for dynamic members, "|0" for a branch. */
  readonly at: string;
  readonly kind: Node["kind"];
  /** What values it holds, briefly: "string", "integer | null", "enum (3)", "object", "→ Tree". */
  readonly type: string;
  /** How it is written on the wire, briefly; "" when it travels as itself. */
  readonly travels: string;
  /** Members only: whether the member may be left out, and then how absence travels. */
  readonly optional?: boolean;
  readonly presence?: Presence;
  /** Unions only. */
  readonly rule?: UnionRule["by"];
  readonly discriminator?: string;
  /** References only: the wire definition. */
  readonly def?: string;
  /** Maps and mixed objects: the constraint on dynamic member names. */
  readonly key?: KeySchema;
  readonly children: readonly TravelNode[];
}

export interface Inspection {
  readonly name: string;
  readonly digest: string;
  readonly options: BundleOptions;
  readonly sizes: Sizes;
  readonly relaxed: readonly RelaxedConstraint[];
  /** IR nodes built: the figure the expansion budget counts. */
  readonly nodes: number;
  readonly tree: TravelNode;
  readonly defs: readonly { readonly name: string; readonly tree: TravelNode }[];
}

export function inspect(bundle: Bundle, options: InspectOptions = {}): Inspection {
  const plan = bundle.plan;
  return {
    name: bundle.name,
    digest: bundle.digest,
    options: bundle.options,
    sizes: sizesOf(bundle, options.countTokens),
    relaxed: plan.relaxed,
    nodes: plan.nodes,
    tree: travelTree("arguments", plan.root),
    defs: Object.keys(plan.defs)
      .sort()
      .map((name) => ({ name, tree: travelTree(name, plan.defs[name]!) })),
  };
}

function sizesOf(bundle: Bundle, countTokens: InspectOptions["countTokens"]): Sizes {
  const source = sizeOf(bundle.source, countTokens);
  const wire = sizeOf(bundle.wire, countTokens);
  const factoredWire = bundle.options.factored ? bundle.wire : factoredWireOf(bundle);
  const ratio = {
    bytes: round2(wire.bytes / source.bytes),
    ...(wire.tokens !== undefined && source.tokens ? { tokens: round2(wire.tokens / source.tokens) } : {}),
  };
  return {
    source,
    wire,
    ratio,
    factored: factoredWire === undefined ? null : sizeOf(factoredWire, countTokens),
  };
}

/** The same source and options, compiled again with factoring on. */
function factoredWireOf(bundle: Bundle): JsonValue | undefined {
  const again = compile(bundle.source, { ...compileOptionsOf(bundle), factored: true });
  return again.ok ? again.value.wire : undefined;
}

/** The options a bundle was compiled with: compiling its source with them again gives the same bundle. */
export function compileOptionsOf(bundle: Bundle): CompileOptions {
  const { target, presence, tags, openObjects, factored, dialect } = bundle.options;
  return {
    name: bundle.name,
    ...(bundle.description !== undefined ? { description: bundle.description } : {}),
    target,
    presence,
    tags,
    openObjects,
    factored,
    ...(dialect !== undefined ? { dialect } : {}),
    limits: bundle.limits,
  };
}

function sizeOf(value: JsonValue, countTokens: InspectOptions["countTokens"]): Size {
  const text = JSON.stringify(value);
  const bytes = utf8Length(text);
  return countTokens === undefined ? { bytes } : { bytes, tokens: countTokens(text) };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

// ---- the tree ------------------------------------------------------------

/** Each construct says how it travels; the walk adds positions, membership and children. */
function travelTree(at: string, node: Node): TravelNode {
  const construct = constructOf(node);
  const { type, travels, extra } = compilerOf(node).describe(node);
  return {
    at,
    kind: node.kind,
    type,
    travels,
    ...extra,
    children: construct.children(node).map(childTree),
  };
}

function childTree(child: Child): TravelNode {
  const base = travelTree(child.at, child.node);
  const field = child.field;
  if (field === undefined) return base;
  const membership = field.optional
    ? { optional: true, ...(field.presence !== undefined ? { presence: field.presence } : {}) }
    : { optional: false };
  return { ...base, ...membership };
}
