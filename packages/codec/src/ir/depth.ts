/**
 * The depth budget. A provider limits object nesting (OpenAI: 10 levels),
 * counted on the wire schema, each definition from its own root. A member's
 * presence tag (`{"state":"present","value": …}`) is one more object level
 * around its value; where that level would take the wire past the limit and
 * the member can never be null, the member travels compact instead (null for
 * absent), which is exact and adds nothing; a nullable object member (any
 * union of one closed object and values that are no object) carries its tag
 * inline instead, those values written as themselves beside the two tagged
 * forms. Outer members are moved first: one move there lowers everything
 * beneath it.
 */

import type { Child, Defs, NodeKinds } from "./children.js";
import { canInline, inlineObject } from "./inline.js";
import type { Field, Node, Plan } from "./nodes.js";

export function fitDepth(plan: Plan, maxNesting: number | undefined, kinds: NodeKinds): Plan {
  if (maxNesting === undefined) return plan;
  const heights = new WeakMap<Node, number>();

  /** Object levels at and beneath a node's position, as its members travel now. */
  const height = (node: Node): number => {
    const known = heights.get(node);
    if (known !== undefined) return known;
    // A reference is a definition, counted from its own root.
    let below = 0;
    if (node.kind !== "ref") {
      for (const c of kinds.children(node)) below = Math.max(below, tagLevels(c.field) + height(c.node));
    }
    const h = kinds.levels(node) + below;
    heights.set(node, h);
    return h;
  };

  const canBeNull = (node: Node, defs: Defs): boolean => kinds.wireTypes(node, defs, new Set()).includes("null");

  /** The node with its members' presence fitted; `above` object levels enclose its position. */
  const fit = (node: Node, above: number, defs: Defs): Node => {
    if (node.kind === "ref" || above + height(node) <= maxNesting) return node;
    const inner = above + kinds.levels(node);
    return kinds.mapChildren(node, (child: Child): Child => {
      let field = child.field;
      if (field !== undefined && tagLevels(field) === 1 && inner + 1 + height(child.node) > maxNesting) {
        field = flattened(field, child.node, defs);
      }
      const node = fit(child.node, inner + tagLevels(field), defs);
      return field === undefined ? { ...child, node } : { ...child, node, field: { ...field, node } };
    });
  };

  /**
   * The member without its tag's level: compact where null is free to mean
   * absent; inline, with its other values beside the two tags, for a nullable object.
   */
  const flattened = (field: Field, node: Node, defs: Defs): Field => {
    if (!canBeNull(node, defs)) {
      const { tags: _spelling, ...rest } = field;
      return { ...rest, presence: "compact" };
    }
    const object = inlineObject(node);
    if (object !== undefined && object !== node && canInline(object.fields, field.tags === "minimal")) {
      return { ...field, presence: "inline" };
    }
    return field;
  };

  const defs: Record<string, Node> = { ...plan.defs };
  for (const name of Object.keys(defs)) defs[name] = fit(defs[name]!, 0, plan.defs);
  const root = fit(plan.root, plan.envelope === "arguments" ? 1 : 0, plan.defs);
  return { ...plan, root, defs };
}

/** The object levels a member's presence puts around its value: a tag with `value` is one. */
function tagLevels(field: Field | undefined): number {
  return field?.optional === true && field.presence === "tagged" ? 1 : 0;
}
