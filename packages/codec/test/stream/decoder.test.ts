/**
 * The streaming decoder against decode: every partial value is consistent
 * with the decoded value, the partial of the whole text is the decoded value,
 * end() is decode, and a broken text is refused early with decode's error.
 */
import { type Codec, compileCodec, type DecodeOptions, streamDecoder } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs, type Schema } from "../../testkit/arbitraries.js";
import { allHostileCases, rawInput } from "../reliability/support.js";
import { deltaSizes, fixtureWires, generatedCalls, inconsistency, split } from "./support.js";

/** Streams a text decode accepts: never refused, every partial consistent, the last one and end() the decoded value. */
function expectStreamsLikeDecode(codec: Codec, text: string, deltas: readonly string[], fromScratch = false): void {
  const whole = codec.decode(text);
  expect(whole.ok, text).toBe(true);
  if (!whole.ok) return;
  const decoder = codec.streamDecoder();
  let last: unknown;
  let sofar = "";
  for (const delta of deltas) {
    const step = decoder.push(delta);
    sofar += delta;
    // Updated in place from where the last push left it, the partial is what the text so far shows read at once.
    if (fromScratch && step.ok) {
      const once = codec.streamDecoder().push(sofar);
      if (once.ok && JSON.stringify(once.value) !== JSON.stringify(step.value)) {
        expect.fail(
          `${text} after ${JSON.stringify(sofar)}: ${JSON.stringify(step.value)}, read at once ${JSON.stringify(once.value)}`,
        );
      }
    }
    if (!step.ok) expect.fail(`${text} refused at ${JSON.stringify(delta)}: ${step.error.message}`);
    if (step.value !== decoder.value) expect.fail("push's value is not the decoder's value");
    if (step.value === undefined) continue;
    const found = inconsistency(step.value, whole.value);
    if (found) expect.fail(`${text} after ${JSON.stringify(delta)}: ${found}`);
    const snapshot = JSON.stringify(step.value);
    if (!step.changed && snapshot !== last) expect.fail(`${text} after ${JSON.stringify(delta)}: changed but not said`);
    last = snapshot;
  }
  // The whole text read: the partial is the decoded value.
  expect(decoder.value, text).toEqual(whole.value);
  expect(decoder.end()).toEqual(whole);
}

describe("stream decoder: texts decode accepts", () => {
  const wires = fixtureWires();

  it("streams every fixture value's wire text one character at a time, consistent with decode", () => {
    expect(wires.length).toBeGreaterThan(50);
    for (const { codec, text } of wires) expectStreamsLikeDecode(codec, text, split(text, [1]), true);
  });

  it("streams fixture wire texts in random splits of 1-8 characters", () => {
    fc.assert(
      fc.property(fc.constantFrom(...wires), deltaSizes, ({ codec, text }, s) =>
        expectStreamsLikeDecode(codec, text, split(text, s), true),
      ),
      { numRuns: runs(300) },
    );
  });

  it("streams generated values' wire texts in random splits", () => {
    let checked = 0;
    fc.assert(
      fc.property(generatedCalls, ([schema, presence, value, s]) => {
        const compiled = compileCodec(schema, { presence });
        if (!compiled.ok) return;
        const encoded = compiled.value.encode(value);
        if (!encoded.ok) return;
        const text = JSON.stringify(encoded.value);
        if (!compiled.value.decode(text).ok) return;
        expectStreamsLikeDecode(compiled.value, text, split(text, s), true);
        checked++;
      }),
      { numRuns: runs(150) },
    );
    expect(checked).toBeGreaterThan(30);
  });
});

describe("stream decoder: partial values in the source form", () => {
  const compiled = compileCodec(
    {
      type: "object",
      properties: {
        subject: { type: "string" },
        body: { type: "string" },
        cc: { type: "array", items: { type: "string" } },
        headers: { type: "object", additionalProperties: { type: "string" } },
        pick: { anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] },
      },
      required: ["subject"],
      additionalProperties: false,
    },
    { name: "email", presence: "tagged" },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;

  it("hides a member until its tag says present, then shows its value so far; maps as objects", () => {
    const decoder = codec.streamDecoder();
    const steps: [string, unknown][] = [
      ['{"subject":"Hi', { subject: "Hi" }],
      ['","body":{"sta', { subject: "Hi" }],
      ['te":"present', { subject: "Hi" }],
      ['","value":"Dear', { subject: "Hi", body: "Dear" }],
      [' Ann"},"cc":{"state":"absent"}', { subject: "Hi", body: "Dear Ann" }],
      [
        ',"headers":{"state":"present","value":[{"key":"X-A","value":"1"},{"key":"X-',
        {
          subject: "Hi",
          body: "Dear Ann",
          headers: { "X-A": "1" },
        },
      ],
      ['B","value":"2', { subject: "Hi", body: "Dear Ann", headers: { "X-A": "1", "X-B": "2" } }],
      [
        '"}]},"pick":{"state":"present","value":[1',
        { subject: "Hi", body: "Dear Ann", headers: { "X-A": "1", "X-B": "2" }, pick: [] },
      ],
      [",2]}}", { subject: "Hi", body: "Dear Ann", headers: { "X-A": "1", "X-B": "2" }, pick: [1, 2] }],
    ];
    for (const [delta, value] of steps) {
      const step = decoder.push(delta);
      expect(step.ok && step.value, delta).toEqual(value);
    }
    expect(decoder.end()).toEqual(codec.decode(steps.map(([d]) => d).join("")));
  });

  it("says when a push changed nothing", () => {
    const decoder = codec.streamDecoder();
    expect(decoder.push('{"subject":"a"')).toMatchObject({ ok: true, changed: true });
    expect(decoder.push("  ")).toMatchObject({ ok: true, changed: false });
    expect(decoder.push(',"body":{"st')).toMatchObject({ ok: true, changed: false });
  });
});

