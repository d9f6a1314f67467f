/**
 * Tuples (`prefixItems`, or draft-07's list `items`): each position has its
 * own schema, and the elements after them (`rest`) another, or none.
 * - array form (a target that keeps prefixItems): the array itself,
 *   `{"type":"array","prefixItems":[W0, W1...],"items":Wrest}` (no rest:
 *   `maxItems` the positions' count), `minItems` the required positions;
 * - object form (OpenAI, Anthropic): a closed object with one member per
 *   position, named by its index, and `rest` the array of the elements after
 *   them: `{"0": W0, "1": W1, "rest": [Wrest...]}`. A position past the
 *   source's `minItems` is an optional member and travels as presence says
 *   (presence.ts); the positions present must be the first ones, and `rest`
 *   holds elements only when every position is present.
 * So the model is held to each position's schema, and decode restores the array.
 */

import { _, type Code, join, type Name } from "../code.js";
import { fieldChild, mapField } from "../ir/children.js";
import { type Field, type Node, type TupleNode, tupleShape } from "../ir/nodes.js";
import { isPlainObject, type JsonObject } from "../json.js";
import { partialElements } from "./array.js";
import type { Construct, WireStep } from "./construct.js";
import {
  ABSENT,
  type EncodeContext,
  FAIL,
  type Fail,
  failAt,
  type PartialContext,
  type PartialMemo,
  type WalkContext,
  type WireContext,
} from "./context.js";
import { counted, type DecodeGenerator, openObject } from "./decode-generator.js";
import { fieldsWire } from "./object.js";
import { decodeField, encodeField, fieldPartial, fieldStep, generateFieldDecode } from "./presence.js";

/** The member of the object form that holds the elements after the positions. */
export const REST = "rest";

const requiredCount = (node: TupleNode): number => node.positions.filter((p) => !p.optional).length;

function tupleWire(node: TupleNode, wctx: WireContext): JsonObject {
  const n = node.positions.length;
  if (node.form === "array") {
    const required = requiredCount(node);
    return {
      type: "array",
      prefixItems: node.positions.map((p) => wctx.walk.wire(p.node, wctx)),
      ...(node.rest === undefined ? { maxItems: n } : { items: wctx.walk.wire(node.rest, wctx) }),
      ...(required > 0 ? { minItems: required } : {}),
      ...node.schema,
    };
  }
  const object = fieldsWire(node.positions, wctx);
  if (node.rest === undefined) return { ...node.schema, ...object };
  return {
    ...node.schema,
    ...object,
    properties: {
      ...(object.properties as JsonObject),
      [REST]: { type: "array", items: wctx.walk.wire(node.rest, wctx) },
    },
    required: [...(object.required as string[]), REST],
  };
}

/** The element counts the tuple takes, or the failure. */
function checkCount(node: TupleNode, length: number, ctx: WalkContext, code: "invalid-value" | "wire-violation") {
  const required = requiredCount(node);
  if (length < required) return failAt(ctx, code, `expected at least ${required} elements`);
  if (node.rest === undefined && length > node.positions.length) {
    return failAt(ctx, code, `expected at most ${node.positions.length} elements`);
  }
  return undefined;
}

function encodeTuple(node: TupleNode, value: unknown, ctx: EncodeContext): unknown | Fail {
  if (!Array.isArray(value)) return failAt(ctx, "invalid-value", "expected an array");
  if (checkCount(node, value.length, ctx, "invalid-value") === FAIL) return FAIL;
  const n = node.positions.length;
  const rest = node.rest;
  const restOut: unknown[] = [];
  for (let i = n; i < value.length && rest !== undefined; i++) {
    ctx.path.push(i);
    const item = ctx.walk.encode(rest, value[i], ctx);
    ctx.path.pop();
    if (item === FAIL) return FAIL;
    restOut.push(item);
  }
  if (node.form === "array") {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < Math.min(n, value.length); i++) {
      ctx.path.push(i);
      const item = ctx.walk.encode(node.positions[i]!.node, value[i], ctx);
      ctx.path.pop();
      if (item === FAIL) return FAIL;
      out[i] = item;
    }
    for (let i = 0; i < restOut.length; i++) out[n + i] = restOut[i];
    return out;
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const position = node.positions[i]!;
    const wire = encodeField(position, i < value.length, value[i], ctx);
    if (wire === FAIL) return FAIL;
    if (wire !== ABSENT) out[position.name] = wire;
  }
  if (rest !== undefined) out[REST] = restOut;
  return out;
}

