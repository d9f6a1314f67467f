/**
 * Which optional members can carry their presence tag inline: among the
 * members of their own closed object, adding no nesting level.
 */
import type { Field, Node, ObjectNode } from "./nodes.js";

/**
 * The closed object an inline tag sits in: the member's object itself, or
 * the one object branch of a union whose other branches never travel as an
 * object (null, scalars, arrays: a nullable object, an untyped schema with
 * `properties`). Those values then travel as themselves beside the two
 * tagged forms, and the JSON type tells them apart. Written for plans read
 * from untrusted bundles too: it checks what it reads.
 */
export function inlineObject(node: Node): ObjectNode | undefined {
  if (node.kind === "object") return node;
  if (node.kind !== "union" || !Array.isArray(node.branches)) return undefined;
  const branches = node.branches as readonly (Node | undefined)[];
  const at = branches.findIndex((b) => b?.kind === "object");
  if (at === -1 || !branches.every((b, i) => i === at || neverObject(b))) return undefined;
  const rule = node.rule as { by?: unknown; types?: Record<string, unknown> } | undefined;
  // Decode must send every wire object to that branch: by JSON type, or all branches alike.
  if (rule?.by === "type" ? rule.types?.object !== at : rule?.by !== "same") return undefined;
  return branches[at] as ObjectNode;
}

/** Whether the values an inline union writes beside its tags are only null. */
export function onlyNullBeside(node: Node): boolean {
  return node.kind === "union" && node.branches.every((b) => b.kind === "object" || isNull(b));
}

/*
 * Read by kind, not by a construct member, on purpose: this runs in the plan
 * check at load (ir/nodes.ts), below the constructs, on untrusted nodes. Any
 * kind not named here counts as possibly an object, so a new kind needs no
 * edit here: its union only keeps the tagged form.
 */
function neverObject(node: Node | undefined): boolean {
  if (node?.kind === "array") return true;
  return node?.kind === "scalar" && Array.isArray(node.types) && !node.types.includes("object");
}

function isNull(node: Node): boolean {
  return node.kind === "scalar" && node.types.length === 1 && node.types[0] === "null";
}

/**
 * Whether an object's members leave room for the tag: one the wire always
 * writes (so present is never `{}`), and, for the state spelling, none named
 * `state`.
 */
export function canInline(fields: readonly Field[], minimal: boolean): boolean {
  if (!fields.some((f) => !f.optional || f.presence !== "native")) return false;
  return minimal || !fields.some((f) => f.name === "state");
}
