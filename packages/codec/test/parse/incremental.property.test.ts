/**
 * The incremental parser against parseText: end() is parseText of the whole
 * text, every partial value agrees with the final one, and a broken text is
 * refused with parseText's error no later than its first impossible character.
 */
import { compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IncrementalParser } from "../../src/parse/incremental.js";
import { type ParseLimits, parseText } from "../../src/parse/parser.js";
import { runs } from "../../testkit/arbitraries.js";
import { schemaFixtures } from "../../testkit/fixtures.js";
import { leftOpen } from "../../testkit/json-text.js";
import { allHostileCases, rawInput } from "../reliability/support.js";

type Path = readonly (string | number)[];

/** Deep equality of JSON values, own members only (cheaper than expect().toEqual on every push). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return keys.every((k) => Object.hasOwn(y, k) && same(x[k], y[k]));
}

/**
 * Where a partial value disagrees with the final one ("" if nowhere): every
 * value off the spine equals the final one; on the spine, an array or object
 * holds a prefix or subset of the final one's, and a string is a prefix.
 */
function inconsistency(partial: unknown, final: unknown, spine: Path, where = ""): string {
  if (typeof partial === "string") {
    return typeof final === "string" && final.startsWith(partial) ? "" : `${where}: not a prefix`;
  }
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return `${where}: not a prefix array`;
    for (let i = 0; i < partial.length; i++) {
      const found =
        spine[0] === i
          ? inconsistency(partial[i], final[i], spine.slice(1), `${where}/${i}`)
          : same(partial[i], final[i])
            ? ""
            : `${where}/${i}: differs`;
      if (found) return found;
    }
    return "";
  }
  if (typeof partial === "object" && partial !== null) {
    if (typeof final !== "object" || final === null || Array.isArray(final)) return `${where}: not an object`;
    const f = final as Record<string, unknown>;
    for (const key of Object.keys(partial)) {
      if (!Object.hasOwn(f, key)) return `${where}: member ${key} not in the final value`;
      const member = (partial as Record<string, unknown>)[key];
      const found =
        spine[0] === key
          ? inconsistency(member, f[key], spine.slice(1), `${where}/${key}`)
          : same(member, f[key])
            ? ""
            : `${where}/${key}: differs`;
      if (found) return found;
    }
    return "";
  }
  return partial === undefined || Object.is(partial, final) ? "" : `${where}: differs`;
}

/** Splits text into deltas of the given sizes, cycled. */
function split(text: string, sizes: readonly number[]): string[] {
  const deltas: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = sizes[k % sizes.length]!;
    deltas.push(text.slice(i, i + size));
    i += size;
  }
  return deltas;
}

/** Streams a valid text: never refused, every partial consistent, end() equal to parseText. */
function expectStreamsLikeParse(text: string, deltas: readonly string[], limits: Partial<ParseLimits> = {}): void {
  const whole = parseText(text, limits);
  expect(whole.ok, text).toBe(true);
  if (!whole.ok) return;
  const parser = new IncrementalParser(limits);
  for (const delta of deltas) {
    const pushed = parser.push(delta);
    if (!pushed.ok) expect.fail(`${text} refused at ${JSON.stringify(delta)}: ${pushed.error.message}`);
    if (pushed.value !== parser.value) expect.fail("push's value is not the live value");
    const found = inconsistency(pushed.value, whole.value, parser.spine());
    if (found) expect.fail(`${text} after ${JSON.stringify(delta)}: ${found}`);
  }
  const ended = parser.end();
  expect(ended).toEqual(whole);
  // Once the root container is closed, the live value is the whole value.
  if (typeof whole.value === "object" && whole.value !== null) expect(parser.value).toEqual(whole.value);
}

const sizes = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 12 });

/** Writes every non-ASCII character as a \u escape (surrogate pairs as escaped pairs). */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const jsonText = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }),
    fc.constantFrom(undefined, 2, "\t"),
    fc.boolean(),
    fc.constantFrom("", " ", "\n\t "),
  )
  .map(([value, indent, escaped, ws]) => {
    const text = JSON.stringify(value, null, indent);
    return ws + (escaped ? escapeNonAscii(text) : text) + ws;
  });