/** The codes of a text that is not JSON within the limits (parseJson's). */
const JSON_CODES = [
  "invalid-json",
  "invalid-utf8",
  "input-too-large",
  "too-deep",
  "too-many-nodes",
  "duplicate-key",
  "unsafe-number",
];

describe("stream decoder: refusals", () => {
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const corpus = allHostileCases().flatMap(({ source, schema, options, case: c }) => {
    const raw = rawInput(c);
    let text: string;
    try {
      text = typeof raw === "string" ? raw : utf8.decode(raw);
    } catch {
      return []; // ill-formed UTF-8: bytes, which deltas of text never are
    }
    if (text.length > 4000) return [];
    return [{ name: `${source}/${c.name}`, schema, options, text }];
  });
  const codecs = new Map<unknown, Codec>();
  const codecFor = (schema: unknown, options: object): Codec => {
    let codec = codecs.get(schema);
    if (codec === undefined) {
      const compiled = compileCodec(schema as Schema, { ...options, name: "hostile" });
      if (!compiled.ok) throw new Error(compiled.error.message);
      codec = compiled.value;
      codecs.set(schema, codec);
    }
    return codec;
  };

  it("refuses the hostile corpus, streamed a character at a time, with decode's code and path; end() is decode", () => {
    expect(corpus.length).toBeGreaterThan(200);
    let early = 0;
    let wire = 0;
    for (const { name, schema, options, text } of corpus) {
      const codec = codecFor(schema, options);
      const whole = codec.decode(text);
      const decoder = codec.streamDecoder();
      let refusal: { code: string; path: string } | undefined;
      for (const c of text) {
        const step = decoder.push(c);
        if (step.ok) continue;
        refusal ??= { code: step.error.code, path: step.error.path };
      }
      expect(decoder.end(), name).toEqual(whole);
      if (refusal === undefined) continue;
      early++;
      expect(whole.ok, name).toBe(false);
      if (whole.ok) continue;
      if (refusal.code === "wire-violation") {
        // Refused for the wire: every completion that is JSON within the limits is a wire violation; the rest of
        // this text may still break JSON or a limit first. The path is decode's for the simplest completion.
        wire++;
        expect(["wire-violation", ...JSON_CODES], name).toContain(whole.error.code);
        continue;
      }
      // The whole text may be refused for its size first.
      if (whole.error.code !== "input-too-large") {
        expect(refusal, name).toEqual({ code: whole.error.code, path: whole.error.path });
      }
    }
    expect(early).toBeGreaterThan(20);
    expect(wire).toBeGreaterThan(10);
  });
});

describe("stream decoder: early refusal", () => {
  const compiled = compileCodec(
    {
      type: "object",
      properties: {
        note: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
          additionalProperties: false,
        },
        tags: { type: "array", items: { type: "array", items: { type: "string" } } },
      },
      required: ["tags"],
      additionalProperties: false,
    },
    { name: "note", presence: "tagged", limits: { maxDepth: 3 } },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;

  // [text, the index of its first impossible character, the refusal's path where it is not the whole text's]
  const broken: [string, number, string?][] = [
    ['{"tags":[],"tags"', 16],
    // "note" is a closed object: its presence tag sits among its members (inline).
    ['{"note":{"state":"present","text":"a","text":"b"},"tags":[]}', 43],
    // Too deep at the same "[" that a string's array cannot hold: the parser's refusal comes first.
    ['{"tags":[[[[[["x"]]]]]]}', 10],
    // Wire-level: a string's array holds no number, no object; an undeclared member (at its first impossible
    // character: no declared name begins "te"); a presence tag's state that is no tag's.
    ['{"note":{"state":"absent"},"tags":[["a",1]]}', 40],
    ['{"note":{"state":"absent"},"tags":[["a",{}]]}', 40],
    // A name cut short: the path is decode's for the simplest completion, {…,"te":null}.
    ['{"note":{"state":"absent"},"tags":[],"text":"a"}', 39, "/te"],
    ['{"note":{"state":"pre","text":"a"},"tags":[]}', 21],
    ['{"note":{"state":"abse","text":"a"},"tags":[]}', 22],
  ];

  it("refuses at the first impossible character, with decode's code and path in the original's terms", () => {
    for (const [text, at, path] of broken) {
      const whole = codec.decode(text);
      expect(whole.ok, text).toBe(false);
      if (whole.ok) continue;
      const decoder = codec.streamDecoder();
      let index = -1;
      for (let i = 0; i < text.length; i++) {
        const step = decoder.push(text[i]!);
        if (step.ok) continue;
        if (index < 0) {
          index = i;
          expect({ code: step.error.code, path: step.error.path }, text).toEqual({
            code: whole.error.code,
            path: path ?? whole.error.path,
          });
        }
        // Final: every later push gives the same refusal.
        expect(decoder.push("")).toBe(step);
      }
      expect(index, text).toBe(at);
      expect(decoder.end()).toEqual(whole);
    }
  });

  it("holds the decode options' limits while streaming", () => {
    const decoder = codec.streamDecoder({ limits: { maxBytes: 10 } });
    expect(decoder.push('{"tags":[]').ok).toBe(true);
    const step = decoder.push(" ");
    expect(step.ok ? "" : step.error.code).toBe("input-too-large");
    expect(decoder.end()).toEqual(codec.decode('{"tags":[] ', { limits: { maxBytes: 10 } }));
  });
});

