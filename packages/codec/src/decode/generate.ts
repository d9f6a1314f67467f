/**
 * The decoder compiled to code, as ajv compiles validators: once per plan,
 * one JavaScript function per node, each construct writing its own (its
 * `emitDecode`; a construct without one is decoded by the interpreted walk
 * behind the parser's checks). The generated pass does in one walk what the
 * parser's native path, the plan walk and nothing else did in two: it checks
 * the parse limits, enforces the wire's structure and rebuilds the value.
 *
 * It only ever answers "this value" or F: anything it does not accept goes
 * to the interpreted path, which decides and words the refusal, so an error
 * never depends on this code (a property test holds the two to the same
 * results). Data reaches the code only through `literal`.
 */
import { constructOf } from "../constructs/registry.js";
import type { Node, Plan } from "../ir/nodes.js";
import { type CompiledDecoder, DECODER_PARAMS, type DecoderFactory, instantiate } from "./compiled.js";
import type { DecodeEmitter } from "./emitter.js";

export interface GeneratedDecoder {
  /** The body of a function of DECODER_PARAMS that returns the root decoder `(w, s) => value | F`. */
  readonly source: string;
  /** The nodes `X` and `DISC` take by index. */
  readonly table: readonly Node[];
}

export function generateDecoder(plan: Plan): GeneratedDecoder {
  const names = new Map<Node, string>();
  const inlineNames = new Map<Node, string>();
  const indexes = new Map<Node, number>();
  const table: Node[] = [];
  const queue: { node: Node; name: string; inline: boolean }[] = [];

  const resolve = (node: Node): Node => {
    let n = node;
    // Aliases are linear chains (finalize refuses pure cycles); bounded by the number of definitions.
    for (let hops = 0; n.kind === "ref" && hops <= Object.keys(plan.defs).length; hops++) n = plan.defs[n.def]!;
    return n;
  };

  const emitter: DecodeEmitter = {
    fn(node) {
      const target = resolve(node);
      let name = names.get(target);
      if (name === undefined) {
        name = `n${names.size}`;
        names.set(target, name);
        queue.push({ node: target, name, inline: false });
      }
      return name;
    },
    inlineFn(node) {
      const target = resolve(node);
      let name = inlineNames.get(target);
      if (name === undefined) {
        name = `i${inlineNames.size}`;
        inlineNames.set(target, name);
        queue.push({ node: target, name, inline: true });
      }
      return name;
    },
    index(node) {
      let i = indexes.get(node);
      if (i === undefined) {
        i = table.length;
        table.push(node);
        indexes.set(node, i);
      }
      return i;
    },
  };

  const root = emitter.fn(plan.root);
  const functions: string[] = [];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { node, name, inline } = next;
    const construct = constructOf(node);
    const body = inline
      ? construct.emitInlineDecode?.(node, emitter)
      : (construct.emitDecode?.(node, emitter) ?? `return X(${emitter.index(node)}, w, d, s);`);
    if (body === undefined) throw new Error(`strictwire: no inline decoder for a ${node.kind} node`);
    functions.push(`function ${name}(w, d, s) {\n${body}\n}`);
  }
  // Objects count the members they read, so the node limit is checked once the whole value is read.
  const entry =
    plan.envelope === "bare"
      ? `return function decode(w, s) { const v = ${root}(w, 1, s); return s.nodes > s.maxNodes ? F : v; };`
      : `return function decode(w, s) {
if (typeof w !== "object" || w === null || A(w) || w.arguments === undefined) return F;
s.nodes += 1; s.members += 1;
const v = ${root}(w.arguments, 2, s);
return s.nodes > s.maxNodes ? F : v;
};`;
  return { source: `"use strict";\n${functions.join("\n")}\n${entry}`, table };
}

/** The decoder for a plan, generated and built in memory (once per codec). */
export function compileDecoder(plan: Plan): CompiledDecoder {
  const generated = generateDecoder(plan);
  const factory = new Function(...DECODER_PARAMS, generated.source) as DecoderFactory;
  return instantiate(factory, plan, generated.table);
}

/** Where each table node sits in the plan, as JSON Pointers (a module carries these, not the nodes). */
export function tablePointers(plan: Plan, table: readonly Node[]): string[] | undefined {
  const where = new Map<object, string>();
  const work: [unknown, string][] = [[plan.root, "/root"]];
  for (const name of Object.keys(plan.defs))
    work.push([plan.defs[name], `/defs/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
  while (work.length > 0) {
    const [value, at] = work.pop()!;
    if (typeof value !== "object" || value === null || where.has(value)) continue;
    where.set(value, at);
    for (const [key, child] of Object.entries(value)) {
      work.push([child, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
    }
  }
  const pointers = table.map((node) => where.get(node));
  return pointers.every((p) => p !== undefined) ? (pointers as string[]) : undefined;
}
