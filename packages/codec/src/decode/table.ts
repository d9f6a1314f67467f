/**
 * The node table a generated decoder calls `X` and `DISC` with, written as
 * places in the plan: a module carries the places, not the nodes, and finds
 * them again in the plan it loads (whose digest its validators are tied to).
 */
import type { Node, Plan } from "../ir/nodes.js";

/** A node's place in a plan: member names and item indexes from `{ root, defs }`. */
export type NodePlace = readonly (string | number)[];

/** Each node's place, or undefined where one is not inside the plan (the module then carries no decoder). */
export function placesOf(plan: Plan, table: readonly Node[]): NodePlace[] | undefined {
  const places = new Map<object, NodePlace>();
  const work: [unknown, NodePlace][] = [
    [plan.root, ["root"]],
    [plan.defs, ["defs"]],
  ];
  while (work.length > 0) {
    const [value, place] = work.pop()!;
    if (typeof value !== "object" || value === null || places.has(value)) continue;
    places.set(value, place);
    // An array's entries are its indexes, as strings: reading them back is the same.
    for (const [name, item] of Object.entries(value)) work.push([item, [...place, name]]);
  }
  const out: NodePlace[] = [];
  for (const node of table) {
    const place = places.get(node);
    if (place === undefined) return undefined;
    out.push(place);
  }
  return out;
}

/** The nodes at `places` in `plan`, or undefined where a place holds no node (a module from another plan). */
export function nodesAt(plan: Plan, places: readonly NodePlace[]): Node[] | undefined {
  const from = { root: plan.root, defs: plan.defs } as Record<string, unknown>;
  const nodes: Node[] = [];
  for (const place of places) {
    let at: unknown = from;
    for (const step of place) {
      if (typeof at !== "object" || at === null || !Object.hasOwn(at, step)) return undefined;
      at = (at as Record<string | number, unknown>)[step];
    }
    if (typeof at !== "object" || at === null || typeof (at as { kind?: unknown }).kind !== "string") return undefined;
    nodes.push(at as Node);
  }
  return nodes;
}
