/**
 * What both directions of every construct share: the definitions to follow
 * references through, the path walked so far (in the original value's terms,
 * for error messages), and the first error met. Run time only: what the
 * compile-time halves are given (the wire schema's context, the types
 * writer's) is compile/context.ts; what the stream halves are given (the
 * partial's context and memo), stream/context.ts.
 *
 * The walkers return FAIL instead of throwing: failures on model output are
 * expected, and a sentinel costs nothing on the success path.
 */
import { type CodecError, type PathStep, pointerToken } from "../errors.js";
import { fail, type WordedCode } from "../feedback/format.js";
import type { Child, Defs } from "../ir/children.js";
import type { Node, UnionNode } from "../ir/nodes.js";
import type { JsonType } from "../json.js";
import type { ParseLimits } from "../parse/parser.js";

export const FAIL: unique symbol = Symbol("strictwire.fail");
export type Fail = typeof FAIL;

/** An optional member that is not there. */
export const ABSENT: unique symbol = Symbol("strictwire.absent");
export type Absent = typeof ABSENT;

/**
 * How a construct reaches its children, whatever their kind: the registry's
 * walks, handed down through the contexts (and to the defs-only members as a
 * parameter), so a construct imports no table. The registry provides the one
 * instance, `WALK`; its encode and decode are its direct-call switches.
 */
export interface Walk {
  encode(node: Node, value: unknown, ctx: EncodeContext): unknown | Fail;
  decode(node: Node, wire: unknown, ctx: WalkContext): unknown | Fail;
  wireTypes(node: Node, defs: Defs, seen: Set<string>): readonly JsonType[];
  /** Whether decoding returns the wire value unchanged ("no" is always safe). */
  identity(node: Node, defs: Defs): boolean;
  children(node: Node): readonly Child[];
}

export interface WalkContext {
  readonly defs: Readonly<Record<string, Node>>;
  /** The walk to a child. */
  readonly walk: Walk;
  /** Path tokens of the original value being walked. */
  readonly path: (string | number)[];
  error: CodecError | undefined;
  /** Limits for JSON text carried inside the wire (json-text nodes). */
  readonly limits: ParseLimits;
  /**
   * Whether a value read through the branch a union's wire names is one that
   * branch's source schema takes (its source pointers): the contract's other
   * branches do not speak for it. Undefined: not asked (encode, trials).
   */
  readonly holds?: BranchHolds | undefined;
}

/** Whether a value satisfies every source location of a branch (true where that cannot be told). */
export type BranchHolds = (pointers: readonly string[], value: unknown) => boolean;

export interface EncodeContext extends WalkContext {
  /** Branch indices to try for a value, best first. */
  branchOrder(node: UnionNode, value: unknown): readonly number[];
  /** The bundle's openObjects, for advice on a member that cannot travel. */
  readonly openObjects?: "close" | "preserve";
}

function pathOf(ctx: WalkContext, token?: string | number): string {
  let out = "";
  for (const t of ctx.path) out += `/${pointerToken(t)}`;
  if (token !== undefined) out += `/${pointerToken(token)}`;
  return out;
}

/**
 * Set as ctx.error while a union tries branches whose failures are thrown
 * away: failAt sees an error already recorded and words nothing, so a trial
 * that fails costs no strings or paths. Never returned to a caller.
 */
export const TRIAL: CodecError = Object.freeze(fail("wire-violation", "", "a discarded trial").error);

/**
 * Record the first failure at the current path (plus one token) and return
 * FAIL. The failure is also an Issue with its path as steps (a map key "0"
 * stays the string "0"), so it joins the one error model.
 */
export function failAt(ctx: WalkContext, code: WordedCode, message: string, token?: string | number): Fail {
  if (ctx.error === undefined) {
    const path = pathOf(ctx, token);
    const at: readonly PathStep[] = token === undefined ? [...ctx.path] : [...ctx.path, token];
    const issues = [{ path, at, keyword: code, message }];
    ctx.error = fail(code, path, message, { issues, tree: issues }).error;
  }
  return FAIL;
}
