/** Scalars, enums and consts travel as themselves: encode and decode are the identity. */

import type { ScalarNode } from "../ir/nodes.js";
import { jsonTypeOf } from "../json.js";
import type { Construct } from "./construct.js";
import { type Fail, failAt, type WalkContext } from "./context.js";

/** Both directions: the value is its own wire form, if its JSON type fits. */
export function scalarCode(
  node: ScalarNode,
  value: unknown,
  ctx: WalkContext,
  code: "invalid-value" | "wire-violation",
): unknown | Fail {
  const t = jsonTypeOf(value);
  if (t !== undefined && node.types.includes(t)) return value;
  return failAt(ctx, code, `expected ${node.types.join(" or ")}`);
}

export const scalar: Construct<ScalarNode> = {
  kind: "scalar",
  children: () => [],
  encode: (node, value, ctx) => scalarCode(node, value, ctx, "invalid-value"),
  decode: (node, wire, ctx) => scalarCode(node, wire, ctx, "wire-violation"),
  wireTypes: (node) => node.types,
  identity: () => true,
  wireStep: () => undefined,
};
