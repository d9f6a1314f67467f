/**
 * The intermediate representation: one normalized tree built once from the
 * source schema. The wire schema, the encoder, the decoder and inspection all
 * derive from it. It is plain JSON so that it travels in the bundle as the plan.
 *
 * Each node kind is described once, as a shape (`shape.ts`): its TypeScript
 * type is inferred from it, and the plan check at load runs it on a plan read
 * from an untrusted bundle. Changing a shape changes the bundle format: a new
 * `BUNDLE_FORMAT` (`bundle/bundle.ts`).
 */
import { isPlainObject, JSON_TYPES, type JsonObject, type JsonType } from "../json.js";
import { inlineObject } from "./inline.js";
import {
  bad,
  boolean,
  type Check,
  type CheckContext,
  child,
  type Infer,
  index,
  json,
  list,
  type ObjectOf,
  OK,
  object,
  oneOf,
  optional,
  record,
  type Shape,
  string,
  tag,
  variant,
} from "./shape.js";

const PRESENCES = ["tagged", "inline", "compact", "native"] as const;

/**
 * How an optional member travels: `tagged` in a tag with its value under
 * `value`; `inline`, a closed object's tag written among its own members (no
 * extra nesting level); `compact`, null for absent; `native`, left out.
 */
export type Presence = (typeof PRESENCES)[number];

const presence: Shape<Presence | undefined> & { readonly optional: true } = {
  check: (v, at) => (v === undefined || PRESENCES.includes(v as Presence) ? OK : bad(at, "unknown presence")),
  optional: true,
};

/** Values that travel as themselves: strings, numbers, booleans, null, enums, consts. */
export const scalarShape = object({
  kind: tag("scalar"),
  /** The wire schema fragment: the source keywords the target keeps. */
  schema: json(),
  types: list(oneOf(JSON_TYPES, "expected type names"), "expected type names"),
});

export const arrayShape = object({
  kind: tag("array"),
  items: child(),
  /** Wire keywords kept on the array itself (minItems, maxItems, description). */
  schema: json(),
});

const TAG_SPELLINGS = ["minimal"] as const;

/**
 * A member of an object: `presence` is set for optional members only;
 * `tags: "minimal"` spells its tags `{}` / `{"value": …}` instead of
 * `{"state":"absent"}` / `{"state":"present","value": …}`; `annotations`
 * (description, title) are shown to the model on it.
 */
const fieldShape = object(
  {
    name: string(),
    node: child(),
    optional: boolean(),
    presence,
    tags: optional(oneOf(TAG_SPELLINGS, "unknown tag spelling")),
    annotations: optional(json()),
  },
  {
    reason: "expected a field",
    refine: (f, at) => {
      if (f.optional && f.presence === undefined) return bad(`${at}/presence`, "unknown presence");
      // An inline tag sits among the member's own members: only a closed object (or null | object) has them.
      if (f.presence === "inline" && (!isPlainObject(f.node) || inlineObject(f.node as unknown as Node) === undefined))
        return bad(`${at}/presence`, "inline presence needs an object member");
      return OK;
    },
  },
);

const fields = list(fieldShape, "expected an array");

/** Each field name once in an object's plan. */
function distinctFieldNames(node: { readonly fields: readonly { readonly name: string }[] }, at: string): Check {
  const names = new Set<string>();
  for (const [i, f] of node.fields.entries()) {
    if (names.has(f.name)) return bad(`${at}/fields/${i}`, "a field name appears twice");
    names.add(f.name);
  }
  return OK;
}

/** A closed object: only declared members. */
export const objectShape = object({ kind: tag("object"), schema: json(), fields }, { refine: distinctFieldNames });

/** Dynamic members only: travels as an array of {key, value} entries; `key` constrains their names. */
export const mapShape = object({ kind: tag("map"), schema: json(), key: json(), value: child() });

/** Declared members plus dynamic ones: travels as {fields, entries}. */
export const mixedShape = object(
  { kind: tag("mixed"), schema: json(), key: json(), value: child(), fields },
  { refine: distinctFieldNames },
);

const OUT_OF_RANGE = "branch out of range";

/**
 * How decoding tells union branches apart.
 * - same: every branch decodes identically, so which one matched does not matter;
 * - type: the wire JSON type names the branch;
 * - discriminator: a required constant member of object branches names it;
 * - tag: each branch travels as {branch: i, value}.
 */
const ruleShape = variant(
  "by",
  {
    same: object({}),
    type: object({ types: record<JsonType, number>(index(), OUT_OF_RANGE) }, { reason: OUT_OF_RANGE }),
    discriminator: object(
      { field: string(), values: record<string, number>(index(), OUT_OF_RANGE) },
      { reason: OUT_OF_RANGE },
    ),
    tag: object({}),
  },
  { notObject: "expected a rule", unknown: "unknown rule" },
);

const SOURCES = "one non-empty list of pointers per branch";
const TYPES = "one list of JSON types per branch";

function unionRules(node: ObjectOf<typeof unionMembers>, at: string): Check {
  const count = node.branches.length;
  if (node.branchSources.length !== count) return bad(`${at}/branchSources`, SOURCES);
  if (node.branchTypes !== undefined && node.branchTypes.length !== count) return bad(`${at}/branchTypes`, TYPES);
  const rule = node.rule;
  const inRange = (i: number | undefined) => i === undefined || i < count;
  if (rule.by === "type" && !Object.values(rule.types).every(inRange)) return bad(`${at}/rule`, OUT_OF_RANGE);
  if (rule.by === "discriminator" && !Object.values(rule.values).every(inRange)) return bad(`${at}/rule`, OUT_OF_RANGE);
  return OK;
}