describe("stream decoder: end() under each decode option", () => {
  // end() decodes the parser's value without parsing again where the generated decoder accepts it, else the text.
  const options: readonly DecodeOptions[] = [
    {},
    { interpreted: true },
    { checkWireSchema: true },
    { limits: { maxNodes: 40 } },
    { limits: { maxDepth: 3 } },
  ];

  it("is decode with the same options, for every fixture wire and the hostile corpus", () => {
    const texts = fixtureWires().map(({ codec, text }) => ({ codec, text }));
    let refused = 0;
    for (const { codec, text } of texts) {
      for (const option of options) {
        const decoder = codec.streamDecoder(option);
        for (const delta of split(text, [3, 1, 5])) decoder.push(delta);
        const whole = codec.decode(text, option);
        if (!whole.ok) refused++;
        expect(decoder.end(), `${text} ${JSON.stringify(option)}`).toEqual(whole);
      }
    }
    // The small limits refuse some texts: both paths of end() are taken.
    expect(refused).toBeGreaterThan(10);
    expect(refused).toBeLessThan(texts.length * options.length - 10);
  });
});

describe("stream decoder: the text kept after a refusal", () => {
  const compiled = compileCodec(
    { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    { name: "note" },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;
  const maxBytes = 64;
  const [high, low] = ["\u{1F600}".charAt(0), "\u{1F600}".charAt(1)];
  // 13 pairs split between deltas after 12 bytes make the text exactly 64 bytes: counted as lone halves, 90.
  const pairs = Array.from({ length: 40 }, () => [high, low]).flat();
  const streams: [string, DecodeOptions, string[]][] = [
    ["a wire violation", { limits: { maxBytes } }, ['{"text":', "1", "abc", ...pairs, "\u00e9x", "\u{1F600}"]],
    ["a JSON refusal inside a delta", { limits: { maxBytes } }, ['{"text":"a"}} ', "ab", ...pairs]],
    ["a number's refusal at a closer", { limits: { maxBytes } }, ['{"text":1.', ",ab", ...pairs]],
    ["the byte limit itself", { limits: { maxBytes } }, ['{"text":"', "x".repeat(70), ...pairs]],
    ["options decode refuses", { limits: { maxBytes, maxDepth: 600 } }, ['{"text":', "abc", ...pairs]],
  ];

  it("end() is decode of the whole text at every length, its bytes counted as UTF-8 (pairs split between deltas)", () => {
    for (const [what, options, deltas] of streams) {
      const decoder = streamDecoder(codec, options);
      let sofar = "";
      let refused = false;
      for (const delta of deltas) {
        refused = !decoder.push(delta).ok || refused;
        sofar += delta;
        expect(decoder.end(), `${what}: ${JSON.stringify(sofar)}`).toEqual(codec.decode(sofar, options));
      }
      expect(refused, what).toBe(true);
      expect(codec.decode(sofar, options), what).toMatchObject({ ok: false });
    }
  });

  it("lets the text go once it is past maxBytes: a stream that goes on after a refusal keeps nothing more", () => {
    for (const [what, options, deltas] of streams) {
      const decoder = streamDecoder(codec, options);
      let sofar = "";
      for (const delta of deltas) {
        decoder.push(delta);
        sofar += delta;
      }
      for (let i = 0; i < 2000; i++) decoder.push("more text ");
      sofar += "more text ".repeat(2000);
      expect(decoder.end(), what).toEqual(codec.decode(sofar, options));
      // What the decoder keeps past the parser's own text (which the parser bounds by maxBytes and one delta): the
      // walking decoder's, which the fast path (stream/lockstep.ts) hands every refusal to, keeping no text itself.
      const fast = decoder as unknown as { walking?: { afterRefusal: string }; text?: () => string };
      const walking = fast.walking ?? (decoder as unknown as { afterRefusal: string });
      expect(fast.text?.call(fast) ?? "", what).toBe("");
      expect(walking.afterRefusal.length, what).toBe(0);
    }
  });
});