function decodeTuple(node: TupleNode, wire: unknown, ctx: WalkContext): unknown | Fail {
  const n = node.positions.length;
  if (node.form === "array") {
    if (!Array.isArray(wire)) return failAt(ctx, "wire-violation", "expected an array");
    if (checkCount(node, wire.length, ctx, "wire-violation") === FAIL) return FAIL;
    const out = new Array<unknown>(wire.length);
    for (let i = 0; i < wire.length; i++) {
      const item = decodeElement(i < n ? node.positions[i]!.node : node.rest!, wire[i], i, ctx);
      if (item === FAIL) return FAIL;
      out[i] = item;
    }
    return out;
  }
  if (!isPlainObject(wire)) return failAt(ctx, "wire-violation", tupleForm(node));
  let members = 0;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const position = node.positions[i]!;
    const has = Object.hasOwn(wire, position.name);
    if (has) members++;
    const value = decodeField(position, has, has ? wire[position.name] : undefined, ctx);
    if (value === FAIL) return FAIL;
    if (value === ABSENT) continue;
    if (out.length !== i) {
      return failAt(ctx, "wire-violation", `position ${out.length} is absent, so no later one may be present`, i);
    }
    out.push(value);
  }
  if (node.rest !== undefined) {
    const rest = wire[REST];
    if (!Object.hasOwn(wire, REST) || !Array.isArray(rest)) {
      return failAt(ctx, "wire-violation", "expected an array of the elements after the positions", REST);
    }
    members++;
    if (rest.length > 0 && out.length !== n) {
      return failAt(ctx, "wire-violation", `position ${out.length} is absent, so "rest" must be empty`, REST);
    }
    for (let j = 0; j < rest.length; j++) {
      const item = decodeElement(node.rest, rest[j], n + j, ctx);
      if (item === FAIL) return FAIL;
      out.push(item);
    }
  }
  if (members !== Object.keys(wire).length) {
    const extra = Object.keys(wire).find((k) => k !== REST && !node.positions.some((p) => p.name === k)) ?? "";
    return failAt(ctx, "wire-violation", "not a position, and the wire schema forbids extra members", extra);
  }
  return out;
}

/**
 * As an array: the array form element by element; the object form its
 * positions up to the first not (yet) present, then, all there, `rest`'s elements.
 */
function partialTuple(node: TupleNode, wire: unknown, ctx: PartialContext, memo: PartialMemo): unknown {
  const n = node.positions.length;
  const out = (memo.value as unknown[] | undefined) ?? [];
  const nodeAt = (i: number): Node | undefined => (i < n ? node.positions[i]!.node : node.rest);
  if (node.form === "array") {
    if (!Array.isArray(wire)) return ABSENT;
    partialElements(out, wire, 0, nodeAt, ctx, memo);
    return out;
  }
  if (!isPlainObject(wire)) return ABSENT;
  for (let i = 0; i < n; i++) {
    const value = fieldPartial(node.positions[i]!, wire, ctx);
    if (value === ABSENT) return out;
    ctx.put(out, i, value);
  }
  const rest = wire[REST];
  if (node.rest !== undefined && Array.isArray(rest)) partialElements(out, rest, n, node.rest, ctx);
  return out;
}

function decodeElement(node: Node, wire: unknown, i: number, ctx: WalkContext): unknown | Fail {
  ctx.path.push(i);
  const out = ctx.walk.decode(node, wire, ctx);
  ctx.path.pop();
  return out;
}

function tupleForm(node: TupleNode): string {
  const members = node.positions.map((p) => JSON.stringify(p.name));
  if (node.rest !== undefined) members.push(`"${REST}": [...]`);
  return `expected the tuple as an object {${members.join(", ")}}`;
}

/** A wire pointer step: the original path names the element's index, a number. */
function tupleStep(node: TupleNode, tokens: readonly string[], i: number, value: unknown): WireStep | undefined {
  const n = node.positions.length;
  if (node.form === "array") {
    const index = Number(tokens[i]);
    if (!Number.isInteger(index) || index < 0) return undefined;
    const element = index < n ? node.positions[index]!.node : node.rest;
    return { step: index, node: element, value: Array.isArray(value) ? value[index] : undefined, next: i + 1 };
  }
  if (tokens[i] === REST) {
    const j = Number(tokens[i + 1]);
    if (node.rest === undefined || !Number.isInteger(j) || j < 0) return undefined;
    const rest = isPlainObject(value) ? value[REST] : undefined;
    return { step: n + j, node: node.rest, value: Array.isArray(rest) ? rest[j] : undefined, next: i + 2 };
  }
  const step = fieldStep(node.positions, tokens, i, value);
  return step === undefined ? undefined : { ...step, step: Number(step.step) };
}

/**
 * The generated decode. Object form: each position as an object member
 * (presence.ts writes it), then the positions present gathered in order,
 * none after an absent one, then `rest`. Array form: the counts, then each
 * element by its position's function.
 */
