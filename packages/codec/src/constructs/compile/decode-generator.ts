/**
 * What a construct's code generation is given: names of the generated
 * functions for other nodes, a scope for its own locals, and the helpers
 * below. Code is built with the `_` template (code.ts): data goes in
 * as a literal, names come from a scope.
 *
 * Generated functions are called `NAME(w, d, s)`: `w` the wire value, `d` the
 * container depth `w` has if it is a container (the root is 1), `s` the
 * walk's state, shared with the parser's native walk (`s.nodes` values and
 * `s.members` members counted so far, `s.maxNodes` and `s.maxDepth` the
 * limits, the node limit checked at arrays and at the end, `s.checkStrings`
 * whether strings need the surrogate check). A function returns the decoded
 * value or `F`. In scope: `F`, `H` (Object.hasOwn), `K` (Object.keys), `A`
 * (Array.isArray), `SET` (setOwn), `WF` (isWellFormed), `MAX` (2^53-1),
 * `X(i, w, d, s)` (the interpreted decode of node `i`, after the parser's
 * checks on `w`) and `DISC(i, v)` (the branch a discriminator value names in
 * union `i`). Those fixed names (`PARAMS`, `HELPERS`) are written as template
 * text; a scope never hands them out.
 */

import { _, type Code, join, type Name } from "../../code.js";
import type { Node } from "../../ir/nodes.js";

/** A generated function's parameters. */
export const PARAMS = ["w", "d", "s"] as const;

/** What every generated decoder factory takes, in order (decode/compiled.ts hands them over). */
export const HELPERS = ["F", "H", "K", "A", "SET", "WF", "MAX", "X", "DISC"] as const;

/** The prefixes of generated function names (a construct's locals never take them). */
export const FUNCTION_PREFIXES = ["node", "inline"] as const;

export interface DecodeGenerator {
  /** The name of the generated function that decodes `node`. */
  fn(node: Node): Name;
  /** The name of an object node's function that reads an inline presence tag (its `state` beside the members). */
  inlineFn(node: Node): Name;
  /** The node's index in the table `X` and `DISC` take. */
  index(node: Node): number;
  /** A new local of the function being written. */
  local(prefix: string): Name;
}

/** `target[name] = value`, or SET for the one name plain assignment would not make an own member. */
export function assign(target: Name, name: string, value: Code | Name): Code {
  return name === "__proto__" ? _`SET(${target}, ${name}, ${value});` : _`${target}[${name}] = ${value};`;
}

/**
 * The check every object passes first: an object (no array, no null) within
 * the depth limit. Its members are not counted here: each construct adds to
 * `s.nodes` and `s.members` the members it read, and the text's member count
 * (`namesOnce`, parse/native.ts) proves afterwards that the value has no
 * other member and no name twice, so nothing is counted twice.
 */
export function openObject(value: Code | Name, depth: Code): Code {
  return _`if (typeof ${value} !== "object" || ${value} === null || A(${value}) || ${depth} > s.maxDepth) return F;`;
}

/** Counting `n` members read (each a node as well). */
export function counted(n: number | Name): Code {
  return _`s.nodes += ${n}; s.members += ${n};`;
}

/**
 * Reading member `name` of object `value` into a new local `into`, or F when
 * it is not there. A JSON value is never undefined, so undefined means
 * missing, except for names Object.prototype answers (constructor,
 * toString, ...), which need the own-member test.
 */
export function readMember(value: Code | Name, name: string, into: Name): Code {
  if (name in Object.prototype) return _`if (!H(${value}, ${name})) return F;\nconst ${into} = ${value}[${name}];`;
  return _`const ${into} = ${value}[${name}];\nif (${into} === undefined) return F;`;
}

/**
 * The generated decode of entries `[{key, value}...]` (array `list` at depth
 * `depth`) into the object `into`: each entry checked as the parser checks a
 * container, no key twice, and none that `refused` names (a declared field).
 * Maps and mixed objects both travel their dynamic members so.
 */
export function generateEntries(
  e: DecodeGenerator,
  value: Node,
  list: Code | Name,
  depth: Code,
  into: Name,
  refused?: (key: Name) => Code,
): Code {
  const [count, keys, i, entry, key, v] = ["len", "keys", "i", "entry", "key", "v"].map((p) => e.local(p)) as [
    Name,
    Name,
    Name,
    Name,
    Name,
    Name,
  ];
  return join([
    _`const ${count} = ${list}.length;`,
    _`s.nodes += ${count};`,
    _`if (s.nodes > s.maxNodes) return F;`,
    _`const ${keys} = new Set();`,
    _`for (let ${i} = 0; ${i} < ${count}; ${i}++) {`,
    _`const ${entry} = ${list}[${i}];`,
    openObject(entry, _`${depth} + 1`),
    _`if (${entry}.value === undefined) return F;`,
    counted(2),
    _`const ${key} = ${entry}.key;`,
    refused === undefined
      ? _`if (typeof ${key} !== "string" || (s.checkStrings && !WF(${key})) || ${keys}.has(${key})) return F;`
      : _`if (typeof ${key} !== "string" || (s.checkStrings && !WF(${key})) || ${keys}.has(${key}) || ${refused(key)}) return F;`,
    _`${keys}.add(${key});`,
    _`const ${v} = ${e.fn(value)}(${entry}.value, ${depth} + 2, s);`,
    _`if (${v} === F) return F;`,
    _`SET(${into}, ${key}, ${v});`,
    _`}`,
  ]);
}
