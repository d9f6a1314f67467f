/** A scalar's partial: itself (the construct is ../scalar.ts). */

import type { ScalarNode } from "../../ir/nodes.js";
import type { ConstructStreamer } from "./construct.js";

export const scalarStreamer: ConstructStreamer<ScalarNode> = {
  kind: "scalar",
  // As itself: a string being written shows its prefix (numbers appear only once complete).
  partial: (_node, wire) => wire,
};
