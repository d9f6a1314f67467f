/**
 * What every construct provides, in one interface. A construct is one node
 * kind of the plan: how it travels (wire shape, encode, decode), what it holds
 * (children, for every generic walk), and how the tools around the codec read
 * it (error paths, the plan check at load, inspection, emitted types).
 * The one table of constructs is `registry.ts`.
 */

import type { Code } from "../code.js";
import type { PathStep } from "../errors.js";
import type { Child, Defs } from "../ir/children.js";
import type { Node } from "../ir/nodes.js";
import type { Check, CheckContext } from "../ir/shape.js";
import type { JsonObject, JsonType } from "../json.js";
import type {
  Absent,
  EncodeContext,
  Fail,
  PartialContext,
  PartialMemo,
  Rendered,
  TypeContext,
  Walk,
  WalkContext,
  WireContext,
} from "./context.js";
import type { DecodeGenerator } from "./decode-generator.js";

/** Where a wire pointer walk stands: the wire tokens, the next one to read, the wire value there. */
export interface PathWalk {
  readonly tokens: readonly string[];
  readonly i: number;
  readonly value: unknown;
  readonly defs: Defs;
  /** The walk itself, for a construct whose step is one of its children's (a union without a tag). */
  wireStep(node: Node, walk: PathWalk): WireStep | undefined;
}

/**
 * One step of a wire pointer walk: the original path's step it adds (an
 * element's index as a number, a member's name as a string; none for a
 * reference), and where it leads.
 */
export interface WireStep {
  readonly step?: PathStep;
  readonly node: Node | undefined;
  readonly value: unknown;
  readonly next: number;
}

/** How inspection shows a node (its position and children are added by the walk). */
export interface Described {
  /** What values it holds, briefly: "string", "integer | null", "enum (3)", "object", "→ Tree". */
  readonly type: string;
  /** How it is written on the wire, briefly; "" when it travels as itself. */
  readonly travels: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface Construct<N extends Node = Node> {
  readonly kind: N["kind"];
  /**
   * Its children read the very value it reads, no structure between (a
   * union's branches): a loop through such positions alone never ends.
   */
  readonly inPlace?: boolean;
  /** The direct sub-nodes, in document order; members carry their field. */
  children(node: N): readonly Child[];
  /** The same node with each child replaced by `f` of it (a member's field too). */
  mapChildren(node: N, f: (child: Child) => Child): N;
  /** The wire schema fragment. */
  wire(node: N, wctx: WireContext): JsonObject;
  encode(node: N, value: unknown, ctx: EncodeContext): unknown | Fail;
  decode(node: N, wire: unknown, ctx: WalkContext): unknown | Fail;
  /**
   * The body of its generated decode function (see decode-generator.ts): the
   * same acceptance as `decode`, plus the parser's checks on what it reads.
   * A construct that leaves a value to the interpreted walk says so in its
   * body (`X`, behind the parser's checks).
   */
  generateDecode(node: N, e: DecodeGenerator): Code;
  /** An object's generated decode of an inline presence tag's members (`state` beside them). */
  generateInlineDecode?(node: N, e: DecodeGenerator): Code;
  /** The JSON types its wire values can have; `seen` holds the definitions being followed. */
  wireTypes(node: N, defs: Defs, seen: Set<string>, walk: Walk): readonly JsonType[];
  /** Whether decoding returns the wire value unchanged ("no" is always safe). */
  identity(node: N, defs: Defs, walk: Walk): boolean;
  /**
   * Object levels its wire form puts around its children (an object 1, a map's
   * entry 1, a mixed object's `fields`/entries 2, a tagged union 1), for the
   * depth budget; absent means none.
   */
  levels?(node: N): number;
  /** Decisions that need the settled children (a union's rule), made once at compile. */
  settle?(node: N, defs: Defs, unsettled: ReadonlySet<string>, walk: Walk): N;
  /** One step of translating a wire pointer to an original one; undefined stops there. */
  wireStep(node: N, walk: PathWalk): WireStep | undefined;
  /**
   * Whether its wire members are the original's own names (an object, a
   * union of objects without a tag): an undeclared member's name is then the
   * model's own. Absent: no.
   */
  namesMembers?(node: N): boolean;
  /** Whether its wire form is an object the provider takes at the top (then the root travels bare). Absent: no. */
  readonly bare?: boolean;
  /** The plan check at load: this kind's own members (children are queued through `ctx`). */
  check(node: Readonly<Record<string, unknown>>, at: string, ctx: CheckContext): Check;
  describe(node: N): Described;
  /** The TypeScript type of its decoded values. */
  tsType(node: N, ctx: TypeContext): Rendered;
  /**
   * The streaming decoder's partial source value for a wire value still being
   * written (stream/decoder.ts), or ABSENT for nothing to show yet. `memo`
   * holds what it showed for this same wire container at the last push: a
   * container's partial is that value updated in place, reading only what
   * the push added, so streaming costs linear time. Display only, never
   * validated: it may show what decode then refuses.
   */
  partial(node: N, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown | Absent;
}

export type { Check, CheckContext } from "../ir/shape.js";
