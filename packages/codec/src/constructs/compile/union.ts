/**
 * Unions, at compile time: the wire schema of each rule, the rule chosen
 * once the branches are settled, and the generated decode. How values
 * travel, each rule decoded and encoded, is ../union.ts.
 */

import { _, type Code, join } from "../../code.js";
import type { Defs } from "../../ir/children.js";
import type { Node, UnionNode, UnionRule } from "../../ir/nodes.js";
import { JSON_TYPES, type JsonObject, type JsonType } from "../../json.js";
import type { Walk } from "../context.js";
import { constantsOf, resolveObject } from "../union.js";
import type { ConstructCompiler } from "./construct.js";
import type { WireContext } from "./context.js";
import type { DecodeGenerator } from "./decode-generator.js";

function unionWire(node: UnionNode, wctx: WireContext): JsonObject {
  const annotations = node.schema;
  if (node.rule.by === "tag") {
    return {
      ...annotations,
      anyOf: node.branches.map((b, i) => ({
        type: "object",
        properties: { branch: { type: "integer", const: i }, value: wctx.walk.wire(b, wctx) },
        required: ["branch", "value"],
        additionalProperties: false,
      })),
    };
  }
  const wires = node.branches.map((b) => wctx.walk.wire(b, wctx));
  if (wires.length === 1) return { ...annotations, ...wires[0] };
  return { ...annotations, anyOf: wires };
}

/** Pick the cheapest exact rule for these branches. */
export function chooseRule(
  branches: readonly Node[],
  defs: Defs,
  unsettled: ReadonlySet<string>,
  walk: Walk,
): UnionRule {
  // Definitions still being settled count as "any type": conservative, never wrong.
  const info = branches.map((b) => ({
    types: walk.wireTypes(b, defs, new Set(unsettled)),
    identity: walk.identity(b, defs),
  }));
  if (info.every((i) => i.identity)) return { by: "same" };

  const byType: Partial<Record<JsonType, number>> = {};
  let typed = true;
  for (const t of JSON_TYPES) {
    const producers: number[] = [];
    info.forEach((x, i) => {
      if (x.types.includes(t)) producers.push(i);
    });
    if (producers.length === 0) continue;
    if (producers.length === 1 || producers.every((i) => info[i]!.identity)) byType[t] = producers[0]!;
    else {
      typed = false;
      break;
    }
  }
  if (typed) return { by: "type", types: byType };

  const discriminator = findDiscriminator(branches, defs);
  if (discriminator !== undefined) return discriminator;
  return { by: "tag" };
}

/** A required member whose constant values differ in every branch. */
function findDiscriminator(branches: readonly Node[], defs: Defs): UnionRule | undefined {
  const objects = branches.map((b) => resolveObject(b, defs));
  if (objects.some((o) => o === undefined)) return undefined;
  const first = objects[0]!;
  for (const candidate of first.fields) {
    const values: Record<string, number> = {};
    let usable = true;
    objects.forEach((o, i) => {
      if (!usable) return;
      const field = o!.fields.find((f) => f.name === candidate.name);
      const constants = field && !field.optional ? constantsOf(field.node, defs) : undefined;
      if (constants === undefined) {
        usable = false;
        return;
      }
      for (const c of constants) {
        if (values[c] !== undefined) usable = false;
        values[c] = i;
      }
    });
    if (usable) return { by: "discriminator", field: candidate.name, values };
  }
  return undefined;
}

function unionTravels(rule: UnionRule): string {
  switch (rule.by) {
    case "same":
      return "as is, every branch alike";
    case "type":
      return "by JSON type";
    case "discriminator":
      return `by discriminator ${JSON.stringify(rule.field)}`;
    case "tag":
      return "tagged {branch, value}";
  }
}

/**
 * The generated decode of a union: the branch its rule names, decoded by that
 * branch's function. A type-ruled branch that does not take the value goes to
 * the interpreted walk, which tries the other identity branches of that type.
 */
function generateUnionDecode(node: UnionNode, e: DecodeGenerator): Code {
  const rule = node.rule;
  const here = e.index(node);
  const call = (i: number, value: Code, depth: Code): Code => _`${e.fn(node.branches[i]!)}(${value}, ${depth}, s)`;
  switch (rule.by) {
    case "same": {
      // Each branch decodes as the identity: the first that takes the value, its counts undone if it does not.
      const [nodes, members, v] = [e.local("nodes"), e.local("members"), e.local("v")];
      const tries = node.branches.map(
        (_b, i) =>
          _`${v} = ${call(i, _`w`, _`d`)};\nif (${v} !== F) return ${v};\ns.nodes = ${nodes}; s.members = ${members};`,
      );
      return _`const ${nodes} = s.nodes, ${members} = s.members;\nlet ${v};\n${join(tries)}\nreturn F;`;
    }
    case "type": {
      const [nodes, members, v] = [e.local("nodes"), e.local("members"), e.local("v")];
      const pick = (t: JsonType): Code => {
        const branch = rule.types[t];
        return branch === undefined ? _`F` : call(branch, _`w`, _`d`);
      };
      return _`const ${nodes} = s.nodes, ${members} = s.members;
let ${v};
switch (typeof w) {
case "string": ${v} = ${pick("string")}; break;
case "number": ${v} = ${pick("number")}; break;
case "boolean": ${v} = ${pick("boolean")}; break;
case "object": ${v} = w === null ? ${pick("null")} : A(w) ? ${pick("array")} : ${pick("object")}; break;
default: return F;
}
if (${v} !== F) return ${v};
s.nodes = ${nodes}; s.members = ${members};
return X(${here}, w, d, s);`;
    }
    case "discriminator": {
      const cases = node.branches.map((_b, i) => _`case ${i}: return ${call(i, _`w`, _`d`)};`);
      return _`if (typeof w !== "object" || w === null || A(w) || !H(w, ${rule.field})) return F;
switch (DISC(${here}, w[${rule.field}])) {
${join(cases)}
default: return F;
}`;
    }
    case "tag":
      // The interpreted walk reads it: the branch named must hold by its own source schema (s.holds), which only
      // a validator can say.
      return _`return X(${here}, w, d, s);`;
  }
}

export const unionCompiler: ConstructCompiler<UnionNode> = {
  kind: "union",
  generateDecode: generateUnionDecode,
  levels: (node) => (node.rule.by === "tag" ? 1 : 0),
  mapChildren(node, f) {
    const branches = node.branches.map((b, i) => f({ node: b, at: `|${i}` }).node);
    return branches.every((b, i) => b === node.branches[i]) ? node : { ...node, branches };
  },
  wire: unionWire,
  settle: (node, defs, unsettled, walk) => ({ ...node, rule: chooseRule(node.branches, defs, unsettled, walk) }),
  describe: (node) => ({
    type: `union (${node.branches.length})`,
    travels: unionTravels(node.rule),
    extra: { rule: node.rule.by, ...(node.rule.by === "discriminator" ? { discriminator: node.rule.field } : {}) },
  }),
  tsType(node, ctx) {
    let parts = [...new Set(node.branches.map((b) => ctx.inPlace(b).text))];
    // A branch that only named its own cycle adds nothing.
    if (parts.length > 1) parts = parts.filter((p) => p !== "never");
    return { text: parts.join(" | "), union: parts.length > 1 };
  },
};