function generateTupleDecode(node: TupleNode, e: DecodeGenerator): Code {
  const n = node.positions.length;
  const required = requiredCount(node);
  const [out, len, i, v] = [e.local("out"), e.local("len"), e.local("i"), e.local("v")];
  const restLoop = (list: Code | Name, from: Code, offset: Code, depth: Code) =>
    node.rest === undefined
      ? _``
      : _`for (let ${i} = ${from}; ${i} < ${len}; ${i}++) {
const ${v} = ${e.fn(node.rest)}(${list}[${i}], ${depth}, s);
if (${v} === F) return F;
${out}[${offset} + ${i}] = ${v};
}`;
  if (node.form === "array") {
    const tooMany = node.rest === undefined ? _` || ${len} > ${n}` : _``;
    const positions = node.positions.map(
      (p, k) =>
        _`if (${len} > ${k}) { const ${v} = ${e.fn(p.node)}(w[${k}], d + 1, s); if (${v} === F) return F; ${out}[${k}] = ${v}; }`,
    );
    return join([
      _`if (!A(w) || d > s.maxDepth) return F;`,
      _`const ${len} = w.length;`,
      _`if (${len} < ${required}${tooMany}) return F;`,
      _`s.nodes += ${len};`,
      _`if (s.nodes > s.maxNodes) return F;`,
      _`const ${out} = new Array(${len});`,
      ...positions,
      restLoop(_`w`, _`${n}`, _`0`, _`d + 1`),
      _`return ${out};`,
    ]);
  }
  const [o, seen, k, rest] = [e.local("o"), e.local("seen"), e.local("k"), e.local("rest")];
  const gather = node.positions.map(
    (p: Field) =>
      _`if (H(${o}, ${p.name})) { if (${k} !== ${Number(p.name)}) return F; ${out}.push(${o}[${p.name}]); ${k}++; }`,
  );
  const restPart =
    node.rest === undefined
      ? []
      : [
          _`const ${rest} = w[${REST}];`,
          _`if (${rest} === undefined || !A(${rest}) || d + 1 > s.maxDepth) return F;`,
          _`${seen}++;`,
          _`const ${len} = ${rest}.length;`,
          _`if (${len} > 0 && ${k} !== ${n}) return F;`,
          _`s.nodes += ${len};`,
          _`if (s.nodes > s.maxNodes) return F;`,
          restLoop(rest, _`0`, _`${n}`, _`d + 2`),
        ];
  return join([
    openObject(_`w`, _`d`),
    _`const ${o} = {};`,
    _`let ${seen} = 0;`,
    ...node.positions.map((p) => generateFieldDecode(p, e, o, seen)),
    _`const ${out} = [];`,
    _`let ${k} = 0;`,
    ...gather,
    ...restPart,
    counted(seen),
    _`return ${out};`,
  ]);
}

export const tuple: Construct<TupleNode> = {
  kind: "tuple",
  children: (node) => [
    ...node.positions.map(fieldChild),
    ...(node.rest === undefined ? [] : [{ node: node.rest, at: "[]" }]),
  ],
  mapChildren(node, f) {
    const positions = node.positions.map((p) => mapField(p, f));
    const rest = node.rest === undefined ? undefined : f({ node: node.rest, at: "[]" }).node;
    if (rest === node.rest && positions.every((p, i) => p === node.positions[i])) return node;
    return { ...node, positions, ...(rest === undefined ? {} : { rest }) };
  },
  wire: tupleWire,
  encode: encodeTuple,
  decode: decodeTuple,
  generateDecode: generateTupleDecode,
  wireTypes: (node) => [node.form],
  identity: (node, defs, walk) =>
    node.form === "array" &&
    node.positions.every((p) => walk.identity(p.node, defs)) &&
    (node.rest === undefined || walk.identity(node.rest, defs)),
  levels: (node) => (node.form === "object" ? 1 : 0),
  wireStep: (node, { tokens, i, value }) => tupleStep(node, tokens, i, value),
  check: tupleShape.check,
  describe: (node) => ({
    type: `tuple (${node.positions.length}${node.rest === undefined ? "" : " + rest"})`,
    travels: node.form === "object" ? tupleForm(node).replace("expected the tuple as an object ", "object ") : "",
  }),
  tsType(node, ctx) {
    const parts = node.positions.map((p) => {
      const position = ctx.child(p.node);
      if (!p.optional) return position.text;
      return position.union ? `(${position.text})?` : `${position.text}?`;
    });
    if (node.rest !== undefined) {
      const rest = ctx.child(node.rest);
      parts.push(`...${rest.union ? `(${rest.text})` : rest.text}[]`);
    }
    return { text: `[${parts.join(", ")}]`, union: false };
  },
  partial: partialTuple,
};