const unionMembers = {
  kind: tag("union"),
  schema: json(),
  branches: list(child(), "expected branches", { nonEmpty: true }),
  /**
   * Where each branch stands in the source: JSON Pointers written as URI
   * fragments (what `$ref` takes), all of which a value of the branch must
   * satisfy. Encode tries the branches a value satisfies first.
   */
  branchSources: list(list(string(), SOURCES, { nonEmpty: true }), SOURCES),
  /** When set, the original JSON types each branch takes: encode picks by the value's type. */
  branchTypes: optional(list(list(oneOf(JSON_TYPES, TYPES), TYPES), TYPES)),
  rule: ruleShape,
};

export const unionShape = object(unionMembers, { refine: unionRules });

/** A use of a named definition (wire `$defs`), recursion included. */
export const refShape = object(
  { kind: tag("ref"), def: string("names no definition") },
  {
    refine: (node, at, ctx: CheckContext) =>
      Object.hasOwn(ctx.defs, node.def) ? OK : bad(`${at}/def`, "names no definition"),
  },
);

/** Any JSON value, objects as entries: every value has an exact wire form. */
const TUPLE_FORMS = ["array", "object"] as const;

/** Positions are named by their index, in order, and the optional ones (past minItems) come last. */
function positionsInOrder(
  node: { readonly positions: readonly { name: string; optional: boolean }[] },
  at: string,
): Check {
  let optionalSeen = false;
  for (const [i, p] of node.positions.entries()) {
    if (p.name !== String(i)) return bad(`${at}/positions/${i}/name`, "a position is named by its index");
    if (optionalSeen && !p.optional) return bad(`${at}/positions/${i}`, "a required position after an optional one");
    optionalSeen ||= p.optional;
  }
  return OK;
}

export const tupleShape = object(
  {
    kind: tag("tuple"),
    /** Wire keywords kept on the tuple itself (the array form's counts, a description). */
    schema: json(),
    /** One field per position, named by its index; optional past the source's minItems. */
    positions: list(fieldShape, "expected positions", { nonEmpty: true }),
    /** The elements after the positions; absent: there are none. */
    rest: optional(child()),
    /** How it travels: an array with prefixItems, or a closed object of one member per position. */
    form: oneOf(TUPLE_FORMS, "unknown tuple form"),
  },
  { refine: positionsInOrder },
);

export const anyShape = object({ kind: tag("any"), schema: json() });

/** Any JSON value carried as a JSON string, for targets that refuse recursion. */
export const jsonTextShape = object({ kind: tag("json-text"), schema: json() });

/**
 * Each node kind's shape: the plan check at load runs the one its node's
 * `kind` names (bundle/check.ts). Only the JSON loaders import it: a bundle
 * that loads generated modules alone leaves this file out, shapes and all.
 */
export const NODE_SHAPES: { readonly [K in Node["kind"]]: Shape<unknown> } = {
  scalar: scalarShape,
  array: arrayShape,
  tuple: tupleShape,
  object: objectShape,
  map: mapShape,
  mixed: mixedShape,
  union: unionShape,
  ref: refShape,
  any: anyShape,
  "json-text": jsonTextShape,
};

export interface ScalarNode extends Infer<typeof scalarShape, Node> {}
export interface ArrayNode extends Infer<typeof arrayShape, Node> {}
export interface Field extends Infer<typeof fieldShape, Node> {}
export interface ObjectNode extends Infer<typeof objectShape, Node> {}
/** Constraint on dynamic member names, kept on the wire `key` where the target allows. */
export type KeySchema = JsonObject;
export interface MapNode extends Infer<typeof mapShape, Node> {}
export interface MixedNode extends Infer<typeof mixedShape, Node> {}
export type UnionRule = Infer<typeof ruleShape, Node>;
export interface UnionNode extends Infer<typeof unionShape, Node> {}
export interface RefNode extends Infer<typeof refShape, Node> {}
export interface TupleNode extends Infer<typeof tupleShape, Node> {}
export interface AnyNode extends Infer<typeof anyShape, Node> {}
export interface JsonTextNode extends Infer<typeof jsonTextShape, Node> {}

export type Node =
  | ScalarNode
  | ArrayNode
  | TupleNode
  | ObjectNode
  | MapNode
  | MixedNode
  | UnionNode
  | RefNode
  | AnyNode
  | JsonTextNode;

/** A keyword left off the wire and enforced by the final validation. */
export interface RelaxedConstraint {
  /** JSON Pointer to the schema that carries it, in the source. */
  readonly path: string;
  readonly keyword: string;
  readonly reason: string;
}

/**
 * How the wire value holds the arguments: `bare`, it is the arguments object
 * itself (an object root); `arguments`, it is `{"arguments": …}` (any other
 * root: providers take only an object at the top).
 */
export type Envelope = "bare" | "arguments";

export interface Plan {
  readonly root: Node;
  readonly envelope: Envelope;
  readonly defs: Readonly<Record<string, Node>>;
  readonly relaxed: readonly RelaxedConstraint[];
  /** IR nodes built, the figure the expansion budget counts. */
  readonly nodes: number;
}
