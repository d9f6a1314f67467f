/**
 * The stream decoder's fast path (stream/lockstep.ts) against the walking
 * decoder (stream/decoder.ts), push by push: the same refusal, the same
 * partial value, the same `changed` and the same members completed (in any
 * order within a push), and the same end(). Over the fixtures' wires, generated
 * calls, wires broken at random (which hand the stream over) and the hostile
 * corpus. The walking decoder is what every other stream test holds to decode.
 */
import { isDeepStrictEqual } from "node:util";
import { type Codec, compileCodec, type DecodeOptions } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodecStreamDecoder } from "../../src/stream/decoder.js";
import { fastPathFits, LockstepDecoder } from "../../src/stream/lockstep.js";
import { runs } from "../../testkit/arbitraries.js";
import { allHostileCases, rawInput } from "../reliability/support.js";
import { deltaSizes, fixtureWires, generatedCalls, split } from "./support.js";

interface Tally {
  streams: number;
  handedOver: number;
}

/** Key order aside (the walking decoder puts a push's new members in declared order, the fast path in text order). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort())
    Object.defineProperty(out, k, { value: sorted((v as Record<string, unknown>)[k]), enumerable: true });
  return out;
}

/** The first difference between the two decoders over `deltas` ("" if none). */
function difference(codec: Codec, deltas: readonly string[], tally: Tally, options: DecodeOptions = {}): string {
  const walking = new CodecStreamDecoder(codec, options);
  const fast = new LockstepDecoder(codec, options, () => new CodecStreamDecoder(codec, options));
  let handed = false;
  for (let i = 0; i < deltas.length; i++) {
    const a = walking.push(deltas[i]!);
    const b = fast.push(deltas[i]!);
    const where = `push ${i} ${JSON.stringify(deltas[i])} after ${JSON.stringify(deltas.slice(0, i).join("").slice(-60))}`;
    // The push that hands over shows the walking decoder's object: said changed.
    const handing = !handed && fast.handedOver;
    handed = fast.handedOver;
    if (a.ok !== b.ok) return `${where}: ok ${a.ok} vs ${b.ok}`;
    if (!a.ok || !b.ok) {
      if (!a.ok && !b.ok && !isDeepStrictEqual(a.error, b.error))
        return `${where}: ${JSON.stringify(a.error)} vs ${JSON.stringify(b.error)}`;
      continue;
    }
    if (!isDeepStrictEqual(sorted(a.value), sorted(b.value)))
      return `${where}: value ${JSON.stringify(a.value)} vs ${JSON.stringify(b.value)}`;
    if (b.value !== fast.value) return `${where}: the step's value is not the decoder's`;
    if (a.changed !== b.changed && !(handing && b.changed)) return `${where}: changed ${a.changed} vs ${b.changed}`;
    if (!isDeepStrictEqual([...a.completed].sort(), [...b.completed].sort()))
      return `${where}: completed ${JSON.stringify(a.completed)} vs ${JSON.stringify(b.completed)}`;
    for (const pointer of [...a.completed, "", "/a", "/v", "/w/0", "/nope"])
      if (walking.stateAt(pointer) !== fast.stateAt(pointer))
        return `${where}: state of ${JSON.stringify(pointer)} ${walking.stateAt(pointer)} vs ${fast.stateAt(pointer)}`;
  }
  if (!isDeepStrictEqual(walking.end(), fast.end())) return "end() differs";
  tally.streams++;
  if (handed) tally.handedOver++;
  return "";
}

function expectSame(codec: Codec, deltas: readonly string[], tally: Tally, options?: DecodeOptions): void {
  const found = difference(codec, deltas, tally, options);
  if (found !== "") expect.fail(`${deltas.join("").slice(0, 200)}: ${found}`);
}

/** A codec for `schema` whose plan has `construct` (a piece of its JSON) and is read in step. */
function inStep(schema: object, construct: string): Codec {
  const compiled = compileCodec(schema);
  if (!compiled.ok) throw new Error(compiled.error.message);
  expect(JSON.stringify(compiled.value.bundle.plan)).toContain(construct);
  expect(fastPathFits(compiled.value)).toBe(true);
  return compiled.value;
}

