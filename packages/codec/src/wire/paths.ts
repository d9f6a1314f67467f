/**
 * A validator reports wire paths (/arguments/settings/value/timezone); people
 * and models think in original paths (/settings/timezone). Walk the wire value
 * alongside the plan to translate, as far as the wire value allows.
 */
import { pointerToken } from "../errors.js";
import type { Field, Node, Plan } from "../ir/nodes.js";
import { isPlainObject, pointerTokens } from "../json.js";

export function originalPath(plan: Plan, wire: unknown, wirePointer: string): string {
  const tokens = pointerTokens(wirePointer);
  if (tokens[0] !== "arguments") return "";
  const out: string[] = [];
  let node: Node | undefined = plan.root;
  let value: unknown = isPlainObject(wire) ? wire.arguments : undefined;
  let i = 1;
  let guard = 0;
  while (node !== undefined && i < tokens.length && guard++ < 10_000) {
    const token = tokens[i]!;
    switch (node.kind) {
      case "ref":
        node = plan.defs[node.def];
        continue;
      case "array":
        out.push(token);
        node = node.items;
        value = Array.isArray(value) ? value[Number(token)] : undefined;
        i++;
        continue;
      case "object": {
        const step = fieldStep(node.fields, tokens, i, value);
        if (step === undefined) return join(out);
        out.push(token);
        ({ node, value, next: i } = step);
        continue;
      }
      case "mixed": {
        if (token === "fields") {
          const fields = isPlainObject(value) ? value.fields : undefined;
          const name = tokens[i + 1];
          if (name === undefined) return join(out);
          const step = fieldStep(node.fields, tokens, i + 1, fields);
          if (step === undefined) return join(out);
          out.push(name);
          ({ node, value, next: i } = step);
          continue;
        }
        const entries = isPlainObject(value) ? value.entries : undefined;
        const entry = entryStep(entries, tokens, i + 1);
        if (entry === undefined) return join(out);
        out.push(entry.key);
        node = node.value;
        ({ value, next: i } = entry);
        continue;
      }
      case "map": {
        const entry = entryStep(value, tokens, i);
        if (entry === undefined) return join(out);
        out.push(entry.key);
        node = node.value;
        ({ value, next: i } = entry);
        continue;
      }
      case "union": {
        if (node.rule.by === "tag") {
          const b = isPlainObject(value) ? value.branch : undefined;
          const branch = typeof b === "number" ? node.branches[b] : undefined;
          if (branch === undefined || token !== "value") return join(out);
          node = branch;
          value = (value as Record<string, unknown>).value;
          i++;
          continue;
        }
        return join(out);
      }
      case "any": {
        if (Array.isArray(value)) {
          out.push(token);
          value = value[Number(token)];
          i++;
          continue;
        }
        const entry = entryStep(isPlainObject(value) ? value.entries : undefined, tokens, i + 1);
        if (entry === undefined) return join(out);
        out.push(entry.key);
        ({ value, next: i } = entry);
        continue;
      }
      default:
        return join(out);
    }
  }
  return join(out);
}

function fieldStep(
  fields: readonly Field[],
  tokens: readonly string[],
  i: number,
  value: unknown,
): { node: Node; value: unknown; next: number } | undefined {
  const name = tokens[i];
  const field = fields.find((f) => f.name === name);
  if (field === undefined || name === undefined) return undefined;
  let member = isPlainObject(value) ? value[name] : undefined;
  let next = i + 1;
  if (field.optional && field.presence === "tagged") {
    if (tokens[next] !== "value") return { node: field.node, value: undefined, next: tokens.length };
    member = isPlainObject(member) ? member.value : undefined;
    next++;
  }
  return { node: field.node, value: member, next };
}

function entryStep(
  entries: unknown,
  tokens: readonly string[],
  i: number,
): { key: string; value: unknown; next: number } | undefined {
  const index = Number(tokens[i]);
  const entry = Array.isArray(entries) ? entries[index] : undefined;
  if (!isPlainObject(entry) || typeof entry.key !== "string") return undefined;
  if (tokens[i + 1] !== "value") return { key: entry.key, value: undefined, next: tokens.length };
  return { key: entry.key, value: entry.value, next: i + 2 };
}

function join(tokens: readonly string[]): string {
  return tokens.map((t) => `/${pointerToken(t)}`).join("");
}
