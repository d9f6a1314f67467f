/**
 * The intermediate representation: one normalized tree built once from the
 * source schema. The wire schema, the encoder, the decoder and inspection all
 * derive from it. It is plain JSON so that it travels in the bundle as the plan.
 */
import type { JsonObject, JsonType } from "../json.js";

/** How an optional member travels. */
export type Presence = "tagged" | "compact" | "native";

/** Values that travel as themselves: strings, numbers, booleans, null, enums, consts. */
export interface ScalarNode {
  readonly kind: "scalar";
  /** The wire schema fragment: the source keywords the target keeps. */
  readonly schema: JsonObject;
  readonly types: readonly JsonType[];
}

export interface ArrayNode {
  readonly kind: "array";
  readonly items: Node;
  /** Wire keywords kept on the array itself (minItems, maxItems, description). */
  readonly schema: JsonObject;
}

/** A member of an object. */
export interface Field {
  readonly name: string;
  readonly node: Node;
  readonly optional: boolean;
  /** Set for optional members only. */
  readonly presence?: Presence;
  /** Annotations (description, title) shown to the model on the member. */
  readonly annotations?: JsonObject;
}

/** A closed object: only declared members. */
export interface ObjectNode {
  readonly kind: "object";
  readonly fields: readonly Field[];
  readonly schema: JsonObject;
}

/** Constraint on dynamic member names, kept on the wire `key` where the target allows. */
export type KeySchema = JsonObject;

/** Dynamic members only: travels as an array of {key, value} entries. */
export interface MapNode {
  readonly kind: "map";
  readonly key: KeySchema;
  readonly value: Node;
  readonly schema: JsonObject;
}

/** Declared members plus dynamic ones: travels as {fields, entries}. */
export interface MixedNode {
  readonly kind: "mixed";
  readonly fields: readonly Field[];
  readonly key: KeySchema;
  readonly value: Node;
  readonly schema: JsonObject;
}

/**
 * How decoding tells union branches apart.
 * - same: every branch decodes identically, so which one matched does not matter;
 * - type: the wire JSON type names the branch;
 * - discriminator: a required constant member of object branches names it;
 * - tag: each branch travels as {branch: i, value}.
 */
export type UnionRule =
  | { readonly by: "same" }
  | { readonly by: "type"; readonly types: Readonly<Partial<Record<JsonType, number>>> }
  | { readonly by: "discriminator"; readonly field: string; readonly values: Readonly<Record<string, number>> }
  | { readonly by: "tag" };

export interface UnionNode {
  readonly kind: "union";
  readonly branches: readonly Node[];
  readonly rule: UnionRule;
  /**
   * Where each branch stands in the source: JSON Pointers written as URI
   * fragments (what `$ref` takes), all of which a value of the branch must
   * satisfy. Encode tries the branches a value satisfies first.
   */
  readonly branchSources: readonly (readonly string[])[];
  /** When set, the original JSON types each branch takes: encode picks by the value's type. */
  readonly branchTypes?: readonly (readonly JsonType[])[];
  readonly schema: JsonObject;
}

/** A use of a named definition (wire `$defs`), recursion included. */
export interface RefNode {
  readonly kind: "ref";
  readonly def: string;
}

/** Any JSON value, objects as entries: every value has an exact wire form. */
export interface AnyNode {
  readonly kind: "any";
  readonly schema: JsonObject;
}

/** Any JSON value carried as a JSON string, for targets that refuse recursion. */
export interface JsonTextNode {
  readonly kind: "json-text";
  readonly schema: JsonObject;
}

export type Node =
  | ScalarNode
  | ArrayNode
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

export interface Plan {
  readonly root: Node;
  readonly defs: Readonly<Record<string, Node>>;
  readonly relaxed: readonly RelaxedConstraint[];
  /** IR nodes built, the figure the expansion budget counts. */
  readonly nodes: number;
}
