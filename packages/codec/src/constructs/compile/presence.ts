/**
 * Optional members at compile time: each form's wire schema (the tags, the
 * compact null, the inline members beside the state) and its generated
 * decode. The forms themselves, and how values travel in them, are
 * ../presence.ts.
 */

import { _, type Code, type Name } from "../../code.js";
import { inlineObject } from "../../ir/inline.js";
import type { Field } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import { minimal } from "../presence.js";
import type { WireContext } from "./context.js";
import { assign, counted, type DecodeGenerator, openObject, readMember } from "./decode-generator.js";

export const ABSENT_DEF = "strictwire_absent";
export const EMPTY_DEF = "strictwire_empty";

const ABSENT_SCHEMA: JsonObject = {
  type: "object",
  properties: { state: { type: "string", const: "absent" } },
  required: ["state"],
  additionalProperties: false,
};

const EMPTY_SCHEMA: JsonObject = { type: "object", properties: {}, required: [], additionalProperties: false };

const PRESENT = { type: "string", const: "present" } as const;

/** Whether the member must be listed in the wire object's `required`. */
export function wireRequired(field: Field): boolean {
  return !field.optional || field.presence !== "native";
}

export function fieldWire(field: Field, wctx: WireContext): JsonObject {
  const child = wctx.walk.wire(field.node, wctx);
  const annotations = field.annotations ?? {};
  if (!field.optional || field.presence === "native") return withAnnotations(child, annotations);
  // The member's description goes on the wrapper, where the model reads it, and only there.
  const inner = withoutDescription(child, annotations);
  if (field.presence === "compact") return { ...annotations, anyOf: [inner, { type: "null" }] };
  // Inline on a union (the plan check holds it to one closed object): a nullable object.
  const object = field.presence === "inline" && field.node.kind === "union" ? inlineObject(field.node) : undefined;
  if (object !== undefined && field.node.kind === "union") {
    // Its other values beside the two tags, the union's own keywords on the wrapper.
    const { anyOf: _branches, ...keywords } = inner;
    const objectWire = withoutDescription(wctx.walk.wire(object, wctx), annotations);
    const beside = field.node.branches.filter((b) => b !== object).map((b) => wctx.walk.wire(b, wctx));
    return { ...annotations, ...keywords, anyOf: [absentRef(field, wctx), presentWire(field, objectWire), ...beside] };
  }
  return { ...annotations, anyOf: [absentRef(field, wctx), presentWire(field, inner)] };
}

function absentRef(field: Field, wctx: WireContext): JsonObject {
  if (minimal(field)) {
    wctx.extraDefs[EMPTY_DEF] = EMPTY_SCHEMA;
    return { $ref: `#/$defs/${EMPTY_DEF}` };
  }
  wctx.extraDefs[ABSENT_DEF] = ABSENT_SCHEMA;
  return { $ref: `#/$defs/${ABSENT_DEF}` };
}

function presentWire(field: Field, inner: JsonObject): JsonObject {
  if (field.presence === "inline") {
    if (minimal(field)) return inner;
    const properties = inner.properties as JsonObject;
    const required = inner.required as string[];
    return { ...inner, properties: { state: PRESENT, ...properties }, required: ["state", ...required] };
  }
  if (minimal(field)) {
    return { type: "object", properties: { value: inner }, required: ["value"], additionalProperties: false };
  }
  return {
    type: "object",
    properties: { state: PRESENT, value: inner },
    required: ["state", "value"],
    additionalProperties: false,
  };
}

function withoutDescription(child: JsonObject, annotations: JsonObject): JsonObject {
  if (annotations.description === undefined || child.description !== annotations.description) return child;
  const { description: _moved, ...rest } = child;
  return rest;
}

function withAnnotations(child: JsonObject, annotations: JsonObject): JsonObject {
  if (annotations.description === undefined || child.description !== undefined) return child;
  return { ...annotations, ...child };
}

/**
 * The generated decode of one member of the object `w` (depth `d`) into
 * `into`, counting it in `seen`: the same forms `decodeField` accepts, each
 * tag checked as the parser checks a container.
 */
export function generateFieldDecode(field: Field, e: DecodeGenerator, into: Name, seen: Name): Code {
  const child = e.fn(field.node);
  const t = e.local("t");
  const decoded = (value: Code | Name, depth: Code): Code => {
    const v = e.local("v");
    return _`{ const ${v} = ${child}(${value}, ${depth}, s); if (${v} === F) return F; ${assign(into, field.name, v)} }`;
  };
  const member = _`${readMember(_`w`, field.name, t)}\n${seen}++;`;
  const deeper = _`d + 1`;
  if (!field.optional) return _`{ ${member}\n${decoded(t, deeper)} }`;
  switch (field.presence) {
    case "native":
      return _`if (H(w, ${field.name})) { ${seen}++; ${decoded(_`w[${field.name}]`, deeper)} }`;
    case "compact":
      return _`{ ${member}\nif (${t} !== null) ${decoded(t, deeper)} }`;
    case "inline": {
      const object = inlineObject(field.node);
      if (object === undefined) throw new Error("strictwire: inline presence on a member that is no object");
      // A nullable object's null (any value that is no object) is the member's own value.
      const nullable =
        object === field.node
          ? _``
          : _`if (typeof ${t} !== "object" || ${t} === null || A(${t})) ${decoded(t, deeper)} else `;
      if (minimal(field)) {
        // Absent is {}: the one form that needs a look for any member at all.
        const [empty, any] = [e.local("empty"), e.local("member")];
        return _`{ ${member}\n${nullable}{ if (typeof ${t} !== "object" || ${t} === null || A(${t})) return F;
let ${empty} = true;
for (const ${any} in ${t}) { ${empty} = false; break; }
if (${empty}) { if (d + 1 > s.maxDepth) return F; } else ${decoded(t, deeper)} } }`;
      }
      const v = e.local("v");
      return _`{ ${member}\n${nullable}{ if (typeof ${t} !== "object" || ${t} === null || A(${t})) return F;
if (${t}.state === "absent") {
if (d + 1 > s.maxDepth) return F;
${counted(1)}
} else { const ${v} = ${e.inlineFn(object)}(${t}, d + 1, s); if (${v} === F) return F; ${assign(into, field.name, v)} } } }`;
    }
    default: {
      // Members read are counted; any other member fails the text's member count.
      if (minimal(field)) {
        return _`{ ${member}\n${openObject(t, deeper)}
if (${t}.value !== undefined) { ${counted(1)} ${decoded(_`${t}.value`, _`d + 2`)} } }`;
      }
      return _`{ ${member}\n${openObject(t, deeper)}
if (${t}.state === "present" && ${t}.value !== undefined) { ${counted(2)} ${decoded(_`${t}.value`, _`d + 2`)} }
else if (${t}.state === "absent") { ${counted(1)} }
else return F; }`;
    }
  }
}
