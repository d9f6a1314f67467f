/**
 * Recursion on targets that refuse recursive schemas. A definition that can
 * reach itself through references has no finite wire form there, so every
 * reference into it travels as JSON text, read back by the same bounded
 * parser, and the final validation enforces its schema. Definitions nothing
 * references any more are dropped.
 */

import { isPlainObject, type JsonObject, setOwn } from "../json.js";
import { type Child, type NodeKinds, refsOf } from "./children.js";
import type { JsonTextNode, Node, Plan, RelaxedConstraint } from "./nodes.js";

export interface CycleTarget {
  readonly name: string;
  readonly recursion: boolean;
}

/** Where a definition stands in the source, and its schema there. */
export interface DefSource {
  readonly pointer: string;
  readonly schema: unknown;
}

/** Longest source schema spelt out in a description; past it the model gets only the name. */
const MAX_SCHEMA_TEXT = 4000;
/** Members of a described schema that say nothing about its values. */
const UNSAID = new Set(["$defs", "definitions", "$schema", "$id", "$comment", "examples"]);

/** A node for a JSON value carried as text; `what` says what the text must hold. */
export function jsonTextNode(annotations: JsonObject, what = "Any JSON value"): JsonTextNode {
  const said = typeof annotations.description === "string" ? `${annotations.description} ` : "";
  return { kind: "json-text", schema: { ...annotations, description: `${said}${what}, written as JSON text.` } };
}

/**
 * `sources` says where each definition stands in the source: what is relaxed
 * names the place, and JSON text names the schema its value must match.
 */
export function breakCycles(
  plan: Plan,
  target: CycleTarget,
  sources: ReadonlyMap<string, DefSource>,
  kinds: NodeKinds,
): Plan {
  const recursive = target.recursion ? new Set<string>() : recursiveDefs(plan.defs, kinds);
  const what = new Map([...recursive].map((name) => [name, heldBy(name, sources.get(name))]));
  const rewrite = (node: Node): Node => rewriteNode(node, what, kinds);
  const root = rewrite(plan.root);
  const defs: Record<string, Node> = {};
  for (const name of reachable(root, plan.defs, what, kinds)) defs[name] = rewrite(plan.defs[name]!);
  const relaxed: RelaxedConstraint[] = [...plan.relaxed];
  for (const name of recursive) {
    relaxed.push({
      path: sources.get(name)?.pointer ?? "",
      keyword: "$ref",
      reason: `a recursive definition, which the ${target.name} target does not take: its values travel as JSON text, enforced by the final validation`,
    });
  }
  return { ...plan, root, defs, relaxed };
}

/** What JSON text standing for a definition must hold: its schema, when short enough to say. */
function heldBy(name: string, source: DefSource | undefined): string {
  const schema = source?.schema;
  if (!isPlainObject(schema)) return `A ${name} value`;
  const said: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (!UNSAID.has(k)) setOwn(said, k, v);
  const text = JSON.stringify(said);
  return text.length <= MAX_SCHEMA_TEXT ? `A ${name} value (JSON Schema ${text})` : `A ${name} value`;
}

// ---- the reference graph --------------------------------------------------

/**
 * Definitions on a cycle: Tarjan's strongly connected components, kept
 * iterative because a long chain of references must not grow the stack.
 */
export function recursiveDefs(defs: Readonly<Record<string, Node>>, kinds: NodeKinds): Set<string> {
  const edges = new Map<string, string[]>();
  for (const name of Object.keys(defs)) {
    edges.set(
      name,
      [...refsOf(kinds, defs[name]!)].filter((d) => Object.hasOwn(defs, d)),
    );
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Set<string>();
  let next = 0;

  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { name: string; edge: number }[] = [{ name: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.name)!;
      if (frame.edge < targets.length) {
        const to = targets[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ name: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.name, Math.min(low.get(frame.name)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!));
      if (low.get(frame.name) !== index.get(frame.name)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.name);
      const selfLoop = targets.includes(frame.name);
      if (component.length > 1 || selfLoop) for (const m of component) out.add(m);
    }
  }
  return out;
}

/** Definitions still referenced from the root, following references. */
function reachable(
  root: Node,
  defs: Readonly<Record<string, Node>>,
  recursive: ReadonlyMap<string, string>,
  kinds: NodeKinds,
): string[] {
  const seen = new Set<string>();
  const work = [...refsOf(kinds, root)];
  while (work.length > 0) {
    const name = work.pop()!;
    if (seen.has(name) || recursive.has(name) || !Object.hasOwn(defs, name)) continue;
    seen.add(name);
    work.push(...refsOf(kinds, defs[name]!));
  }
  // Keep the builder's order: the wire sorts names anyway, the plan reads better unchanged.
  return Object.keys(defs).filter((name) => seen.has(name));
}

// ---- rewriting ------------------------------------------------------------

/**
 * The node with every reference into a recursive definition (the keys of
 * `recursive`, each with what its text holds) turned into JSON text.
 */
function rewriteNode(node: Node, recursive: ReadonlyMap<string, string>, kinds: NodeKinds): Node {
  if (recursive.size === 0) return node;
  if (node.kind === "ref") {
    const what = recursive.get(node.def);
    return what !== undefined ? jsonTextNode({}, what) : node;
  }
  return kinds.mapChildren(node, (child) => rewriteChild(child, recursive, kinds));
}

/** A member's description goes onto its JSON text, where the wire shows it. */
function rewriteChild(child: Child, recursive: ReadonlyMap<string, string>, kinds: NodeKinds): Child {
  const node = child.node;
  const what = child.field !== undefined && node.kind === "ref" ? recursive.get(node.def) : undefined;
  if (what !== undefined) return { ...child, node: jsonTextNode(child.field?.annotations ?? {}, what) };
  return { ...child, node: rewriteNode(node, recursive, kinds) };
}
