/**
 * What a construct's code generation is given: names of the generated
 * functions for other nodes, and the one way data reaches the code (a
 * literal). Generated functions are called `NAME(w, d, s)`: `w` the wire
 * value, `d` the container depth `w` has if it is a container (the root is
 * 1), `s` the walk's state, shared with the parser's native walk
 * (`s.nodes` values and `s.members` members counted so far, `s.maxNodes` and
 * `s.maxDepth` the limits, the node limit checked at arrays and at the end, `s.checkStrings` whether strings need the
 * surrogate check).
 * A function returns the decoded value or `F`. In scope: `F`, `H`
 * (Object.hasOwn), `K` (Object.keys), `A` (Array.isArray), `SET` (setOwn),
 * `WF` (isWellFormed), `MAX` (2^53-1), `X(i, w, d, s)` (the interpreted
 * decode of node `i`, after the parser's checks on `w`) and `DISC(i, v)` (the
 * branch a discriminator value names in union `i`).
 */
import type { Node } from "../ir/nodes.js";

export interface DecodeEmitter {
  /** The name of the generated function that decodes `node`. */
  fn(node: Node): string;
  /** The name of an object node's function that reads an inline presence tag (its `state` beside the members). */
  inlineFn(node: Node): string;
  /** The node's index in the table `X` and `DISC` take. */
  index(node: Node): number;
}

/**
 * A JavaScript literal for a JSON value. JSON.stringify writes no code, only
 * a string or number literal; U+2028, U+2029 and `<` are escaped as well, so
 * the literal is also safe where older parsers end a line or where a module
 * sits inside HTML.
 */
export function literal(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("strictwire: no literal for undefined");
  return text
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/</g, "\\u003c");
}

/** `o[NAME] = v`, or SET for the one name plain assignment would not make an own member. */
export function assign(target: string, name: string, value: string): string {
  return name === "__proto__"
    ? `SET(${target}, ${literal(name)}, ${value});`
    : `${target}[${literal(name)}] = ${value};`;
}

/**
 * The check every object passes first: an object (no array, no null) within
 * the depth limit. Its members are not counted here: each construct adds to
 * `s.nodes` and `s.members` the members it read, and the text's member count
 * (`namesOnce`, parse/native.ts) proves afterwards that the value has no
 * other member and no name twice, so nothing is counted twice.
 */
export function openObject(value: string, depth: string): string {
  return `if (typeof ${value} !== "object" || ${value} === null || A(${value}) || ${depth} > s.maxDepth) return F;`;
}

/** Counting `n` members read (each a node as well). */
export function counted(n: number | string): string {
  return `s.nodes += ${n}; s.members += ${n};`;
}

/**
 * Reading member `name` of object `value` into `into`, or F when it is not
 * there. A JSON value is never undefined, so undefined means missing, except
 * for names Object.prototype answers (constructor, toString, ...), which need
 * the own-member test.
 */
export function readMember(value: string, name: string, into: string): string {
  const key = literal(name);
  if (name in Object.prototype) return `if (!H(${value}, ${key})) return F;\nconst ${into} = ${value}[${key}];`;
  return `const ${into} = ${value}[${key}];\nif (${into} === undefined) return F;`;
}
