/** A reference's partial: its definition's (the construct is ../reference.ts). */

import type { RefNode } from "../../ir/nodes.js";
import { referent } from "../reference.js";
import type { ConstructStreamer } from "./construct.js";

export const referenceStreamer: ConstructStreamer<RefNode> = {
  kind: "ref",
  partial: (node, wire, ctx) => ctx.child(referent(node, ctx.defs), wire),
};
