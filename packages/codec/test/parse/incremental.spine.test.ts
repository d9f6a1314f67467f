/**
 * What the stream decoder reads of the incremental parser (its ParserView) in
 * place of a path made per push: the open containers (openCount, openAt), the
 * spine's steps (spineLength, stepAt), where the text ends (reading) and the
 * string being read (openString), what the last push did (pushed), and the
 * member names read (membersRead). Each agrees with spine() and the live value
 * after every push.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IncrementalParser } from "../../src/parse/incremental.js";
import { parseText } from "../../src/parse/parser.js";
import { runs } from "../../testkit/arbitraries.js";
import { leftOpen } from "../../testkit/json-text.js";

/** How many brackets the text leaves open (outside strings). */
const unclosed = (text: string): number => leftOpen(text).closers.length;

/** The open containers, read from the live value by following spine(). */
function containersOnSpine(parser: IncrementalParser, open: number): object[] {
  const out: object[] = [];
  let value: unknown = parser.value;
  for (const step of parser.spine()) {
    if (typeof value !== "object" || value === null) break;
    out.push(value);
    value = (value as Record<string | number, unknown>)[step];
  }
  if (out.length < open && typeof value === "object" && value !== null) out.push(value);
  return out;
}

function memberNames(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + memberNames(v), 0);
  if (typeof value !== "object" || value === null) return 0;
  return Object.values(value).reduce((n: number, v) => n + 1 + memberNames(v), 0);
}

/** JSON texts the parser accepts (no unsafe numbers). */
const json = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.stringify(v))
  .filter((text) => parseText(text).ok);
const sizes = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 });

