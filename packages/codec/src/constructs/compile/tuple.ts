/**
 * Tuples at compile time: the wire schema of either form and its generated
 * decode (the forms, and how values travel in them, are ../tuple.ts).
 */

import { _, type Code, join, type Name } from "../../code.js";
import { mapField } from "../../ir/children.js";
import type { Field, TupleNode } from "../../ir/nodes.js";
import type { JsonObject } from "../../json.js";
import { REST, requiredCount, tupleForm } from "../tuple.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";
import { counted, type DecodeGenerator, openObject } from "./decode-generator.js";
import { fieldsWire } from "./object.js";
import { generateFieldDecode } from "./presence.js";

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

export const tupleCompiler: ConstructCompiler<TupleNode> = {
  kind: "tuple",
  mapChildren(node, f) {
    const positions = node.positions.map((p) => mapField(p, f));
    const rest = node.rest === undefined ? undefined : f({ node: node.rest, at: "[]" }).node;
    if (rest === node.rest && positions.every((p, i) => p === node.positions[i])) return node;
    return { ...node, positions, ...(rest === undefined ? {} : { rest }) };
  },
  wire: tupleWire,
  generateDecode: generateTupleDecode,
  levels: (node) => (node.form === "object" ? 1 : 0),
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
};