/** Generated JSON broken by one character put in or taken out. */
function brokenText(texts: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(texts, fc.nat(), fc.constantFrom("", "x", ",", "]", "}", '"', ":", "\\", "\u0001", "\ud800", "\udc00"))
    .map(([text, at, insert]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + (insert === "" ? 1 : 0));
    });
}

const broken = brokenText(jsonText);

/** Every string and member name made longer than the parser's native search threshold (32 characters). */
function lengthen(value: unknown): unknown {
  const more = (s: string): string => `${s}-lorem-ipsum-dolor-sit-amet-consectetur-${s}`;
  if (typeof value === "string") return more(value);
  if (Array.isArray(value)) return value.map(lengthen);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [more(k), lengthen(v)]));
  }
  return value;
}

const longStrings = fc
  .tuple(fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }), fc.boolean())
  .map(([value, escaped]) => {
    const text = JSON.stringify(lengthen(value));
    return escaped ? escapeNonAscii(text) : text;
  });

/** Generated JSON that parseText accepts (fast-check also writes numbers beyond the safe range). */
const validJsonText = jsonText.filter((text) => parseText(text).ok);

/** Wire texts: every fixture's valid values, encoded. */
function fixtureWireTexts(): string[] {
  const texts: string[] = [];
  for (const fixture of schemaFixtures()) {
    const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture" });
    if (!compiled.ok) throw new Error(`${fixture.name} does not compile`);
    for (const value of fixture.valid) {
      const encoded = compiled.value.encode(value);
      if (!encoded.ok) throw new Error(`${fixture.name}: encode refused ${JSON.stringify(value)}`);
      texts.push(JSON.stringify(encoded.value));
    }
  }
  return texts;
}

describe("incremental parser: valid texts", () => {
  const wires = fixtureWireTexts();

  it("streams every fixture's wire text, every split into 1-8 characters, like parseText", () => {
    expect(wires.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.constantFrom(...wires), sizes, (text, s) => expectStreamsLikeParse(text, split(text, s))),
      { numRuns: runs(400) },
    );
  });

  it("streams every fixture's wire text one character at a time", () => {
    for (const text of wires) expectStreamsLikeParse(text, split(text, [1]));
  });

  it("streams generated JSON (whitespace, escapes, split surrogate pairs) like parseText", () => {
    fc.assert(
      fc.property(validJsonText, sizes, (text, s) => expectStreamsLikeParse(text, split(text, s))),
      { numRuns: runs(400) },
    );
  });

  it("keeps __proto__ an own data member and -0 as 0, as parseText does", () => {
    const text = '{"__proto__":{"polluted":true},"z":-0,"list":[-0.0]}';
    expectStreamsLikeParse(text, split(text, [3, 1]));
    const parser = new IncrementalParser();
    parser.push(text);
    const value = parser.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.is(value.z, 0)).toBe(true);
  });
});

describe("incremental parser: partial values and the spine", () => {
  it("shows a string's decoded prefix, a member once its value starts, a number once complete", () => {
    const parser = new IncrementalParser();
    const steps: [string, unknown, Path][] = [
      ['{"na', {}, []],
      ['me":"Ad\\u00', { name: "Ad" }, ["name"]],
      ['e9l", "n": 12', { name: "Adél" }, ["n"]],
      [", ", { name: "Adél", n: 12 }, []],
      ['"tags": [tr', { name: "Adél", n: 12, tags: [] }, ["tags", 0]],
      ['ue, "x\\ud83d', { name: "Adél", n: 12, tags: [true, "x"] }, ["tags", 1]],
      ["\\ude00", { name: "Adél", n: 12, tags: [true, "x😀"] }, ["tags", 1]],
      ['"]}', { name: "Adél", n: 12, tags: [true, "x😀"] }, []],
    ];
    for (const [delta, value, spine] of steps) {
      const pushed = parser.push(delta);
      expect(pushed, delta).toEqual({ ok: true, value });
      expect(parser.spine(), delta).toEqual(spine);
    }
  });

  it("reports how deep every change of the last push lies", () => {
    const parser = new IncrementalParser();
    parser.push('{"a":{"b":[1,');
    parser.push("2");
    expect(parser.changedDepth).toBe(3);
    parser.push("]");
    expect(parser.changedDepth).toBe(2);
    parser.push('},"c":');
    expect(parser.changedDepth).toBe(1);
    parser.push("1}");
    expect(parser.changedDepth).toBe(0);
  });

  it("keeps completed subtrees: the same objects across pushes", () => {
    const parser = new IncrementalParser();
    parser.push('{"a":{"b":1},"c":[');
    const value = parser.value as { a: object; c: unknown[] };
    const a = value.a;
    parser.push('"x"');
    parser.push(',"y"]}');
    expect(parser.value).toBe(value);
    expect(value.a).toBe(a);
    expect(value.c).toEqual(["x", "y"]);
  });
});

