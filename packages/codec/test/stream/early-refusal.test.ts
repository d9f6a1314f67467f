/**
 * Wire-level early refusal (stream/candidates.ts): a broken wire is refused at
 * its first impossible character with decode's code, and a mutated wire is
 * refused early only when decode refuses the whole text with the same code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Codec, compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "../../testkit/arbitraries.js";
import { FIXTURES, schemaFixtures } from "../../testkit/fixtures.js";
import { deltaSizes, split } from "./support.js";

interface BrokenWire {
  readonly schema: string;
  readonly why: string;
  readonly text: string;
  readonly impossibleAt: number;
}

const fixtures = new Map(schemaFixtures().map((f) => [f.name, f]));
const codecs = new Map<string, Codec>();
function codecOf(name: string): Codec {
  let codec = codecs.get(name);
  if (codec === undefined) {
    const fixture = fixtures.get(name);
    if (fixture === undefined) throw new Error(`no schema fixture ${name}`);
    const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture" });
    if (!compiled.ok) throw new Error(`${name} does not compile`);
    codec = compiled.value;
    codecs.set(name, codec);
  }
  return codec;
}

/** The index of the delta at which the stream refused (-1: never), and the refusal's code. */
function streamed(codec: Codec, deltas: readonly string[]): { at: number; code: string | undefined } {
  const decoder = codec.streamDecoder();
  for (let i = 0; i < deltas.length; i++) {
    const step = decoder.push(deltas[i]!);
    if (!step.ok) return { at: i, code: step.error.code };
  }
  return { at: -1, code: undefined };
}

describe("early refusal: the broken-wires corpus", () => {
  const corpus = JSON.parse(readFileSync(join(FIXTURES, "stream", "broken-wires.json"), "utf8")) as BrokenWire[];

  it("refuses each text streamed a character at a time at its first impossible character, with decode's code", () => {
    expect(corpus.length).toBeGreaterThan(10);
    for (const { schema, why, text, impossibleAt } of corpus) {
      const codec = codecOf(schema);
      const whole = codec.decode(text);
      expect(whole.ok, why).toBe(false);
      const { at, code } = streamed(codec, [...text]);
      expect(at, why).toBe(impossibleAt);
      expect(code, why).toBe(whole.ok ? undefined : whole.error.code);
    }
  });

  it("refuses each text split anywhere, in deltas of 1 to 8 characters, at the delta holding its first impossible character", () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 16 }), (k, sizes) => {
        const { schema, why, text, impossibleAt } = corpus[k % corpus.length]!;
        const deltas: string[] = [];
        let holding = -1;
        for (let at = 0, i = 0; at < text.length; i++) {
          const size = sizes[i % sizes.length]!;
          if (at <= impossibleAt && impossibleAt < at + size) holding = deltas.length;
          deltas.push(text.slice(at, at + size));
          at += size;
        }
        const codec = codecOf(schema);
        const whole = codec.decode(text);
        const { at, code } = streamed(codec, deltas);
        expect(at, `${why}: ${JSON.stringify(deltas)}`).toBe(holding);
        expect(code, why).toBe(whole.ok ? undefined : whole.error.code);
      }),
      { numRuns: runs(400) },
    );
  });

  it("refuses in the delta that writes the impossible value even when the same delta moves past it", () => {
    // Each delta writes the impossible thing and what follows it: a number for a string, an undeclared member, an
    // array where an object goes, a tag's state; a model's tokens are often this long.
    const codec = codecOf("http-request");
    for (const [first, second] of [
      ['{"method":', '1,"url":"https://a.example"'],
      ['{"method":"GET",', '"bogus":1,"url":"https://a.example"'],
      ['{"method":"GET","url":"https://a.example"', ',"bogus":1,"headers":{"state":"absent"}'],
      ['{"method":"GET","url":"https://a.example","headers":', '[],"query":{"state":"absent"}'],
      ['{"method":"GET","url":"https://a.example","headers":{"state":', '"nope"},"query":{"state":"absent"}'],
    ] as const) {
      const decoder = codec.streamDecoder();
      expect(decoder.push(first).ok, first).toBe(true);
      const step = decoder.push(second);
      expect(step.ok, `${first} | ${second}`).toBe(false);
      expect(step.ok ? undefined : step.error.code).toBe("wire-violation");
    }
  });

  it("refuses no character earlier: the text up to the one before is still streamed without refusal", () => {
    for (const { schema, why, text, impossibleAt } of corpus) {
      const decoder = codecOf(schema).streamDecoder();
      expect(decoder.push(text.slice(0, impossibleAt)).ok, why).toBe(true);
      expect(decoder.push(text[impossibleAt]!).ok, why).toBe(false);
    }
  });
});

