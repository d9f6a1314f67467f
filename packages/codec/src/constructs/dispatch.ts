/**
 * One switch per direction over the node kinds. Each construct's wire shape,
 * encode and decode live together in its own module; this file only routes.
 */

import type { Node } from "../ir/nodes.js";
import type { JsonObject, JsonType } from "../json.js";
import { JSON_TYPES } from "../json.js";
import { anyWire, decodeAny, encodeAny } from "./any.js";
import { arrayWire, decodeArray, encodeArray } from "./array.js";
import type { EncodeContext, Fail, WalkContext, WireContext } from "./context.js";
import { decodeJsonText, encodeJsonText, jsonTextWire } from "./json-text.js";
import { decodeMap, encodeMap, mapWire } from "./map.js";
import { decodeMixed, encodeMixed, mixedWire } from "./mixed.js";
import { decodeObject, encodeObject, objectWire } from "./object.js";
import { refWire, target } from "./reference.js";
import { scalarCode, scalarWire, scalarWireTypes } from "./scalar.js";
import { decodeUnion, encodeUnion, unionWire, unionWireTypes } from "./union.js";

export function wireOf(node: Node, wctx: WireContext): JsonObject {
  switch (node.kind) {
    case "scalar":
      return scalarWire(node);
    case "array":
      return arrayWire(node, wctx);
    case "object":
      return objectWire(node, wctx);
    case "map":
      return mapWire(node, wctx);
    case "mixed":
      return mixedWire(node, wctx);
    case "union":
      return unionWire(node, wctx);
    case "ref":
      return refWire(node);
    case "any":
      return anyWire(node, wctx);
    case "json-text":
      return jsonTextWire(node);
  }
}

export function encodeNode(node: Node, value: unknown, ctx: EncodeContext): unknown | Fail {
  switch (node.kind) {
    case "scalar":
      return scalarCode(node, value, ctx, "invalid-value");
    case "array":
      return encodeArray(node, value, ctx);
    case "object":
      return encodeObject(node, value, ctx);
    case "map":
      return encodeMap(node, value, ctx);
    case "mixed":
      return encodeMixed(node, value, ctx);
    case "union":
      return encodeUnion(node, value, ctx);
    case "ref":
      return encodeNode(target(node, ctx), value, ctx);
    case "any":
      return encodeAny(value, ctx);
    case "json-text":
      return encodeJsonText(value, ctx);
  }
}

export function decodeNode(node: Node, wire: unknown, ctx: WalkContext): unknown | Fail {
  switch (node.kind) {
    case "scalar":
      return scalarCode(node, wire, ctx, "wire-violation");
    case "array":
      return decodeArray(node, wire, ctx);
    case "object":
      return decodeObject(node, wire, ctx);
    case "map":
      return decodeMap(node, wire, ctx);
    case "mixed":
      return decodeMixed(node, wire, ctx);
    case "union":
      return decodeUnion(node, wire, ctx);
    case "ref":
      return decodeNode(target(node, ctx), wire, ctx);
    case "any":
      return decodeAny(wire, ctx);
    case "json-text":
      return decodeJsonText(wire, ctx);
  }
}

type Defs = Readonly<Record<string, Node>>;

/** The JSON types a node's wire values can have. */
export function wireTypesOf(node: Node, defs: Defs, seen: Set<string>): readonly JsonType[] {
  switch (node.kind) {
    case "scalar":
      return scalarWireTypes(node);
    case "array":
    case "map":
      return ["array"];
    case "object":
    case "mixed":
      return ["object"];
    case "union":
      return unionWireTypes(node, defs, seen);
    case "ref": {
      // Inside a cycle, assume anything: that only makes unions tag more, never wrongly.
      if (seen.has(node.def)) return JSON_TYPES;
      const def = defs[node.def];
      if (def === undefined) return JSON_TYPES;
      seen.add(node.def);
      const out = wireTypesOf(def, defs, seen);
      seen.delete(node.def);
      return out;
    }
    case "any":
      return JSON_TYPES;
    case "json-text":
      return ["string"];
  }
}

/**
 * Whether decoding returns the wire value unchanged. References answer no:
 * proving identity through recursion needs a fixpoint, and "no" is always safe.
 */
export function isIdentity(node: Node, defs: Defs): boolean {
  switch (node.kind) {
    case "scalar":
      return true;
    case "array":
      return isIdentity(node.items, defs);
    case "object":
      return node.fields.every((f) => !f.optional && isIdentity(f.node, defs));
    case "union":
      return node.rule.by === "same" || (node.rule.by === "type" && node.branches.every((b) => isIdentity(b, defs)));
    default:
      return false;
  }
}