// Limits out of the way for the completion search: a prefix's room under the node and byte limits is not viability.
const ROOMY = { maxBytes: 10_000_000, maxNodes: 10_000_000 };

const HEADS = ["", "0", "00", "000", "0000", "n", "u0000", "\\udc00", "udc00", "dc00", "c00", "\udc00"];
const HEADS_LITERAL = ["e-999", "-999", "e", "ue", "alse", "rue", "lse", "se", "l", "ll", "ull"];
const MIDS = ["", '"', '":0', ":0", '"zq\\u0001":0', 'zq\\u0001":0', "0"];

/** Whether some completion from a small candidate set makes the prefix a text parseText accepts. */
function viable(prefix: string, limits: Partial<ParseLimits>): boolean {
  for (const head of [...HEADS, ...HEADS_LITERAL]) {
    for (const mid of MIDS) {
      const start = prefix + head + mid;
      if (parseText(start + leftOpen(start).closers, limits).ok) return true;
    }
  }
  return false;
}

/** Streams one character (code unit) at a time; the index of the refused character, or -1. */
function refusedAt(text: string, limits: Partial<ParseLimits>): { index: number; parser: IncrementalParser } {
  const parser = new IncrementalParser(limits);
  let index = -1;
  for (let i = 0; i < text.length; i++) {
    const pushed = parser.push(text[i]!);
    if (pushed.ok) continue;
    if (index < 0) {
      index = i;
      // The refusal is exactly parseText of the text so far.
      expect(pushed).toEqual(parseText(text.slice(0, i + 1), limits));
      // The rest is still pushed, so that end() answers for the whole text; the refusal stands.
      const refusal = pushed;
      for (let j = i + 1; j < text.length; j++) expect(parser.push(text[j]!)).toBe(refusal);
      break;
    }
  }
  return { index, parser };
}

/**
 * Where the refusal's code is settled by the characters that follow: a
 * surrogate or an escape, and a positive exponent's sign after a mantissa too
 * large to be safe (its digits make the number unsafe, anything else makes
 * the text invalid JSON).
 */
const SETTLING = /[\ud800-\udfff]|\\u|[eE]\+\d$/;

/**
 * Streams the text in the given deltas: the first refusal comes with the delta
 * holding the character that refuses it streamed one at a time (the deltas'
 * edges change nothing), and it is parseText of the text pushed so far.
 */
function expectRefusedInDeltas(text: string, deltas: readonly string[], limits: Partial<ParseLimits> = {}): void {
  const { index } = refusedAt(text, limits);
  const parser = new IncrementalParser(limits);
  let pushed = 0;
  let refusal: unknown;
  for (const delta of deltas) {
    const result = parser.push(delta);
    pushed += delta.length;
    if (refusal !== undefined) {
      expect(result).toBe(refusal);
      continue;
    }
    const due = index >= 0 && index < pushed;
    if (result.ok === due)
      expect.fail(
        `${JSON.stringify(text)} at ${pushed} of ${JSON.stringify(deltas)}: ${result.ok ? "not refused" : "refused early"}`,
      );
    if (!result.ok) {
      expect(result).toEqual(parseText(text.slice(0, pushed), limits));
      refusal = result;
    }
  }
  expect(parser.end()).toEqual(parseText(text, limits));
}

