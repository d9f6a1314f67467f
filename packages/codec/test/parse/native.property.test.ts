/**
 * The native-first path (parse/native.ts) against the scanner alone: for
 * every text and limits, the same verdict, the same value, and for a
 * refusal the same code, path, message and offset. The texts are built from
 * the pieces the shortcut's reasoning leans on: colons inside names and
 * values, \u003a escapes, escaped backslashes before them, repeated names,
 * escaped and raw surrogates, -0, unsafe and underflowing numbers, and
 * nesting around the limits.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, parseJsonByScanner } from "../../src/parse/json.js";
import { NATIVE_FIRST_UP_TO } from "../../src/parse/native.js";
import { runs } from "../../testkit/arbitraries.js";

const NAMES = [
  "a",
  "b",
  "a:b",
  ":",
  "\\u003a",
  "\\u003A",
  "k\\u003Ak",
  "k:k",
  "\\\\u003a",
  "__proto__",
  "\\ud800",
  "é",
  "😀",
  "\\ud83d\\ude00",
];
const LEAVES = [
  "1",
  "0",
  "-0",
  "-0.0",
  "-0e5",
  "0.5",
  "1e400",
  "-1e400",
  "-1e-400",
  "9007199254740991",
  "-9007199254740991",
  "9007199254740992",
  "12345678901234567890",
  "1.0000000000000000000001",
  '"x"',
  '"a:b:c"',
  '"\\u003a"',
  '"\\\\\\u003a"',
  '"\\\\u003a"',
  '"\\ud83d"',
  '"\\udc00"',
  '"\\ud83d\\ude00"',
  '"\ud83d"',
  '"\ud83d\\ude00"',
  '"\\ud83d\ude00"',
  '"\udc00"',
  '"😀"',
  '"\u0001"',
  '"\\""',
  "null",
  "true",
  "false",
  "tru",
  "01",
  "[1,]",
];

const text: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...LEAVES),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(fc.constantFrom(...NAMES), tie("value")), { maxLength: 4 })
      .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(",")}}`),
  ),
})).value;

/** Whitespace, a BOM or trailing text around a value. */
const framed = fc
  .tuple(fc.constantFrom("", " ", "\n\t", "\ufeff"), text, fc.constantFrom("", " ", "\r\n", "x", ","))
  .map(([before, value, after]) => `${before}${value}${after}`);

const limits = fc.record({
  maxBytes: fc.constantFrom(1_000_000, 40),
  maxNodes: fc.constantFrom(20_000, 6, 1),
  maxDepth: fc.constantFrom(64, 3, 1, 0),
});

function outcome(result: ReturnType<typeof parseJson>): unknown {
  if (result.ok)
    return {
      ok: true,
      value: result.value,
      json: JSON.stringify(result.value),
      negativeZero: hasNegativeZero(result.value),
    };
  const { code, path, message, offset } = result.error;
  return { ok: false, code, path, message, offset };
}

function hasNegativeZero(v: unknown): boolean {
  if (Object.is(v, -0)) return true;
  return typeof v === "object" && v !== null && Object.values(v).some(hasNegativeZero);
}

describe("native-first parse agrees with the scanner", () => {
  it("on generated texts and limits", () => {
    fc.assert(
      fc.property(framed, limits, (t, l) => {
        expect(outcome(parseJson(t, l))).toEqual(outcome(parseJsonByScanner(t, l)));
      }),
      { numRuns: runs(3000) },
    );
  });

  it("on texts the shortcut is most likely to get wrong", () => {
    const cases = [
      '{"a":1,"a":2}',
      '{"a:b":1,"a:b":2}',
      '{"\\u003a":1,":":2}',
      '{"k\\u003Ak":1,"k:k":2}',
      '{"a":"\\\\u003a","a":1}',
      '{"a":"\\\\\\u003a","a":1}',
      '{"x":"a:b","x":"c"}',
      '{"__proto__":1,"__proto__":2}',
      '{"__proto__":-0}',
      '{"a":{"b":1},"a":{"b":1}}',
      '[{"a":1},{"a":1,"a":1}]',
      "-0",
      '["\\ud800"]',
      '{"\\udc00":1}',
      `${"[".repeat(65)}${"]".repeat(65)}`,
      `[${"0,".repeat(30000)}0]`,
    ];
    for (const t of cases) {
      for (const l of [{}, { maxNodes: 3 }, { maxDepth: 2 }]) {
        expect(outcome(parseJson(t, l)), t).toEqual(outcome(parseJsonByScanner(t, l)));
      }
    }
  });

  it("keeps the scanner's answers past the size where the shortcut stops", () => {
    const big = `[${'"a:b",'.repeat(NATIVE_FIRST_UP_TO / 6)}{"k":1,"k":2}]`;
    expect(big.length).toBeGreaterThan(NATIVE_FIRST_UP_TO);
    const result = parseJson(big, { maxNodes: 1_000_000 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("duplicate-key");
  });

  it("returns plain values: own __proto__ data, no -0", () => {
    const result = parseJson('{"__proto__":{"x":-0},"list":[-0,1]}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(hasNegativeZero(value)).toBe(false);
  });
});
