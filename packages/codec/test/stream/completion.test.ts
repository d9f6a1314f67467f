/**
 * Completion you can see (stream/types.ts `completed`, `stateAt`), and partial
 * values true for unions of objects whatever their rule: over generated unions
 * of objects (discriminated, tagged, undiscriminated; every branch decoding
 * as itself or not) and of arrays (with a branch not read as itself or not), streamed in random deltas, every member a push reports
 * complete equals its final value and never changes afterwards, each member
 * is reported once, `stateAt` agrees, and the last partial is `end()`'s value.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodecStreamDecoder } from "../../src/stream/decoder.js";
import { runs } from "../../testkit/arbitraries.js";
import { deltaSizes, inconsistency, split } from "./support.js";

type Kind = "string" | "integer" | "strings" | "object";
interface Branch {
  readonly members: readonly { readonly name: string; readonly kind: Kind; readonly optional: boolean }[];
  readonly constant: string | undefined;
}
type UnionShape = "discriminated" | "undiscriminated" | "discriminated, optional members" | "tagged";

const NAMES = ["a", "b", "c", "d", "e"];

function memberSchema(kind: Kind): object {
  switch (kind) {
    case "string":
      return { type: "string" };
    case "integer":
      return { type: "integer" };
    case "strings":
      return { type: "array", items: { type: "string" } };
    case "object":
      return {
        type: "object",
        properties: { x: { type: "string" }, y: { type: "integer" } },
        required: ["x", "y"],
        additionalProperties: false,
      };
  }
}

function branchSchema(branch: Branch): object {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  if (branch.constant !== undefined) {
    properties.kind = { const: branch.constant };
    required.push("kind");
  }
  for (const m of branch.members) {
    properties[m.name] = memberSchema(m.kind);
    if (!m.optional) required.push(m.name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}

const kindArb = fc.constantFrom<Kind>("string", "integer", "strings", "object");

/** Branches of one shape: a discriminator (a constant `kind`) or none, optional members (no longer decoding as themselves) or none. */
const unionArb = fc
  .constantFrom<UnionShape>(
    ...(["discriminated", "undiscriminated", "discriminated, optional members", "tagged"] as const),
  )
  .chain((shape) => {
    const optional = shape === "discriminated, optional members" || shape === "tagged";
    const constant = shape.startsWith("discriminated");
    const branch = fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).chain((names) =>
      fc.tuple(
        ...names.map((name) =>
          fc.record({
            name: fc.constant(name),
            kind: kindArb,
            optional: optional ? fc.boolean() : fc.constant(false),
          }),
        ),
      ),
    );
    return fc.tuple(fc.constant(shape), fc.array(branch, { minLength: 2, maxLength: 4 })).map(([s, members]) => ({
      shape: s,
      branches: members.map(
        (m, i): Branch => ({ members: m, constant: constant ? `k${i}-${"x".repeat(i)}` : undefined }),
      ),
    }));
  });

function memberValue(kind: Kind): fc.Arbitrary<unknown> {
  const text = fc.string({ unit: fc.constantFrom("a", "b", " ", '"', "\\", "é", "\n"), maxLength: 6 });
  switch (kind) {
    case "string":
      return text;
    case "integer":
      return fc.integer({ min: -1000, max: 1000 });
    case "strings":
      return fc.array(text, { maxLength: 3 });
    case "object":
      return fc.record({ x: text, y: fc.integer({ min: 0, max: 99 }) });
  }
}

function branchValue(branch: Branch): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(...branch.members.map((m) => fc.tuple(memberValue(m.kind), m.optional ? fc.boolean() : fc.constant(true))))
    .map((values) => {
      const out: Record<string, unknown> = {};
      if (branch.constant !== undefined) out.kind = branch.constant;
      branch.members.forEach((m, i) => {
        const [value, present] = values[i]!;
        if (present) out[m.name] = value;
      });
      return out;
    });
}