/** Refused with parseText's error at the first impossible character (see the module comment of incremental.ts for the waits). */
function expectRefusedEarly(name: string, text: string, limits: Partial<ParseLimits>, search = true): void {
  const whole = parseText(text, limits);
  const { index, parser } = refusedAt(text, limits);
  expect(parser.end(), name).toEqual(whole);
  const roomy = { ...limits, ...ROOMY };
  if (index < 0) {
    // Never refused: the text must be a prefix of an acceptable text, under the limits it did not exceed
    // (but for the surrogate waits at its very end).
    if (!whole.ok && search) expectViableBefore(name, text, text.length, roomy);
    return;
  }
  expect(whole.ok, name).toBe(false);
  if (whole.ok) return;
  const refusal = parseText(text.slice(0, index + 1), limits);
  if (refusal.ok) return;
  // The same code and path as for the whole text, unless the whole text is refused for its size first.
  if (whole.error.code !== "input-too-large") {
    expect(refusal.error.code, name).toBe(whole.error.code);
    expect(refusal.error.path, name).toBe(whole.error.path);
  }
  if (!search) return;
  expect(viable(text.slice(0, index + 1), limits), `${name}: refused text has a completion`).toBe(false);
  expectViableBefore(name, text, index, roomy);
}

/**
 * Not late: the text before `end` still had a completion, or, where a
 * surrogate's code is settled by the next characters, the text a few
 * characters before.
 */
function expectViableBefore(name: string, text: string, end: number, limits: Partial<ParseLimits>): void {
  let slack = 0;
  while (slack <= 3 && !viable(text.slice(0, end - slack), limits)) slack++;
  const settling = SETTLING.test(text.slice(Math.max(0, end - 8), end + 1));
  expect(slack === 0 || (settling && slack <= 3), `${name}: at ${end}, viable ${slack} before`).toBe(true);
}

