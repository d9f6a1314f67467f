/**
 * Any JSON value. Strict mode has no "any", but it accepts a recursive
 * definition, so every JSON value gets an exact wire form: scalars and arrays
 * as themselves, objects as {"entries": [{"key", "value"}...]}.
 */

import type { AnyNode } from "../ir/nodes.js";
import { isPlainObject, JSON_TYPES, setOwn } from "../json.js";
import type { Construct } from "./construct.js";
import { FAIL, type Fail, failAt, type WalkContext } from "./context.js";
import { entryStep } from "./map.js";

function encodeAny(value: unknown, ctx: WalkContext): unknown | Fail {
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      ctx.path.push(i);
      const item = encodeAny(value[i], ctx);
      ctx.path.pop();
      if (item === FAIL) return FAIL;
      out[i] = item;
    }
    return out;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const entries = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      ctx.path.push(key);
      const item = encodeAny(value[key], ctx);
      ctx.path.pop();
      if (item === FAIL) return FAIL;
      entries[i] = { key, value: item };
    }
    return { entries };
  }
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return failAt(ctx, "invalid-value", "not a JSON value");
}

function decodeAny(wire: unknown, ctx: WalkContext): unknown | Fail {
  if (Array.isArray(wire)) {
    const out = new Array<unknown>(wire.length);
    for (let i = 0; i < wire.length; i++) {
      ctx.path.push(i);
      const item = decodeAny(wire[i], ctx);
      ctx.path.pop();
      if (item === FAIL) return FAIL;
      out[i] = item;
    }
    return out;
  }
  if (isPlainObject(wire)) {
    const entries = wire.entries;
    if (!Array.isArray(entries) || Object.keys(wire).length !== 1) {
      return failAt(ctx, "wire-violation", 'an object travels as {"entries": [{"key": ..., "value": ...}]}');
    }
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (
        !isPlainObject(entry) ||
        typeof entry.key !== "string" ||
        !Object.hasOwn(entry, "value") ||
        Object.keys(entry).length !== 2
      ) {
        return failAt(ctx, "wire-violation", `entry ${i} must be {"key": string, "value": ...}`);
      }
      if (seen.has(entry.key)) {
        return failAt(
          ctx,
          "duplicate-entry",
          `the key ${JSON.stringify(entry.key)} appears in more than one entry`,
          entry.key,
        );
      }
      seen.add(entry.key);
      ctx.path.push(entry.key);
      const item = decodeAny(entry.value, ctx);
      ctx.path.pop();
      if (item === FAIL) return FAIL;
      setOwn(out, entry.key, item);
    }
    return out;
  }
  return wire;
}

export const any: Construct<AnyNode> = {
  kind: "any",
  children: () => [],
  encode: (_node, value, ctx) => encodeAny(value, ctx),
  decode: (_node, wire, ctx) => decodeAny(wire, ctx),
  wireTypes: () => JSON_TYPES,
  identity: () => false,
  wireStep(node, { tokens, i, value }) {
    if (Array.isArray(value)) return { step: Number(tokens[i]), node, value: value[Number(tokens[i])], next: i + 1 };
    const entry = entryStep(isPlainObject(value) ? value.entries : undefined, tokens, i + 1);
    return entry === undefined ? undefined : { ...entry, node };
  },
};
