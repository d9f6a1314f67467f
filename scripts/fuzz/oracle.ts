/**
 * The properties every fuzz target checks, written once. Each returns the
 * problems it saw as short signatures (empty when the property holds).
 */
import type { Codec, Result } from "@strictwire/codec";
import { canonical } from "../../packages/codec/testkit/same.js";
import { DECODE_CODES } from "./codes.js";

/** Own property names of the built-in prototypes when the run started. */
const BASELINE = snapshotPrototypes();

function snapshotPrototypes(): string {
  const names = (o: object) =>
    Reflect.ownKeys(o)
      .map((k) => String(k))
      .sort()
      .join(",");
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map(names).join("|");
}

/** Object.prototype and friends have no new, lost or replaced members, and plain objects still inherit from it. */
export function prototypesIntact(): boolean {
  if (snapshotPrototypes() !== BASELINE) return false;
  const probe: Record<string, unknown> = {};
  return Object.getPrototypeOf(probe) === Object.prototype && Object.getPrototypeOf(Object.prototype) === null;
}

/**
 * A decoded value is plain JSON data: objects inherit from Object.prototype
 * (every member, `__proto__` included, is an own data member), arrays are
 * arrays, numbers are finite and never -0. Iterative: values may be deep.
 */
export function plainJsonProblem(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return "a non-finite number";
      if (Object.is(v, -0)) return "a negative zero";
      continue;
    }
    if (typeof v !== "object") return `a ${typeof v}`;
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return "an array with another prototype";
      for (const item of v) stack.push(item);
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return "an object whose prototype is not Object.prototype";
    for (const key of Reflect.ownKeys(v)) {
      if (typeof key !== "string") return "a symbol key";
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      if (!("value" in d) || !d.enumerable) return `member ${JSON.stringify(key)} is not an enumerable data member`;
      stack.push(d.value);
    }
  }
  return undefined;
}

/** The shape every decode result must have, and what an acceptance promises. */
export function decodeProblems(codec: Codec, result: Result<unknown>, inputLength: number): string[] {
  const problems: string[] = [];
  if (typeof result !== "object" || result === null || typeof result.ok !== "boolean") return ["not a Result"];
  if (!result.ok) {
    const e = result.error;
    if (!DECODE_CODES.has(e.code)) problems.push(`unexpected code ${String(e.code)}`);
    if (typeof e.path !== "string" || (e.path !== "" && !e.path.startsWith("/"))) problems.push("path not a pointer");
    if (typeof e.message !== "string" || e.message.length === 0) problems.push("no message");
    if (typeof e.feedback !== "string" || e.feedback.length === 0) problems.push("no feedback");
    if (e.offset !== undefined && !(Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= inputLength)) {
      problems.push(`offset ${e.offset} outside the input`);
    }
    return problems;
  }
  const shape = plainJsonProblem(result.value);
  if (shape !== undefined) problems.push(`accepted value has ${shape}`);
  if (!codec.validate(result.value).ok) problems.push("accepted a value the original schema refuses");
  return problems;
}

/**
 * The round-trip invariant on an accepted value: it encodes, and decoding its
 * encoding gives it back exactly. A wire form too big for the decoder is the
 * one acceptable refusal (a mutation may grow a value up to the limits).
 */
export function roundTripProblems(codec: Codec, value: unknown): string[] {
  const encoded = codec.encode(value);
  if (!encoded.ok) {
    return encoded.error.code === "exceeds-decoder-limits"
      ? []
      : [`accepted value does not encode (${encoded.error.code})`];
  }
  const again = codec.decode(JSON.stringify(encoded.value));
  if (!again.ok) return [`re-encoded value does not decode (${again.error.code})`];
  return canonical(again.value) === canonical(value) ? [] : ["re-encoded value decodes to something else"];
}

/** Two decodes of the same content (other spelling, or bytes instead of text) must agree. */
export function sameOutcome(a: Result<unknown>, b: Result<unknown>, comparePath = true): boolean {
  if (a.ok !== b.ok) return false;
  if (a.ok && b.ok) return canonical(a.value) === canonical(b.value);
  if (!a.ok && !b.ok) return a.error.code === b.error.code && (!comparePath || a.error.path === b.error.path);
  return false;
}

export function outcome(r: Result<unknown>): string {
  return r.ok ? "accepted" : `${r.error.code} at ${JSON.stringify(r.error.path)}`;
}

/** Nodes and depth of a JSON value, measured independently of the codec (a root container is depth 1). */
export function measure(value: unknown): { nodes: number; depth: number } {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  let depth = 0;
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    nodes++;
    if (typeof v !== "object" || v === null) continue;
    const inner = d + 1;
    if (inner > depth) depth = inner;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) stack.push([c, inner]);
  }
  return { nodes, depth };
}

/** Whether a text is well-formed UTF-16 (no lone surrogates), so that its UTF-8 bytes say the same thing. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * What a value the codec validated still breaks, read independently of ajv
 * for the rules whose member names or equality once went wrong there: const,
 * enum, uniqueItems (JSON equality), required and dependentRequired (`""`
 * included). Other keywords are not read, so `anyOf` passes when any branch
 * passes this weaker reading: a problem found is a real one.
 */
export function equalityAndPresenceProblems(schema: unknown, value: unknown): string[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  if (s.const !== undefined && canonical(s.const) !== canonical(value)) out.push("const");
  if (Array.isArray(s.enum) && !s.enum.some((v) => canonical(v) === canonical(value))) out.push("enum");
  if (Array.isArray(s.anyOf) && !s.anyOf.some((b) => equalityAndPresenceProblems(b, value).length === 0))
    out.push("anyOf");
  if (Array.isArray(value)) {
    if (s.uniqueItems === true && new Set(value.map(canonical)).size !== value.length) out.push("uniqueItems");
    // `items` holds only past `prefixItems` (2020-12); read against it, a tuple's first places broke `items`' const.
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    for (const [i, item] of value.entries()) {
      out.push(...equalityAndPresenceProblems(i < prefix.length ? prefix[i] : s.items, item));
    }
  } else if (value !== null && typeof value === "object") {
    const has = (name: string) => Object.hasOwn(value, name);
    if (Array.isArray(s.required) && s.required.some((n) => typeof n === "string" && !has(n))) out.push("required");
    const dependent = (s.dependentRequired ?? {}) as Record<string, unknown>;
    for (const [name, needs] of Object.entries(dependent)) {
      if (has(name) && Array.isArray(needs) && needs.some((n) => typeof n === "string" && !has(n))) {
        out.push("dependentRequired");
      }
    }
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, unknown>);
    for (const name of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[name];
      // A name a pattern matches is held to that pattern's schema, and `additionalProperties` does not reach it.
      const matched = patterns.filter(([pattern]) => new RegExp(pattern, "u").test(name));
      for (const [, sub] of matched) out.push(...equalityAndPresenceProblems(sub, member));
      if (Object.hasOwn(properties, name)) out.push(...equalityAndPresenceProblems(properties[name], member));
      else if (matched.length === 0) out.push(...equalityAndPresenceProblems(s.additionalProperties, member));
    }
  }
  return out;
}
