/**
 * The decoder compiled to code, as ajv compiles validators: once per plan,
 * one JavaScript function per node, each construct writing its own (its
 * `generateDecode`; a construct without one is decoded by the interpreted walk
 * behind the parser's checks). The generated pass does in one walk what the
 * parser's native path, the plan walk and nothing else did in two: it checks
 * the parse limits, enforces the wire's structure and rebuilds the value.
 *
 * It only ever answers "this value" or F: anything it does not accept goes
 * to the interpreted path, which decides and words the refusal, so an error
 * never depends on this code (a property test holds the two to the same
 * results). Code is built by code.ts: data reaches it only as a literal.
 */

import { _, type Code, indent, join, type Name, renamed, render, Scope } from "../code.js";
import { type DecodeGenerator, FUNCTION_PREFIXES, HELPERS, PARAMS } from "../constructs/compile/decode-generator.js";
import { compilerOf } from "../constructs/compile/registry.js";
import { type CompiledDecoder, DECODER_PARAMS, type DecoderFactory, instantiate } from "../decode/compiled.js";
import { pointerToken } from "../errors.js";
import type { Node, Plan } from "../ir/nodes.js";

export interface GeneratedDecoder {
  /** The body of a function of DECODER_PARAMS that returns the root decoder `(w, s) => value | F`. */
  readonly code: Code;
  /** The nodes `X` and `DISC` take by index. */
  readonly table: readonly Node[];
}

interface Generated {
  readonly name: Name;
  readonly inline: boolean;
  readonly body: Code;
}

/**
 * One function per plan node, written breadth first from a queue (a plan
 * read from a bundle may nest deeper than the stack), then shared: walking
 * the functions in reverse (children are found after their parents), a
 * function whose text, with the sharing so far, is one already kept becomes
 * that one. Texts that match are the same code, so sharing never changes
 * what a call does.
 */
export function generateDecoder(plan: Plan): GeneratedDecoder {
  const functionNames = new Scope([...PARAMS, ...HELPERS]);
  const names = new Map<Node, Name>();
  const inlineNames = new Map<Node, Name>();
  const indexes = new Map<Node, number>();
  const table: Node[] = [];
  const queue: { node: Node; name: Name; inline: boolean }[] = [];

  const resolve = (node: Node): Node => {
    let n = node;
    // Aliases are linear chains (finalize refuses pure cycles); bounded by the number of definitions.
    for (let hops = 0; n.kind === "ref" && hops <= Object.keys(plan.defs).length; hops++) n = plan.defs[n.def]!;
    return n;
  };
  const named = (node: Node, inline: boolean): Name => {
    const target = resolve(node);
    const map = inline ? inlineNames : names;
    let name = map.get(target);
    if (name === undefined) {
      name = functionNames.numbered(inline ? "inline" : "node");
      map.set(target, name);
      queue.push({ node: target, name, inline });
    }
    return name;
  };
  const index = (node: Node): number => {
    let i = indexes.get(node);
    if (i === undefined) {
      i = table.length;
      table.push(node);
      indexes.set(node, i);
    }
    return i;
  };

  const root = named(plan.root, false);
  const generated: Generated[] = [];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { node, name, inline } = next;
    const locals = new Scope([...PARAMS, ...HELPERS], FUNCTION_PREFIXES);
    const generator: DecodeGenerator = {
      fn: (n) => named(n, false),
      inlineFn: (n) => named(n, true),
      index,
      local: (prefix) => locals.name(prefix),
    };
    const construct = compilerOf(node);
    const body = inline ? construct.generateInlineDecode?.(node, generator) : construct.generateDecode(node, generator);
    if (body === undefined) throw new Error(`strictwire: no inline decoder for a ${node.kind} node`);
    generated.push({ name, inline, body });
  }

  const sharedAs = new Map<Name, Name>();
  const byText = new Map<string, Name>();
  for (let i = generated.length - 1; i >= 0; i--) {
    const { name, body } = generated[i]!;
    const text = render(body, (n) => sharedAs.get(n) ?? n);
    const same = byText.get(text);
    if (same !== undefined && name !== root) sharedAs.set(name, same);
    else byText.set(text, name);
  }
  // The functions kept, numbered again without gaps; a function kept early may call one shared later.
  const final = new Scope([...PARAMS, ...HELPERS]);
  const dense = new Map<Name, Name>();
  for (const { name, inline } of generated) {
    if (!sharedAs.has(name)) dense.set(name, final.numbered(inline ? "inline" : "node"));
  }
  for (const { name } of generated) if (sharedAs.has(name)) dense.set(name, dense.get(sharedAs.get(name)!)!);
  const rename = (name: Name): Name => dense.get(name) ?? name;
  const functions = generated
    .filter(({ name }) => !sharedAs.has(name))
    .map(({ name, body }) => renamed(_`function ${name}(w, d, s) {\n${body}\n}`, rename));
  // Objects count the members they read, so the node limit is checked once the whole value is read.
  const entry =
    plan.envelope === "bare"
      ? _`return function decode(w, s) {\nconst v = ${root}(w, 1, s);\nreturn s.nodes > s.maxNodes ? F : v;\n};`
      : join([
          _`return function decode(w, s) {`,
          _`if (typeof w !== "object" || w === null || A(w) || w.arguments === undefined) return F;`,
          _`s.nodes += 1; s.members += 1;`,
          _`const v = ${root}(w.arguments, 2, s);`,
          _`return s.nodes > s.maxNodes ? F : v;`,
          _`};`,
        ]);
  return { code: indent(join([_`"use strict";`, ...functions, renamed(entry, rename)])), table };
}

/** The decoder for a plan, generated and built in memory (once per codec). */
export function compileDecoder(plan: Plan): CompiledDecoder {
  const generated = generateDecoder(plan);
  const factory = new Function(...DECODER_PARAMS, render(generated.code)) as DecoderFactory;
  return instantiate(factory, plan, generated.table);
}

/** Where each table node sits in the plan, as JSON Pointers (a module carries these, not the nodes). */
export function tablePointers(plan: Plan, table: readonly Node[]): string[] | undefined {
  const where = new Map<object, string>();
  const work: [unknown, string][] = [[plan.root, "/root"]];
  for (const name of Object.keys(plan.defs)) work.push([plan.defs[name], `/defs/${pointerToken(name)}`]);
  while (work.length > 0) {
    const [value, at] = work.pop()!;
    if (typeof value !== "object" || value === null || where.has(value)) continue;
    where.set(value, at);
    for (const [key, child] of Object.entries(value)) {
      work.push([child, `${at}/${pointerToken(key)}`]);
    }
  }
  const pointers = table.map((node) => where.get(node));
  return pointers.every((p) => p !== undefined) ? (pointers as string[]) : undefined;
}