/** A text broken at random: a character that may break JSON or the wire inserted, or a few removed. */
const broken = (text: string) =>
  fc
    .tuple(
      fc.nat({ max: Math.max(0, text.length - 1) }),
      fc.constantFrom(
        '"',
        "}",
        "]",
        ",",
        "x",
        "1",
        "\\",
        "{",
        "[",
        ":",
        " ",
        "null",
        "\\u00e9",
        "\\ud83d",
        "\ud83d",
        "e5",
        "-0",
        "0",
      ),
      fc.boolean(),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([at, junk, insert, cut]) =>
      insert ? text.slice(0, at) + junk + text.slice(at) : text.slice(0, at) + text.slice(at + cut),
    );

/** What a generated `same` union's member (or an array branch's element) is; two object shapes and a list among them. */
type Kind = "string" | "integer" | "boolean" | "enum" | "point" | "label" | "list";
const closed = (properties: Record<string, object>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const memberSchema = (kind: Kind): object =>
  kind === "enum"
    ? { enum: ["x", "yy"] }
    : kind === "point"
      ? closed({ x: { type: "integer" }, y: { type: "string" } })
      : kind === "label"
        ? closed({ x: { type: "string" } })
        : kind === "list"
          ? { type: "array", items: { type: "integer" } }
          : { type: kind };
const scalar = fc.oneof(fc.integer({ min: -9, max: 99 }), fc.constantFrom("s", "", true, null));
const memberValue = (kind: Kind): fc.Arbitrary<unknown> =>
  kind === "string"
    ? fc.string({ unit: fc.constantFrom("x", "y", '"', "é"), maxLength: 4 })
    : kind === "integer"
      ? fc.integer({ min: -50, max: 500 })
      : kind === "boolean"
        ? fc.boolean()
        : kind === "enum"
          ? fc.constantFrom("x", "yy", "z")
          : kind === "list"
            ? fc.array(fc.oneof(fc.integer({ min: -9, max: 99 }), scalar), { maxLength: 3 })
            : // Either object shape, or members of both (decode refuses most).
              fc.oneof(
                fc.record({ x: fc.integer({ min: 0, max: 9 }), y: fc.constantFrom("p", "q") }),
                fc.record({ x: fc.constantFrom("p", "q") }),
                fc.dictionary(fc.constantFrom("x", "y", "z"), scalar, { maxKeys: 3 }),
              );
describe("the stream decoder's fast path, push by push against the walking decoder", () => {
  const wires = fixtureWires().filter(({ codec }) => fastPathFits(codec));

  it("reads most fixtures' plans, and gives what the walking decoder gives for every wire, a character at a time", () => {
    expect(wires.length).toBeGreaterThan(40);
    const tally: Tally = { streams: 0, handedOver: 0 };
    for (const { codec, text } of wires) expectSame(codec, split(text, [1]), tally);
    expect(tally.streams).toBe(wires.length);
  });

  it("gives what the walking decoder gives for fixture wires in random splits", () => {
    const tally: Tally = { streams: 0, handedOver: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...wires), deltaSizes, ({ codec, text }, s) =>
        expectSame(codec, split(text, s), tally),
      ),
      { numRuns: runs(300) },
    );
  });

  it("gives what the walking decoder gives for generated calls (tagged presence)", () => {
    const tally: Tally = { streams: 0, handedOver: 0 };
    fc.assert(
      fc.property(generatedCalls, ([schema, , value, s]) => {
        const compiled = compileCodec(schema, { presence: "tagged" });
        if (!compiled.ok || !fastPathFits(compiled.value)) return;
        const encoded = compiled.value.encode(value);
        if (!encoded.ok) return;
        expectSame(compiled.value, split(JSON.stringify(encoded.value), s), tally);
      }),
      { numRuns: runs(300) },
    );
    expect(tally.streams).toBeGreaterThan(runs(300) / 10);
  });

  it("hands broken texts over and then is the walking decoder: the same refusal at the same push", () => {
    const tally: Tally = { streams: 0, handedOver: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...wires).chain((w) => fc.tuple(fc.constant(w.codec), broken(w.text), deltaSizes)),
        ([codec, text, s]) => expectSame(codec, split(text, s), tally),
      ),
      { numRuns: runs(600) },
    );
    // Most broken texts leave the plain path (the rest only lost a space or a digit).
    expect(tally.handedOver).toBeGreaterThan(tally.streams / 3);
  });

  it("gives what the walking decoder gives for the hostile corpus, a character at a time and whole", () => {
    const tally: Tally = { streams: 0, handedOver: 0 };
    let read = 0;
    for (const { schema, options, case: c } of allHostileCases()) {
      const compiled = compileCodec(schema, options);
      if (!compiled.ok || !fastPathFits(compiled.value)) continue;
      const input = rawInput(c);
      if (typeof input !== "string" || input.length > 20_000) continue;
      read++;
      expectSame(compiled.value, split(input, [1]), tally);
      expectSame(compiled.value, [input], tally);
    }
    expect(read).toBeGreaterThan(20);
  });

  it("reads a union by its discriminator and an inline member in step when the deciding member comes first, and hands over when it does not", () => {
    const contact = {
      type: "object",
      properties: { email: { type: "string" }, phone: { type: "string" } },
      required: ["email"],
      additionalProperties: false,
    };
    const shape = (kind: string, properties: object, required: string[]) => ({
      type: "object",
      properties: { kind: { const: kind }, ...properties },
      required: ["kind", ...required],
      additionalProperties: false,
    });
    const compiled = compileCodec({
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            oneOf: [
              shape("a", { x: { type: "string" } }, ["x"]),
              shape("b", { y: { type: "integer" }, contact }, ["y"]),
            ],
          },
        },
        contact,
      },
      required: ["items"],
      additionalProperties: false,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    const plan = JSON.stringify(codec.bundle.plan);
    expect(plan).toContain('"by":"discriminator"');
    expect(plan).toContain('"presence":"inline"');
    expect(fastPathFits(codec)).toBe(true);
    const encoded = codec.encode({
      items: [
        { kind: "a", x: "hi" },
        { kind: "b", y: 3, contact: { email: "e" } },
        { kind: "b", y: 4 },
      ],
      contact: { email: "f", phone: "1" },
    });
    if (!encoded.ok) throw new Error(encoded.error.message);
    const text = JSON.stringify(encoded.value);
    const tally: Tally = { streams: 0, handedOver: 0 };
    for (const sizes of [[1], [2, 5, 1], [7], [text.length]]) expectSame(codec, split(text, sizes), tally);
    expect(tally).toEqual({ streams: 4, handedOver: 0 });
    // The discriminator or the state after another member: shown only once decided, which the walking decoder does.
    const later = [
      '{"items":[{"x":"hi","kind":"a"}]}',
      '{"items":[],"contact":{"email":"f","state":"present"}}',
      '{"items":[{"kind":"b","y":1,"contact":{"email":"e","state":"present"}}]}',
    ];
    for (const t of later) expectSame(codec, split(t, [1]), tally);
    expect(tally).toEqual({ streams: 7, handedOver: 3 });
  });

  it("reads a container under a union whose rule is `same` in step when one branch alone takes its JSON type", () => {
    const codec = inStep(
      {
        type: "object",
        properties: {
          services: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
          scope: {
            anyOf: [
              {
                type: "object",
                properties: { project: { type: "string" } },
                required: ["project"],
                additionalProperties: false,
              },
              { type: "array", items: { type: "string" } },
            ],
          },
        },
        required: ["services", "scope"],
        additionalProperties: false,
      },
      '"by":"same"',
    );
    const tally: Tally = { streams: 0, handedOver: 0 };
    const values = [
      { services: ["a", "b"], scope: { project: "p" } },
      { services: "one", scope: ["x", "y"] },
      { services: [], scope: [] },
    ];
    for (const value of values) {
      const encoded = codec.encode(value);
      if (!encoded.ok) throw new Error(encoded.error.message);
      const text = JSON.stringify(encoded.value);
      for (const sizes of [[1], [3, 1], [text.length]]) expectSame(codec, split(text, sizes), tally);
    }
    expect(tally).toEqual({ streams: 9, handedOver: 0 });
    // A member the one object branch does not declare: refused on the wire, by the walking decoder.
    expectSame(codec, split('{"services":"s","scope":{"project":"p","nope":1}}', [1]), tally);
    expect(tally).toEqual({ streams: 10, handedOver: 1 });
  });

  it("reads an object several object branches of a `same` union take in step: through the first branch its members fit, a new object when that changes", () => {
    const object = (properties: object) => ({
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    const union = {
      anyOf: [
        object({ k: { enum: ["a", "b"] }, p: { type: "string" } }),
        object({ k: { type: "string" }, q: { type: "string" } }),
        object({ n: { type: "integer" } }),
        object({ n: { type: "string" }, m: { type: "boolean" } }),
      ],
    };
    const codec = inStep(
      {
        type: "object",
        properties: { u: union, list: { type: "array", items: union } },
        required: ["u", "list"],
        additionalProperties: false,
      },
      '"by":"same"',
    );
    const tally: Tally = { streams: 0, handedOver: 0 };
    // k "c" rules out the first branch once complete (a new object, said changed in a push that added nothing);
    // n rules out the first two by name, then one of the last two by its type.
    const list = '[{"k":"c","q":"s"},{"n":"s","m":true},{"n":5},{"k":"a","p":"s"},{}]';
    for (const u of ['{"n":12}', '{"k":"b","q":""}', '{"m":false,"n":"x"}'])
      for (const sizes of [[1], [2, 7, 1], [64]]) expectSame(codec, split(`{"u":${u},"list":${list}}`, sizes), tally);
    expect(tally).toEqual({ streams: 9, handedOver: 0 });
    // No branch left (decode refuses), a member given a container: the walking decoder's.
    for (const u of ['{"k":"c","p":"s"}', '{"n":true}', '{"k":[]}', '{"p":"s","q":"t"}'])
      expectSame(codec, split(`{"u":${u},"list":[]}`, [1]), tally);
    expect(tally).toEqual({ streams: 13, handedOver: 4 });
  });

  it("reads a container member of a `same` union's object in step when every branch left declares it alike", () => {
    const object = (properties: Record<string, object>) => ({
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    const coordinate = { type: "array", items: { type: "integer" } };
    // A tool's action, as a discriminated union with every member required becomes: every branch decodes as itself.
    const action = {
      anyOf: [
        object({ type: { const: "click" }, coordinate, button: { enum: ["left", "right"] } }),
        object({ type: { const: "type" }, text: { type: "string" } }),
        object({
          type: { const: "scroll" },
          coordinate,
          delta: object({ x: { type: "integer" }, y: { type: "integer" } }),
        }),
        object({ type: { const: "drag" }, path: { type: "array", items: coordinate } }),
      ],
    };
    const codec = inStep(
      {
        type: "object",
        properties: { actions: { type: "array", items: action } },
        required: ["actions"],
        additionalProperties: false,
      },
      '"by":"same"',
    );
    const tally: Tally = { streams: 0, handedOver: 0 };
    const actions = [
      '{"type":"click","coordinate":[10,20],"button":"left"}',
      '{"type":"scroll","coordinate":[1,2],"delta":{"x":0,"y":-3}}',
      '{"type":"type","text":"hi"}',
      '{"type":"drag","path":[[0,0],[5,5]]}',
    ];
    for (const a of actions)
      for (const sizes of [[1], [3, 5], [200]]) expectSame(codec, split(`{"actions":[${a}]}`, sizes), tally);
    expect(tally).toEqual({ streams: 12, handedOver: 0 });
    // The coordinate read through click's, then scroll's once "delta" rules click out, in a later push: a new object.
    const switching = '{"actions":[{"coordinate":[7],"delta":{"x":1,"y":1},"type":"scroll"}]}';
    for (const sizes of [[1], [3, 5]]) expectSame(codec, split(switching, sizes), tally);
    expect(tally).toEqual({ streams: 14, handedOver: 0 });
    // The branch changes in the push that completed a container member: how the walking decoder lists that member
    // then depends on whether it shows it anew, so it answers from that push. Branches left that declare a member
    // otherwise, and a container member no branch takes, hand over too.
    expectSame(codec, split(switching, [200]), tally);
    const other = inStep(
      {
        type: "object",
        properties: {
          u: {
            anyOf: [
              object({ p: coordinate, a: { type: "string" } }),
              object({ p: { type: "array", items: { type: "string" } } }),
            ],
          },
        },
        required: ["u"],
        additionalProperties: false,
      },
      '"by":"same"',
    );
    expectSame(other, split('{"u":{"p":["s"]}}', [1]), tally);
    expectSame(codec, split('{"actions":[{"type":"type","text":[]}]}', [1]), tally);
    expect(tally).toEqual({ streams: 17, handedOver: 3 });
  });

  it("gives what the walking decoder gives for generated `same` unions of objects, valid or mixing branches", () => {
    const branchArb = fc.uniqueArray(
      fc.record({
        name: fc.constantFrom("a", "b", "c", "d"),
        kind: fc.constantFrom<Kind>("string", "integer", "boolean", "enum", "point", "label", "list"),
      }),
      { minLength: 1, maxLength: 3, selector: (m) => m.name },
    );
    const callArb = fc.array(branchArb, { minLength: 2, maxLength: 4 }).chain((branches) => {
      const pool = branches.flat();
      // A value of one branch, or members drawn from any (most such refused by decode).
      const value = fc.oneof(
        fc
          .nat({ max: branches.length - 1 })
          .chain((i) => fc.tuple(...branches[i]!.map((m) => fc.tuple(fc.constant(m.name), memberValue(m.kind))))),
        fc.uniqueArray(
          fc.constantFrom(...pool).chain((m) => fc.tuple(fc.constant(m.name), memberValue(m.kind))),
          { maxLength: 3, selector: ([name]) => name },
        ),
      );
      return fc.tuple(fc.constant(branches), fc.array(value, { minLength: 1, maxLength: 3 }), deltaSizes);
    });
    const tally: Tally = { streams: 0, handedOver: 0 };
    let same = 0;
    let containersInStep = 0;
    fc.assert(
      fc.property(callArb, ([branches, values, sizes]) => {
        const union = {
          anyOf: branches.map((members) => ({
            type: "object",
            properties: Object.fromEntries(members.map((m) => [m.name, memberSchema(m.kind)])),
            required: members.map((m) => m.name),
            additionalProperties: false,
          })),
        };
        const compiled = compileCodec({
          type: "object",
          properties: { list: { type: "array", items: union } },
          required: ["list"],
          additionalProperties: false,
        });
        if (!compiled.ok || !JSON.stringify(compiled.value.bundle.plan).includes('"by":"same"')) return;
        same++;
        const list = values.map((members) => Object.fromEntries(members));
        const handed = tally.handedOver;
        expectSame(compiled.value, split(JSON.stringify({ list }), sizes), tally);
        if (tally.handedOver === handed && list.some((o) => Object.values(o).some((v) => typeof v === "object")))
          containersInStep++;
      }),
      { numRuns: runs(300) },
    );
    expect(same).toBeGreaterThan(runs(300) / 4);
    // Both read in step to their end and handed over (a member no branch left fits).
    expect(tally.handedOver).toBeGreaterThan(0);
    expect(tally.streams - tally.handedOver).toBeGreaterThan(runs(300) / 10);
    // Container members read in step, not only handed over.
    expect(containersInStep).toBeGreaterThan(runs(300) / 20);
  });

  it("gives what the walking decoder gives for generated `same` unions of arrays, valid or mixing branches", () => {
    const callArb = fc
      .uniqueArray(fc.constantFrom<Kind>("string", "integer", "boolean", "enum", "point", "label", "list"), {
        minLength: 2,
        maxLength: 4,
      })
      .chain((kinds) => {
        // Elements of one branch, or drawn from any (most such refused by decode).
        const element = fc.constantFrom(...kinds).chain(memberValue);
        const value = fc.oneof(
          fc.constantFrom(...kinds).chain((kind) => fc.array(memberValue(kind), { maxLength: 4 })),
          fc.array(element, { maxLength: 4 }),
        );
        return fc.tuple(fc.constant(kinds), fc.array(value, { minLength: 1, maxLength: 3 }), deltaSizes);
      });
    const tally: Tally = { streams: 0, handedOver: 0 };
    let same = 0;
    let inStepWithElements = 0;
    fc.assert(
      fc.property(callArb, ([kinds, values, sizes]) => {
        const union = { anyOf: kinds.map((kind) => ({ type: "array", items: memberSchema(kind) })) };
        const compiled = compileCodec({
          type: "object",
          properties: { u: union, list: { type: "array", items: union } },
          required: ["u", "list"],
          additionalProperties: false,
        });
        if (!compiled.ok || !JSON.stringify(compiled.value.bundle.plan).includes('"by":"same"')) return;
        same++;
        const handed = tally.handedOver;
        expectSame(compiled.value, split(JSON.stringify({ u: values[0], list: values.slice(1) }), sizes), tally);
        if (tally.handedOver === handed && values.some((v) => v.length > 0)) inStepWithElements++;
      }),
      { numRuns: runs(300) },
    );
    expect(same).toBeGreaterThan(runs(300) / 2);
    expect(tally.handedOver).toBeGreaterThan(0);
    expect(inStepWithElements).toBeGreaterThan(runs(300) / 10);
  });

  it("reads a mixed object in step, and hands over at an entry named as a declared member", () => {
    const codec = inStep(
      {
        type: "object",
        properties: {
          meta: {
            type: "object",
            properties: { a: { type: "string" }, b: { type: "string" } },
            required: ["a"],
            additionalProperties: { type: "integer" },
          },
        },
        required: ["meta"],
        additionalProperties: false,
      },
      '"kind":"mixed"',
    );
    const tally: Tally = { streams: 0, handedOver: 0 };
    const entries = '[{"key":"n","value":1},{"key":"m","value":2}]';
    expectSame(codec, split(`{"meta":{"fields":{"a":"x","b":{"state":"absent"}},"entries":${entries}}}`, [1]), tally);
    expectSame(codec, split(`{"meta":{"entries":${entries},"fields":{"a":"x","b":{"state":"absent"}}}}`, [2]), tally);
    expect(tally).toEqual({ streams: 2, handedOver: 0 });
    // Named as a declared member, present ("a") or absent ("b"): decode refuses it (entry-shadows-field).
    for (const key of ["a", "b"])
      expectSame(
        codec,
        split(`{"meta":{"fields":{"a":"x","b":{"state":"absent"}},"entries":[{"key":"${key}","value":1}]}}`, [1]),
        tally,
      );
    expect(tally).toEqual({ streams: 4, handedOver: 2 });
  });

  it("refuses a repeated name of a wide object (past the names compared one by one) as the walking decoder does", () => {
    const names = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const wide = {
      type: "object",
      properties: Object.fromEntries(names.map((n) => [n, { type: "integer" }])),
      required: names,
      additionalProperties: false,
    };
    const codec = inStep(wide, '"m39"');
    const member = (n: string, i: number) => `"${n}":${i}`;
    const whole = names.map(member);
    const tally: Tally = { streams: 0, handedOver: 0 };
    for (const sizes of [[1], [3], [7]]) expectSame(codec, split(`{${whole.join(",")}}`, sizes), tally);
    // Out of declared order: the walking reader finds members placed since its last read wherever they are declared.
    const reversed = [...whole].reverse();
    const interleaved = whole.map((_, i) => whole[(i * 7) % whole.length]!);
    for (const members of [reversed, interleaved]) expectSame(codec, split(`{${members.join(",")}}`, [1, 9, 2]), tally);
    // Wide objects one after another, each with the same names: none is a repeat.
    const list = inStep(
      {
        type: "object",
        properties: { list: { type: "array", items: wide } },
        required: ["list"],
        additionalProperties: false,
      },
      '"m39"',
    );
    expectSame(list, split(`{"list":[{${whole.join(",")}},{${whole.join(",")}}]}`, [5]), tally);
    expect(tally).toEqual({ streams: 6, handedOver: 0 });
    // Repeated: one of the first names once the Set has them all, one past them, one where the Set is made.
    for (const [repeat, at] of [
      [3, 30],
      [25, 39],
      [0, 16],
    ] as const) {
      const members = [...whole.slice(0, at), member(names[repeat]!, 7), ...whole.slice(at)];
      const text = `{${members.join(",")}}`;
      const fast = new LockstepDecoder(codec, {}, () => new CodecStreamDecoder(codec, {}));
      for (const delta of split(text, [2])) fast.push(delta);
      expect(fast.handedOver).toBe(true);
      const ended = fast.end();
      expect(ended.ok).toBe(false);
      if (!ended.ok) expect(ended.error.code).toBe("duplicate-key");
      expectSame(codec, split(text, [2]), tally);
    }
    expect(tally).toEqual({ streams: 9, handedOver: 3 });
  });

  it("ends a text it read whole with decode's own result, a broken contract or a lone surrogate refused in decode's words", () => {
    const compiled = compileCodec({
      type: "object",
      properties: {
        name: { type: "string", maxLength: 5 },
        n: { type: "integer", minimum: 1 },
        tags: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["name", "n"],
      additionalProperties: false,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    const texts = [
      '{"name":"ok","n":2,"tags":{"state":"present","value":[{"key":"a","value":"b"}]}}',
      '{"name":"too long","n":2,"tags":{"state":"absent"}}',
      '{"name":"ok","n":0,"tags":{"state":"absent"}}',
      '{"name":"\ud800","n":2,"tags":{"state":"absent"}}',
      '{"name":"ok","n":2,"tags":{"state":"present","value":[{"key":"a","value":"b"},{"key":"c","value":"d"}]}}  ',
    ];
    let inStep = 0;
    for (const text of texts) {
      const fast = new LockstepDecoder(codec, {}, () => new CodecStreamDecoder(codec, {}));
      for (const d of split(text, [3])) fast.push(d);
      if (!fast.handedOver) inStep++;
      expect(fast.end(), text).toEqual(codec.decode(text));
    }
    // A lone surrogate (raw here; escaped ones too) is the walking decoder's; the rest were read whole in step.
    expect(inStep).toBe(4);
    expect(codec.decode(texts[1]!).ok).toBe(false);
    expect(codec.decode(texts[2]!).ok).toBe(false);
    expect(codec.decode(texts[3]!).ok).toBe(false);
  });

  it("hands over near the limits and reads the rest as the walking decoder does", () => {
    const compiled = compileCodec({
      type: "object",
      properties: { a: { type: "array", items: { type: "array", items: { type: "integer" } } } },
      required: ["a"],
      additionalProperties: false,
    });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    const tally: Tally = { streams: 0, handedOver: 0 };
    const text = `{"a":[${Array.from({ length: 40 }, (_, i) => `[${i},${i + 1}]`).join(",")}]}`;
    for (const limits of [{ maxNodes: 30 }, { maxNodes: 200 }, { maxBytes: 120 }, { maxDepth: 2 }, { maxDepth: 3 }])
      expectSame(codec, split(text, [3, 1, 5]), tally, { limits });
    expect(tally.handedOver).toBeGreaterThanOrEqual(4);
    // A hand-over after some 10,000 deltas pushes every one of them into the walking decoder again, as it came.
    const long = `{"a":[${Array.from({ length: 1500 }, (_, i) => `[${i},${i + 1}]`).join(",")}],"a":[]}`;
    const before = tally.handedOver;
    expectSame(codec, split(long, [1, 2, 1]), tally);
    expect(tally.handedOver).toBe(before + 1);
    // Limits that are not plain counts: the walking decoder's from the start, whatever it makes of them.
    for (const limits of [{ maxBytes: Number.NaN }, { maxNodes: -1 }, { maxDepth: 2.5 }, { maxBytes: Infinity }]) {
      const before = tally.handedOver;
      expectSame(codec, split(text, [3, 1, 5]), tally, { limits });
      expect(tally.handedOver, JSON.stringify(limits)).toBe(before + 1);
    }
  });
});