describe("incremental parser: the spine read in place", () => {
  it("agrees with spine() and the live value after every push, in random splits", () => {
    fc.assert(
      fc.property(json, sizes, (text, s) => {
        const parser = new IncrementalParser({});
        for (let i = 0, k = 0; i < text.length; k++) {
          const n = s[k % s.length]!;
          const valueBefore = JSON.stringify(parser.value);
          const spineBefore = parser.spine();
          expect(parser.push(text.slice(i, i + n)).ok).toBe(true);
          i += n;
          const spine = parser.spine();
          // What the push did: nothing shown changed, or only the string being written grew where it was.
          if (parser.pushed === "nothing") expect(JSON.stringify(parser.value)).toBe(valueBefore);
          if (parser.pushed === "string") {
            expect(parser.reading).toBe("string");
            expect(spine).toEqual(spineBefore);
          }
          expect(parser.spineLength).toBe(spine.length);
          for (let j = 0; j < spine.length; j++) expect(parser.stepAt(j)).toBe(spine[j]);
          const open = containersOnSpine(parser, unclosed(text.slice(0, i)));
          expect(open.length).toBe(unclosed(text.slice(0, i)));
          expect(parser.openCount).toBe(open.length);
          for (let j = 0; j < open.length; j++) expect(parser.openAt(j)).toBe(open[j]);
          // The innermost step names the value just completed there, or the member named with no value yet.
          if (parser.reading === "completed" || parser.reading === "named") {
            const holder = open[open.length - 1]!;
            const step = parser.stepAt(open.length - 1);
            expect(Object.hasOwn(holder, step)).toBe(parser.reading === "completed");
            if (Array.isArray(holder)) expect(step).toBe(holder.length - 1);
          }
          // A string value being read is the last step's value, as the live value shows it.
          if (parser.reading === "string") {
            const holder = open.length === 0 ? undefined : open[open.length - 1]!;
            const shown =
              holder === undefined
                ? parser.value
                : (holder as Record<string | number, unknown>)[parser.stepAt(spine.length - 1)];
            expect(typeof shown).toBe("string");
            // The open string, read from the parser: what the decoder shows for a push that only grew it.
            expect(parser.openString).toBe(shown);
          }
        }
        const end = parser.end();
        expect(end.ok).toBe(true);
        if (end.ok) expect(parser.membersRead).toBe(memberNames(end.value));
      }),
      { numRuns: runs(300) },
    );
  });

  it("deferring the open string: a push that only grows it leaves its place, which settleOpenString() writes; the rest is as without", () => {
    fc.assert(
      fc.property(json, sizes, (text, s) => {
        const plain = new IncrementalParser({});
        const deferring = new IncrementalParser({});
        deferring.deferOpenString();
        for (let i = 0, k = 0; i < text.length; k++) {
          const n = s[k % s.length]!;
          const delta = text.slice(i, i + n);
          i += n;
          expect(deferring.push(delta).ok).toBe(plain.push(delta).ok);
          expect(deferring.pushed).toBe(plain.pushed);
          expect(deferring.reading).toBe(plain.reading);
          expect(deferring.openString).toBe(plain.openString);
          // Only a push that grew a string in a container may leave its place behind; any other writes it.
          if (deferring.pushed !== "string" || deferring.openCount === 0) {
            expect(JSON.stringify(deferring.value)).toBe(JSON.stringify(plain.value));
          }
          deferring.settleOpenString();
          expect(JSON.stringify(deferring.value)).toBe(JSON.stringify(plain.value));
        }
        expect(deferring.end()).toEqual(plain.end());
      }),
      { numRuns: runs(300) },
    );
  });

  it("deferring the open string: a string that grows push after push stays at its place until settled", () => {
    const parser = new IncrementalParser({});
    parser.deferOpenString();
    parser.push('{"a":["x');
    parser.push("yz");
    expect(parser.pushed).toBe("string");
    expect(parser.openString).toBe("xyz");
    expect(parser.value).toEqual({ a: ["x"] });
    parser.settleOpenString();
    expect(parser.value).toEqual({ a: ["xyz"] });
    parser.push("w");
    parser.push('"]');
    expect(parser.value).toEqual({ a: ["xyzw"] });
  });

  it("counts a member name once, in every object, nested or not", () => {
    const parser = new IncrementalParser({});
    for (const ch of '{"a":1,"b":{"c":[{"d":null},{}],"e":"x"},"f":[]}') parser.push(ch);
    expect(parser.end().ok).toBe(true);
    expect(parser.membersRead).toBe(6);
  });

  it("knows when the text ends inside a string, a name or a value, escapes included", () => {
    const text = '{"a\\"b":["x\\\\", "y\\u0041"],"c":{"d":"\\"z"}}';
    expect(JSON.parse(text)).toBeTruthy();
    const parser = new IncrementalParser({});
    let inside = false;
    let escaped = false;
    for (const ch of text) {
      parser.push(ch);
      // The oracle: a quote not escaped opens or closes a string; a backslash in one escapes the next character.
      if (inside && escaped) escaped = false;
      else if (inside && ch === "\\") escaped = true;
      else if (ch === '"') inside = !inside;
      const reading = parser.reading;
      expect(
        reading === "string" || reading === "name" || reading === "name-escape",
        `after ${JSON.stringify(ch)}`,
      ).toBe(inside);
    }
  });

  it("awaits a member name only after an object's comma", () => {
    const text = '{"a":[1,2],"b":{"c":"x, y"} , "d":0}';
    const awaiting: number[] = [];
    const parser = new IncrementalParser({});
    for (let i = 0; i < text.length; i++) {
      parser.push(text[i]!);
      if (parser.reading === "name-due") awaiting.push(i);
    }
    // After the comma that follows "a"'s array, and after the one (and the space) that follows "b"'s object.
    expect(awaiting).toEqual([text.indexOf(',"b"'), text.indexOf(', "d"'), text.indexOf(', "d"') + 1]);
  });

  it("tells where the text ends, character by character, the string being read, and the step of a name or a completed value", () => {
    const text = '{"k":[1,"s"],"n\\u0041":null, "t":true}';
    expect(JSON.parse(text)).toEqual({ k: [1, "s"], nA: null, t: true });
    // Where the text ends after each character, with the string being read or the innermost step.
    const expected: [string, string | number | undefined][] = [
      ["between", undefined], // {
      ["name", ""], // "
      ["name", "k"], // k
      ["named", "k"], // "
      ["named", "k"], // :
      ["between", undefined], // [
      ["number", undefined], // 1
      ["between", undefined], // , (the number completed, then the comma)
      ["string", ""], // "
      ["string", "s"], // s
      ["completed", 1], // "
      ["completed", "k"], // ]
      ["name-due", undefined], // ,
      ["name", ""], // "
      ["name", "n"], // n
      ["name-escape", undefined], // \
      ["name-escape", undefined], // u
      ["name-escape", undefined], // 0
      ["name-escape", undefined], // 0
      ["name-escape", undefined], // 4
      ["name", "nA"], // 1
      ["named", "nA"], // "
      ["named", "nA"], // :
      ["null", undefined], // n
      ["null", undefined], // u
      ["null", undefined], // l
      ["completed", "nA"], // l
      ["name-due", undefined], // ,
      ["name-due", undefined], // (space)
      ["name", ""], // "
      ["name", "t"], // t
      ["named", "t"], // "
      ["named", "t"], // :
      ["boolean", undefined], // t
      ["boolean", undefined], // r
      ["boolean", undefined], // u
      ["completed", "t"], // e
      ["between", undefined], // }
    ];
    expect(expected.length).toBe(text.length);
    const parser = new IncrementalParser({});
    const seen: [string, string | number | undefined][] = [];
    for (const ch of text) {
      parser.push(ch);
      const reading = parser.reading;
      const stepped = reading === "named" || reading === "completed";
      const read = reading === "name" || reading === "string" ? parser.openString : undefined;
      seen.push([reading, stepped ? parser.stepAt(parser.openCount - 1) : read]);
    }
    expect(seen).toEqual(expected);
  });
});