describe("early refusal: a number a comma or closer ends", () => {
  // The parser reads a number's end and what follows it in one push: the number must be checked in between.
  const compiled = compileCodec({
    type: "object",
    properties: {
      level: { enum: [1, 2, 3] },
      note: { type: "string" },
      codes: { type: "array", items: { const: 7 } },
    },
    required: ["level", "note", "codes"],
    additionalProperties: false,
  });
  if (!compiled.ok) throw new Error("does not compile");
  const codec = compiled.value;
  // Each text with the index of the character that ends its impossible number (a comma, '}' or ']').
  const cases = [
    ['{"level":4,"note":"x","codes":[]}', 10],
    ['{"note":"x","codes":[],"level":40}', 33],
    ['{"level":1,"note":"x","codes":[7,70,7]}', 35],
    ['{"level":1,"note":"x","codes":[7,8]}', 34],
    ['{"level":1.5,"note":"x","codes":[]}', 12],
  ] as const;

  it("refuses at the comma or closer that ends the number, in deltas of any size, with decode's code", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
        ([text, end], sizes) => {
          const deltas: string[] = [];
          let holding = -1;
          for (let at = 0, i = 0; at < text.length; i++) {
            const size = sizes[i % sizes.length]!;
            if (at <= end && end < at + size) holding = deltas.length;
            deltas.push(text.slice(at, at + size));
            at += size;
          }
          const whole = codec.decode(text);
          expect(whole.ok, text).toBe(false);
          const { at, code } = streamed(codec, deltas);
          expect(at, `${text}: ${JSON.stringify(deltas)}`).toBe(holding);
          expect(code).toBe(whole.ok ? undefined : whole.error.code);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("streams numbers the wire allows to the end, whatever ends them", () => {
    for (const text of [
      '{"level":3,"note":"x","codes":[7,7]}',
      '{"note":"x","codes":[7],"level":2}',
      '{"level":1 ,"note":"x","codes":[ 7 ]}',
    ]) {
      for (const size of [1, 2, 5]) {
        const decoder = codec.streamDecoder();
        for (const delta of split(text, [size])) expect(decoder.push(delta).ok, text).toBe(true);
        expect(decoder.end()).toEqual(codec.decode(text));
      }
    }
  });
});

describe("early refusal: a map key given twice", () => {
  const codec = (() => {
    const compiled = compileCodec(
      {
        type: "object",
        properties: { h: { type: "object", additionalProperties: { type: "string" } }, n: { type: "integer" } },
        required: ["h", "n"],
        additionalProperties: false,
      },
      { name: "headers" },
    );
    if (!compiled.ok) throw new Error(compiled.error.message);
    return compiled.value;
  })();

  it("refuses in the delta that completes the second key, even one holding the whole entry and more; the first value stays shown", () => {
    const decoder = codec.streamDecoder();
    const first = decoder.push('{"h":[{"key":"a","value":"x"}');
    expect(first).toEqual({ ok: true, value: { h: { a: "x" } }, changed: true });
    const text = '{"h":[{"key":"a","value":"x"},{"key":"a","value":"y"},{"key":"b","value":"z"}],"n":1}';
    const second = decoder.push(',{"key":"a","value":"y"},');
    const whole = codec.decode(text);
    expect(whole).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/h/a" } });
    expect(second).toEqual(
      codec.decode('{"h":[{"key":"a","value":"x"},{"key":"a","value":"y"},{"key":"","value":""}],"n":0}'),
    );
    expect(second.ok ? undefined : second.error.path).toBe("/h/a");
    expect(decoder.value).toEqual({ h: { a: "x" } });
    decoder.push('{"key":"b","value":"z"}],"n":1}');
    expect(decoder.end()).toEqual(whole);
  });

  it("gives decode's error for the simplest completion: the whole text's code is wire-violation when the rest breaks the wire", () => {
    const text = '{"h":[{"key":"a","value":"x"},{"key":"a","value":"y"}],"n":"q"}';
    const { at, code } = streamed(codec, [...text]);
    expect(text.slice(0, at + 1)).toBe('{"h":[{"key":"a","value":"x"},{"key":"a"');
    expect(code).toBe("duplicate-entry");
    // decode reports a wire violation first.
    expect(codec.decode(text)).toMatchObject({ ok: false, error: { code: "wire-violation", path: "/n" } });
  });
});

/** Every place in a wire value: member names, and values (with their holder). */
type Place = { holder: Record<string, unknown> | unknown[]; key: string | number };
function places(value: unknown, out: Place[] = []): Place[] {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push({ holder: value, key: i });
      places(v, out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push({ holder: value as Record<string, unknown>, key: k });
      places(v, out);
    }
  }
  return out;
}

const OTHER_TYPE: readonly unknown[] = ["x", 7, true, null, [], {}];

/** One edit: a member renamed, a string changed at one character, or a value of another JSON type. */
function mutate(wire: unknown, pick: number, kind: number, char: string): unknown {
  const copy = JSON.parse(JSON.stringify(wire)) as unknown;
  const all = places(copy);
  if (all.length === 0) return copy;
  const { holder, key } = all[pick % all.length]!;
  const value = (holder as Record<string | number, unknown>)[key];
  if (kind === 0 && typeof key === "string") {
    // Renamed: same position among the members (rebuilt in order).
    const h = holder as Record<string, unknown>;
    const entries = Object.entries(h);
    for (const k of Object.keys(h)) delete h[k];
    for (const [k, v] of entries)
      Object.defineProperty(h, k === key ? `${k}${char}` : k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  } else if (kind === 1 && typeof value === "string") {
    const i = value.length === 0 ? 0 : pick % value.length;
    (holder as Record<string | number, unknown>)[key] = value.slice(0, i) + char + value.slice(i + 1);
  } else {
    const other = OTHER_TYPE.filter((v) => JSON.stringify(v)[0] !== JSON.stringify(value)?.[0]);
    (holder as Record<string | number, unknown>)[key] = other[pick % other.length];
  }
  return copy;
}

describe("early refusal: mutated wires", () => {
  const wires: { codec: Codec; wire: unknown }[] = [];
  for (const fixture of schemaFixtures()) {
    const codec = codecOf(fixture.name);
    for (const value of fixture.valid) {
      const encoded = codec.encode(value);
      if (encoded.ok) wires.push({ codec, wire: encoded.value });
    }
  }

  it("refuses a mutated wire early only if decode refuses the whole text with the same code", () => {
    let early = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...wires),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom("x", "Q", "_", "é", "0"),
        deltaSizes,
        ({ codec, wire }, pick, kind, char, s) => {
          const text = JSON.stringify(mutate(wire, pick, kind, char));
          const whole = codec.decode(text);
          const deltas = split(text, s);
          const { at, code } = streamed(codec, deltas);
          if (!whole.ok) refused++;
          if (at < 0) return;
          early++;
          // The mutated text is JSON within the limits: the early code is decode's for the whole text.
          expect(whole.ok, text).toBe(false);
          expect(code, text).toBe(whole.ok ? undefined : whole.error.code);
        },
      ),
      { numRuns: runs(400) },
    );
    // Most edits break the wire; most of those are refused before the end.
    expect(refused).toBeGreaterThan(100);
    expect(early).toBeGreaterThan(refused / 2);
  });
});

