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

import { fieldChild } from "../ir/children.js";
import type { Node, TupleNode } from "../ir/nodes.js";
import { isPlainObject } from "../json.js";
import type { Construct, WireStep } from "./construct.js";
import { ABSENT, type EncodeContext, FAIL, type Fail, failAt, type WalkContext } from "./context.js";
import { decodeField, encodeField, fieldStep } from "./presence.js";

/** The member of the object form that holds the elements after the positions. */
export const REST = "rest";

export const requiredCount = (node: TupleNode): number => node.positions.filter((p) => !p.optional).length;

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

function decodeElement(node: Node, wire: unknown, i: number, ctx: WalkContext): unknown | Fail {
  ctx.path.push(i);
  const out = ctx.walk.decode(node, wire, ctx);
  ctx.path.pop();
  return out;
}

export function tupleForm(node: TupleNode): string {
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

export const tuple: Construct<TupleNode> = {
  kind: "tuple",
  children: (node) => [
    ...node.positions.map(fieldChild),
    ...(node.rest === undefined ? [] : [{ node: node.rest, at: "[]" }]),
  ],
  encode: encodeTuple,
  decode: decodeTuple,
  wireTypes: (node) => [node.form],
  identity: (node, defs, walk) =>
    node.form === "array" &&
    node.positions.every((p) => walk.identity(p.node, defs)) &&
    (node.rest === undefined || walk.identity(node.rest, defs)),
  wireStep: (node, { tokens, i, value }) => tupleStep(node, tokens, i, value),
};