describe("incremental parser: refusals", () => {
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const corpus = allHostileCases().flatMap(({ source, options, case: c }) => {
    const raw = rawInput(c);
    let text: string;
    try {
      text = typeof raw === "string" ? raw : utf8.decode(raw);
    } catch {
      return []; // ill-formed UTF-8: bytes, which deltas of text never are
    }
    const limits = (options as { limits?: Partial<ParseLimits> }).limits ?? {};
    return [{ name: `${source}/${c.name}`, text, limits }];
  });

  it("refuses the hostile corpus, streamed a character at a time, like parseText and at once", () => {
    expect(corpus.length).toBeGreaterThan(200);
    for (const { name, text, limits } of corpus) {
      if (text.length > 4000) continue;
      expectRefusedEarly(name, text, limits);
    }
  });

  it("refuses big hostile texts like parseText", () => {
    let big = 0;
    for (const { name, text, limits } of corpus) {
      if (text.length <= 4000) continue;
      big++;
      expectRefusedEarly(name, text, limits, false);
    }
    expect(big).toBeGreaterThan(0);
  });

  const handWritten: [string, string, Partial<ParseLimits>, number][] = [
    // [text, expected code, limits, index of the first impossible character]
    ['{"a":1,"a":2}', "duplicate-key", {}, 9],
    ['{"a":1,"\\u0061":2}', "duplicate-key", {}, 14],
    ["[1,2,]", "invalid-json", {}, 5],
    ["[01]", "invalid-json", {}, 2],
    ["[1e400]", "unsafe-number", {}, 4],
    ["[1e16]", "unsafe-number", {}, 4],
    ["[123456789012345678]", "unsafe-number", {}, 19],
    ["[0e99999]", "", {}, -1],
    ['{"a": tru }', "invalid-json", {}, 9],
    ["\ufeff{}", "invalid-json", {}, 0],
    ["{} x", "invalid-json", {}, 3],
    ['["a\u0001"]', "invalid-json", {}, 3],
    ['["\\x"]', "invalid-json", {}, 3],
    ['["\\udc00"]', "invalid-utf8", {}, 7],
    ['["\\ud800\\n"]', "invalid-utf8", {}, 9],
    ['["\\ud800\\u0041"]', "invalid-utf8", {}, 10],
    ['["\ud800x"]', "invalid-utf8", {}, 3],
    ['["\udc00"]', "invalid-utf8", {}, 2],
    ["[\ud800]", "invalid-utf8", {}, 2],
    ["[[[1]]]", "too-deep", { maxDepth: 2 }, 2],
    ["[1,2,3]", "too-many-nodes", { maxNodes: 3 }, 5],
    ['{"a":"xyz"}', "input-too-large", { maxBytes: 8 }, 8],
    ['["é"]', "input-too-large", { maxBytes: 4 }, 3],
    // Pairs split between deltas are 4 bytes, not two replacement characters.
    ['["😀😀"]', "input-too-large", { maxBytes: 11 }, 7],
    ['["😀😀"]', "", { maxBytes: 12 }, -1],
    ['["\\ud83d\\ude00"]', "", { maxBytes: 16 }, -1],
    ['["\\ud83dx"]', "invalid-utf8", { maxBytes: 20 }, 8],
    ['["\ud83dx"]', "invalid-utf8", { maxBytes: 8 }, 3],
  ];

  it("refuses hand-written broken texts at the character that settles the error", () => {
    for (const [text, code, limits, at] of handWritten) {
      const { index, parser } = refusedAt(text, limits);
      expect(index, text).toBe(at);
      const ended = parser.end();
      expect(ended).toEqual(parseText(text, limits));
      if (code === "") expect(ended.ok, text).toBe(true);
      else expect(ended.ok ? "" : ended.error.code, text).toBe(code);
    }
  });

  it("keeps refusing after a refusal, and end() answers for everything pushed", () => {
    const parser = new IncrementalParser({ maxBytes: 12 });
    const first = parser.push('{"a":1,"a"');
    expect(first.ok).toBe(false);
    expect(parser.push(":2}")).toBe(first);
    expect(parser.end()).toEqual(parseText('{"a":1,"a":2}', { maxBytes: 12 }));
    parser.push("  ");
    const ended = parser.end();
    expect(ended.ok ? "" : ended.error.code).toBe("input-too-large");
  });

  it("refuses any broken text no earlier than parseText and no later than its first impossible character", () => {
    fc.assert(
      fc.property(broken, (text) => {
        if (text.length > 600) return;
        expectRefusedEarly("generated", text, {});
      }),
      { numRuns: runs(150) },
    );
  });
});

