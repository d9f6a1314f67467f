/** Scalars, enums and consts travel as themselves: encode and decode are the identity. */

import type { ScalarNode } from "../ir/nodes.js";
import type { JsonObject, JsonType } from "../json.js";
import { jsonTypeOf } from "../json.js";
import { type Fail, failAt, type WalkContext } from "./context.js";

export function scalarWire(node: ScalarNode): JsonObject {
  return { ...node.schema };
}

export function scalarWireTypes(node: ScalarNode): readonly JsonType[] {
  return node.types;
}

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