/** A root with the union as a member and as array elements, a value for it, and delta sizes. */
const callArb = unionArb.chain(({ shape, branches }) => {
  const union = { anyOf: branches.map(branchSchema) };
  const schema = {
    type: "object",
    properties: { u: union, list: { type: "array", items: union }, after: { type: "string" } },
    required: ["u", "list", "after"],
    additionalProperties: false,
  };
  const one = fc.nat(branches.length - 1).chain((i) => branchValue(branches[i]!));
  const value = fc.record({ u: one, list: fc.array(one, { maxLength: 3 }), after: fc.constant("end") });
  return fc.tuple(fc.constant(shape), fc.constant(schema), value, deltaSizes);
});

/** Every JSON Pointer in a value, the value's own ("") first. */
function pointersOf(value: unknown, at = "", out: string[] = []): string[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) pointersOf(value[i], `${at}/${i}`, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value))
      pointersOf(v, `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, out);
  }
  return out;
}

function at(value: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === "") return { found: value !== undefined, value };
  let v = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, token)) return { found: false };
    v = (v as Record<string, unknown>)[token];
  }
  return { found: true, value: v };
}

const compiledCache = new Map<string, Codec>();
function compile(schema: object): Codec {
  const key = JSON.stringify(schema);
  let codec = compiledCache.get(key);
  if (codec === undefined) {
    const compiled = compileCodec(schema, { name: "union" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    codec = compiled.value;
    compiledCache.set(key, codec);
  }
  return codec;
}

/**
 * Streams the value's wire text and checks completion against the final
 * value: each reported pointer once, its value then equal to the final one
 * and unchanged afterwards, `stateAt` in agreement, every partial consistent
 * with the final value, the last one `end()`'s value. With deltas of one
 * character every member of the final value is reported.
 */
function checkStream(codec: Codec, value: unknown, sizes: readonly number[]): void {
  const encoded = codec.encode(value);
  if (!encoded.ok) throw new Error(encoded.error.message);
  const text = JSON.stringify(encoded.value);
  const decoded = codec.decode(text);
  expect(decoded.ok, text).toBe(true);
  if (!decoded.ok) return;
  const final = decoded.value;
  const all = pointersOf(final);
  const reported = new Map<string, string>();
  const decoder = codec.streamDecoder();
  let written = "";
  for (const delta of split(text, sizes)) {
    written += delta;
    const step = decoder.push(delta);
    expect(step.ok, written).toBe(true);
    if (!step.ok) return;
    const where = `${text} after ${JSON.stringify(written)}: ${JSON.stringify(step.value)}`;
    expect(inconsistency(step.value, final), where).toBe("");
    for (const pointer of step.completed) {
      expect(reported.has(pointer), `${where}: ${pointer} reported twice`).toBe(false);
      const shown = at(step.value, pointer);
      expect(shown.found, `${where}: ${pointer} reported but not shown`).toBe(true);
      expect(shown.value, `${where}: ${pointer} complete`).toEqual(at(final, pointer).value);
      reported.set(pointer, JSON.stringify(shown.value));
    }
    // A complete member never changes.
    for (const [pointer, json] of reported) {
      expect(JSON.stringify(at(step.value, pointer).value), `${where}: ${pointer} changed`).toBe(json);
    }
    for (const pointer of all) {
      const complete = [...reported.keys()].some((r) => pointer === r || pointer.startsWith(`${r}/`) || r === "");
      const expected = complete ? "complete" : at(step.value, pointer).found ? "incomplete" : "pending";
      expect(decoder.stateAt(pointer), `${where}: state of ${pointer}`).toBe(expected);
    }
  }
  const end = decoder.end();
  expect(end).toEqual(decoded);
  expect(decoder.value, text).toEqual(final);
  expect(reported.has(""), text).toBe(true);
  if (sizes.every((n) => n === 1)) expect([...reported.keys()].sort(), text).toEqual([...all].sort());
}

/**
 * Unions of arrays (of strings, integers, arrays of strings or objects), with
 * or without an object branch whose optional member travels tagged (not read
 * as itself, so the union reads arrays by their JSON type): a root with the
 * union as a member and as array elements, a value of one array branch, and
 * delta sizes.
 */
const arrayUnionArb = fc
  .tuple(
    fc.uniqueArray(kindArb, { minLength: 2, maxLength: 3 }),
    fc.constantFrom<"none" | "tagged object" | "string">("none", "tagged object", "string"),
  )
  .chain(([kinds, other]) => {
    const branches: object[] = kinds.map((k) => ({ type: "array", items: memberSchema(k) }));
    if (other === "tagged object") {
      branches.push({ type: "object", properties: { z: { type: "integer" } }, additionalProperties: false });
    } else if (other === "string") branches.push({ type: "string" });
    const union = { anyOf: branches };
    const schema = {
      type: "object",
      properties: { u: union, list: { type: "array", items: union } },
      required: ["u", "list"],
      additionalProperties: false,
    };
    const one = fc.nat(kinds.length - 1).chain((i) => fc.array(memberValue(kinds[i]!), { maxLength: 3 }));
    return fc.tuple(fc.constant(schema), fc.record({ u: one, list: fc.array(one, { maxLength: 2 }) }), deltaSizes);
  });

describe("stream decoder: unions of objects, completion", () => {
  it("shows an array under a union of arrays through the branch its elements fit, whatever the union's rule (random deltas)", () => {
    fc.assert(
      fc.property(arrayUnionArb, ([schema, value, sizes]) => {
        checkStream(compile(schema), value, sizes);
      }),
      { numRuns: runs(100) },
    );
  }, 300_000);

  it("shows the branch the text picks and reports each member complete once, final and unchanged (random deltas)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(callArb, ([shape, schema, value, sizes]) => {
        seen.add(shape);
        checkStream(compile(schema), value, sizes);
      }),
      { numRuns: runs(100) },
    );
    expect(seen.size).toBe(4);
  }, 300_000);

  it("reports every member of the final value when streamed a character at a time", () => {
    fc.assert(
      fc.property(callArb, ([, schema, value]) => {
        checkStream(compile(schema), value, [1]);
      }),
      { numRuns: runs(50) },
    );
  }, 300_000);

  it("shows a member only a later branch declares (a contact's zip), in deltas of every size", () => {
    const branch = (kind: string, members: string[]) => ({
      type: "object",
      properties: { kind: { const: kind }, ...Object.fromEntries(members.map((m) => [m, { type: "string" }])) },
      required: ["kind", ...members],
      additionalProperties: false,
    });
    const codec = compile({
      type: "object",
      properties: {
        contact: {
          anyOf: [branch("phone", ["number"]), branch("email", ["address"]), branch("postal", ["address", "zip"])],
        },
      },
      required: ["contact"],
      additionalProperties: false,
    });
    for (const value of [
      { contact: { kind: "postal", address: "1 Main St", zip: "12345" } },
      { contact: { kind: "email", address: "ana@example.com" } },
    ]) {
      for (let size = 1; size <= 8; size++) checkStream(codec, value, [size]);
    }
    const decoder = codec.streamDecoder();
    const step = decoder.push('{"contact":{"kind":"postal","address":"1 Main St","zip":"123');
    expect(step.ok && step.value).toEqual({ contact: { kind: "postal", address: "1 Main St", zip: "123" } });
    expect(decoder.stateAt("/contact/address")).toBe("complete");
    expect(decoder.stateAt("/contact/zip")).toBe("incomplete");
    expect(decoder.stateAt("/contact")).toBe("incomplete");
    expect(decoder.stateAt("/other")).toBe("pending");
  });

  /** A union's first array branch, of closed objects: an element of another type shows as nothing through it. */
  const ARRAY_OF_OBJECTS = {
    type: "array",
    items: { type: "object", properties: { a: { type: "integer" } }, required: ["a"], additionalProperties: false },
  };

  it("shows an array through the array branch its elements fit (an array of arrays after an array of objects)", () => {
    const codec = compile({
      type: "object",
      properties: {
        u: {
          anyOf: [
            ARRAY_OF_OBJECTS,
            { type: "array", items: { type: "array", items: { type: "integer" } } },
            { type: "string" },
          ],
        },
      },
      required: ["u"],
      additionalProperties: false,
    });
    for (const value of [{ u: [[0]] }, { u: [{ a: 1 }, { a: 2 }] }, { u: [[], [3, 4]] }, { u: "x" }]) {
      for (let size = 1; size <= 4; size++) checkStream(codec, value, [size]);
    }
    // Read through the first array branch, the inner array was shown as nothing: {"u":[]} at the end of the text.
    const decoder = codec.streamDecoder();
    const step = decoder.push('{"u":[[0]]}');
    expect(step.ok && step.value).toEqual({ u: [[0]] });
    expect(decoder.end()).toEqual(codec.decode('{"u":[[0]]}'));
  });

  it("shows an array through the array branch its elements fit where a branch of another type is not read as itself (a type rule)", () => {
    // The object branch's optional member travels tagged, so the union's rule reads arrays by their JSON type (every
    // array branch decodes as itself, through the first); shown through the first array branch, "" was nothing.
    const codec = compile({
      type: "object",
      properties: {
        u: {
          anyOf: [
            ARRAY_OF_OBJECTS,
            { type: "array", items: { type: "string" } },
            { type: "object", properties: { b: { type: "integer" } }, additionalProperties: false },
          ],
        },
      },
      required: ["u"],
      additionalProperties: false,
    });
    expect(codec.bundle.plan.root).toMatchObject({ fields: [{ node: { kind: "union", rule: { by: "type" } } }] });
    for (const value of [{ u: [""] }, { u: ["x", "yz"] }, { u: [{ a: 1 }] }, { u: [] }, { u: {} }, { u: { b: 2 } }]) {
      for (let size = 1; size <= 4; size++) checkStream(codec, value, [size]);
    }
    const decoder = codec.streamDecoder();
    const step = decoder.push('{"u":[""]}');
    expect(step.ok && step.value).toEqual({ u: [""] });
  });

  it("reports a union read by a tag complete in the push its value completes, by both readers", () => {
    // Unions that share a JSON type travel as {"branch", "value"}; the place was reported only when a later member
    // began (a scalar value in a tagged member) or when the union's object closed (a branch through a reference).
    const codec = compile({
      type: "object",
      properties: {
        v: {
          type: "object",
          properties: {
            "": { anyOf: [{ anyOf: [{}, { type: "null" }] }, { type: "null" }] },
            other: { type: "string" },
          },
        },
        w: { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }] },
      },
      required: ["v", "w"],
      additionalProperties: false,
      $defs: {
        a: { type: "object", properties: { x: { type: "string" } }, required: ["x"], additionalProperties: false },
        b: { type: "object", properties: { x: { type: "integer" } }, required: ["x"], additionalProperties: false },
      },
    });
    expect(JSON.stringify(codec.bundle.plan)).toContain('"by":"tag"');
    const text =
      '{"v":{"":{"state":"present","value":{"branch":1,"value":null}},"other":{"state":"absent"}},"w":{"branch":0,"value":{"x":"hi"}}}';
    expect(codec.decode(text).ok).toBe(true);
    for (const make of [() => codec.streamDecoder(), () => new CodecStreamDecoder(codec, {})]) {
      const decoder = make();
      const reported = new Map<string, string>();
      let read = "";
      for (const ch of text) {
        read += ch;
        const step = decoder.push(ch);
        if (!step.ok) throw new Error(step.error.message);
        for (const pointer of step.completed) reported.set(pointer, read);
      }
      // Each in the push of its value's last character.
      expect(reported.get("/v/")).toBe(text.slice(0, text.indexOf("null") + 4));
      expect(reported.get("/w")).toBe(text.slice(0, text.indexOf('"hi"}') + 5));
    }
  });
});