describe("incremental parser: deltas of many characters", () => {
  it("refuses a broken text split into deltas of 1-8 characters where it refuses it one character at a time", () => {
    fc.assert(
      fc.property(broken, sizes, (text, s) => {
        if (text.length > 600) return;
        expectRefusedInDeltas(text, split(text, s));
      }),
      { numRuns: runs(300) },
    );
  });

  // A string's plain run is read whole: what stops it (a quote, a backslash, a control character, a
  // surrogate, the limit) may sit at any place of a delta, or at its edges.
  const stops: [string, Partial<ParseLimits>][] = [
    ['["abcd\u0001efgh"]', {}],
    ['{"abcd\u001fefgh":1}', {}],
    ['["abcd\ud800efgh"]', {}],
    ['["abcd\udc00efgh"]', {}],
    ['["abcd\ud800"]', {}],
    ['["abcd\\qefgh"]', {}],
    ['["abcd\\ud800\\u0041"]', {}],
    ['["abcd"efgh"]', {}],
    ['{"abcd":1,"abcd":2}', {}],
    ['["abcdefghijkl"]', { maxBytes: 10 }],
    ['["abcdéfghijkl"]', { maxBytes: 12 }],
  ];
  const valid = [
    '["abcd\ud83d\ude00efgh"]',
    '["ab\\"cd\\\\ef\\u00e9gh\\ud83d\\ude00ij"]',
    '{"abcd":"efgh","ij\\nkl":"mn"}',
  ];

  it("reads a string's plain run whole wherever what stops it falls in a delta", () => {
    for (let size = 1; size <= 8; size++) {
      for (let shift = 1; shift <= size; shift++) {
        const cycle = shift === size ? [size] : [shift, size];
        for (const [text, limits] of stops) expectRefusedInDeltas(text, split(text, cycle), limits);
        for (const text of valid) expectStreamsLikeParse(text, split(text, cycle));
      }
    }
  });

  // A long run (past 32 characters) is found by a native search: the same stops, in long strings, in two deltas split anywhere.
  const pad = "lorem ipsum dolor sit amet, consectetur adipiscing elit";
  const long = (text: string): string => text.replaceAll("abcd", `abcd${pad}`).replaceAll("efgh", `${pad}efgh`);

  it("reads a long plain run whole wherever what stops it falls in a delta", () => {
    for (const [text, limits] of stops) {
      const roomy = limits.maxBytes === undefined ? limits : { maxBytes: limits.maxBytes + pad.length };
      const longText = long(text);
      for (let k = 0; k <= longText.length; k++) {
        expectRefusedInDeltas(longText, [longText.slice(0, k), longText.slice(k)], roomy);
      }
    }
    for (const text of valid) {
      const longText = long(text);
      for (let k = 0; k <= longText.length; k++)
        expectStreamsLikeParse(longText, [longText.slice(0, k), longText.slice(k)]);
    }
  });

  const longSizes = fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 6 });

  it("streams generated JSON with long strings, split into long deltas, like parseText", () => {
    fc.assert(
      fc.property(longStrings, longSizes, (text, s) => {
        if (parseText(text).ok) expectStreamsLikeParse(text, split(text, s));
      }),
      { numRuns: runs(200) },
    );
  });

  it("refuses a broken text with long strings split into long deltas where it refuses it one character at a time", () => {
    const longBroken = brokenText(longStrings);
    fc.assert(
      fc.property(longBroken, longSizes, (text, s) => {
        if (text.length > 3000) return;
        expectRefusedInDeltas(text, split(text, s));
      }),
      { numRuns: runs(200) },
    );
  });
});

describe("incremental parser: numbers", () => {
  // An integer of up to 15 digits is read as its value; past that, or at its '.' or 'e', it is spelled out.
  const numbers = [
    "123456789012345",
    "-123456789012345",
    "1234567890123456",
    "9007199254740991",
    "-9007199254740992",
    "123456789012345.5",
    "-123456789012345e0",
    "-0",
    "-0.0e-0",
    "0e5",
    "-12e3",
    "120E-1",
    "1e15",
    "1e16",
    "-",
    "01",
    "-.5",
  ];

  it("reads a number split anywhere, in a container or at the root, like parseText", () => {
    for (const number of numbers) {
      for (const text of [number, `[${number},${number}]`, `{"n":${number}}`]) {
        for (let size = 1; size <= 8; size++) {
          for (let shift = 1; shift <= size; shift++) {
            const cycle = shift === size ? [size] : [shift, size];
            expectRefusedInDeltas(text, split(text, cycle));
            if (parseText(text).ok) expectStreamsLikeParse(text, split(text, cycle));
          }
        }
      }
    }
  });
});

describe("incremental parser: end()", () => {
  it("ends a root number with the text, and can be asked again", () => {
    const parser = new IncrementalParser();
    parser.push("-1");
    parser.push("2.5e1");
    expect(parser.value).toBeUndefined();
    expect(parser.end()).toEqual({ ok: true, value: -125 });
    expect(parser.end()).toEqual({ ok: true, value: -125 });
    // Open containers are not ended by the text's end.
    const open = new IncrementalParser();
    open.push("[[1");
    expect(open.end()).toEqual(parseText("[[1"));
    const unsafe = new IncrementalParser();
    unsafe.push("12345678901234567");
    expect(unsafe.end()).toEqual(parseText("12345678901234567"));
  });
});