describe("early refusal: prefix matching as a string or a member name grows", () => {
  // Escapes in the values, so that a delta's text is not the decoded text it adds (surrogates: the fuzz target).
  const piece = fc.constantFrom("a", "b", '"', "\\", "\n", "é", "\u0001");
  const valueArb = fc.array(piece, { minLength: 1, maxLength: 24 }).map((p) => p.join(""));

  /**
   * The delta that should refuse: the one holding the impossible character,
   * or the first after it that does not end inside an escape (the simplest
   * completion waits for the escape to end, as documented).
   */
  function refusingDelta(text: string, deltas: readonly string[], impossibleAt: number): number {
    const insideAfter = new Array<boolean>(text.length).fill(false);
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== "\\") continue;
      const length = text[i + 1] === "u" ? 6 : 2;
      for (let k = i; k < i + length - 1; k++) insideAfter[k] = true;
      i += length - 1;
    }
    for (let d = 0, end = 0; d < deltas.length; d++) {
      end += deltas[d]!.length;
      if (end > impossibleAt && !insideAfter[end - 1]) return d;
    }
    return -1;
  }

  it("refuses a string at the delta holding the character where it leaves every enum value, never before", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(valueArb, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        valueArb,
        deltaSizes,
        (values, k, tail, s) => {
          const compiled = compileCodec(
            { type: "object", properties: { v: { enum: values } }, required: ["v"], additionalProperties: false },
            { name: "enum", target: "anthropic" },
          );
          if (!compiled.ok) throw new Error(compiled.error.message);
          const codec = compiled.value;
          const base = values[k % values.length]!;
          const written = base + tail;
          const text = JSON.stringify({ v: written });
          const whole = codec.decode(text);
          const { at, code } = streamed(codec, split(text, s));
          if (whole.ok) {
            expect(at).toBe(-1);
            return;
          }
          // The longest prefix of the written string some value begins with: the next character's JSON text breaks it.
          let n = 0;
          while (n < written.length && values.some((v) => v.startsWith(written.slice(0, n + 1)))) n++;
          // The next character as JSON writes it (an escape is refused at its last character).
          const head = JSON.stringify({ v: written.slice(0, n + 1) }).slice(0, -2);
          const impossibleAt = n < written.length ? head.length - 1 : text.length - 2;
          const holding = refusingDelta(text, split(text, s), impossibleAt);
          expect(code).toBe("wire-violation");
          expect(at, text).toBe(holding);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("refuses a member name at the delta holding the character where it leaves every declared name, never before", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(valueArb, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        valueArb,
        deltaSizes,
        (names, k, tail, s) => {
          const properties = Object.fromEntries(names.map((n) => [n, { type: "integer" }]));
          const compiled = compileCodec(
            { type: "object", properties, required: names, additionalProperties: false },
            { name: "names", target: "anthropic" },
          );
          if (!compiled.ok) throw new Error(compiled.error.message);
          const codec = compiled.value;
          const written = names[k % names.length]! + tail;
          const text = `{${JSON.stringify(written)}:1}`;
          const { at, code } = streamed(codec, split(text, s));
          let n = 0;
          while (n < written.length && names.some((v) => v.startsWith(written.slice(0, n + 1)))) n++;
          if (n === written.length) return; // a declared name (refused later, if at all, for the missing members)
          const impossibleAt = JSON.stringify(written.slice(0, n + 1)).length - 1; // after "{", before the closing quote
          const holding = refusingDelta(text, split(text, s), impossibleAt);
          expect(code).toBe("wire-violation");
          expect(at, text).toBe(holding);
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
