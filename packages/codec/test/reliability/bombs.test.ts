/**
 * Bombs generated here rather than stored: 10^5 and 10^6 levels of nesting,
 * node floods, 10 MB inputs. Each is refused with the right code, without a
 * throw (a stack overflow would be one), and in time linear in its size.
 */
import { type Codec, compileCodec, DEFAULT_PARSE_LIMITS, type ParseLimits, parseJson } from "@strictwire/codec";
import { beforeAll, describe, expect, it } from "vitest";
import { arrayBomb, flat, growth, objectBomb } from "./support.js";

const MB = 1_000_000;
/** A bomb of any size is refused well within this (typical: a few ms per MB). */
const CEILING_MS = 5000;

let codec: Codec;
beforeAll(() => {
  const compiled = compileCodec({
    type: "object",
    properties: { x: {}, m: { type: "object", additionalProperties: { type: "string" } } },
    required: ["x"],
    additionalProperties: false,
  });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  codec = compiled.value;
});

function refusal(input: string | Uint8Array | unknown, limits?: Partial<ParseLimits>): { code: string; ms: number } {
  const t = performance.now();
  const r = limits ? codec.decode(input, { limits }) : codec.decode(input);
  const ms = performance.now() - t;
  if (r.ok) throw new Error("accepted a bomb");
  return { code: r.error.code, ms };
}

/** The any-JSON slot x holding `inner`, and the optional map m absent. */
const args = (inner: string) => `{"x":${inner},"m":{"state":"absent"}}`;
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

describe("depth bombs", () => {
  for (const n of [100_000, 1_000_000]) {
    for (const [shape, bomb] of [
      ["arrays", arrayBomb],
      ["objects", objectBomb],
    ] as const) {
      it(`${n} nested ${shape}: refused by size under the default limits, by depth once the size allows`, () => {
        for (const closed of [true, false]) {
          const text = args(bomb(n, closed));
          const bySize = Buffer.byteLength(text) > DEFAULT_PARSE_LIMITS.maxBytes;
          for (const input of [text, bytes(text)]) {
            const defaults = refusal(input);
            expect(defaults.code).toBe(bySize ? "input-too-large" : "too-deep");
            expect(defaults.ms).toBeLessThan(CEILING_MS);
            const roomy = refusal(input, { maxBytes: 16 * MB, maxNodes: 16 * MB });
            expect(roomy.code).toBe("too-deep");
            expect(roomy.ms).toBeLessThan(CEILING_MS);
          }
          const parsed = parseJson(bomb(n, closed), { maxBytes: 16 * MB });
          expect(parsed.ok ? "accepted" : parsed.error.code).toBe("too-deep");
        }
      });
    }

    it(`${n} nested arrays given already parsed: refused by depth, without recursion`, () => {
      let deep: unknown = [];
      for (let i = 0; i < n; i++) deep = [deep];
      expect(refusal({ x: deep, m: { state: "absent" } }).code).toBe("too-deep");
      let obj: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) obj = { a: obj };
      expect(refusal({ x: obj, m: { state: "absent" } }).code).toBe("too-deep");
    });
  }

  it("reports depth at the 65th level, not at the end of the text", () => {
    const r = codec.decode(args(arrayBomb(100_000)));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("too-deep");
      // {"x": is 5 characters; the 64th bracket after it is the 65th level.
      expect(r.error.offset).toBe(5 + 63);
    }
  });
});

describe("node bombs", () => {
  const zeros = (n: number) => `[${Array(n).fill("0").join(",")}]`;
  const members = (n: number) =>
    `{"entries":[${Array.from({ length: n }, (_, i) => `{"key":"k${i}","value":0}`).join(",")}]}`;
  const cases: [string, string][] = [
    ["a million zeros", zeros(1_000_000)],
    ["a million empty arrays", `[${Array(1_000_000).fill("[]").join(",")}]`],
    ["200,000 any-JSON members", members(200_000)],
    ["a wide raw object", `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(",")}}`],
  ];
  for (const [name, inner] of cases) {
    it(`${name}: too-many-nodes once the size allows, whatever the shape`, () => {
      const text = args(inner);
      expect(refusal(text).code).toBe(Buffer.byteLength(text) > MB ? "input-too-large" : "too-many-nodes");
      const roomy = refusal(text, { maxBytes: 16 * MB });
      expect(roomy.code).toBe("too-many-nodes");
      expect(roomy.ms).toBeLessThan(CEILING_MS);
    });
  }

  it("counts every value, scalars included: 20,000 is accepted, 20,001 is not", () => {
    // Root object, the array, the absent tag and its state: 4 values, then the elements.
    expect(codec.decode(args(zeros(20_000 - 4))).ok).toBe(true);
    expect(refusal(args(zeros(20_000 - 3))).code).toBe("too-many-nodes");
  });
});

describe("10 MB inputs", () => {
  const TEN = 10 * MB;
  it("are refused as input-too-large before anything is read", () => {
    const inputs: [string, string | Uint8Array][] = [
      ["valid JSON text", args(`"${"a".repeat(TEN)}"`)],
      ["a depth bomb", "[".repeat(TEN)],
      ["text that opens with a byte order mark", `\ufeff${"x".repeat(TEN)}`],
      ["a lone surrogate first", `\ud800${"x".repeat(TEN)}`],
      ["bytes: valid", bytes(args(`"${"a".repeat(TEN)}"`))],
      ["bytes: ill-formed UTF-8 first", new Uint8Array(TEN).fill(0xff)],
      ["bytes: NULs", new Uint8Array(TEN)],
    ];
    for (const [name, input] of inputs) {
      const t = performance.now();
      const r = codec.decode(input);
      const ms = performance.now() - t;
      expect(r.ok, name).toBe(false);
      if (r.ok) continue;
      // Had anything been scanned, these would be too-deep, invalid-json or invalid-utf8, with an offset.
      expect(r.error.code, name).toBe("input-too-large");
      expect(r.error.offset, name).toBeUndefined();
      expect(ms, name).toBeLessThan(CEILING_MS);
    }
  });

  it("counts UTF-8 bytes, not characters, at the boundary", () => {
    // "é" is two bytes: a text under a million characters may still be over a million bytes.
    const wrapper = Buffer.byteLength(args('""'));
    const count = Math.floor((MB - wrapper) / 2);
    const within = args(`"${"é".repeat(count)}"`);
    const over = args(`"${"é".repeat(count + 1)}"`);
    expect(within.length).toBeLessThan(MB);
    expect(over.length).toBeLessThan(MB);
    expect(Buffer.byteLength(within)).toBeGreaterThan(MB - 2);
    expect(Buffer.byteLength(within)).toBeLessThanOrEqual(MB);
    expect(Buffer.byteLength(over)).toBeGreaterThan(MB);
    expect(codec.decode(within).ok).toBe(true);
    expect(refusal(over).code).toBe("input-too-large");
    expect(refusal(bytes(over)).code).toBe("input-too-large");
  });
});

/**
 * Hostile shapes whose refusal must cost time linear in their size: each is
 * timed at about 1 MB and 4 MB. Linear time gives a ratio near 4, quadratic
 * near 16; the bound of 10 leaves room for a busy machine.
 */
describe("refusal time is linear in the input", () => {
  const ROOMY: Partial<ParseLimits> = { maxBytes: 32 * MB, maxNodes: 32 * MB, maxDepth: 64 };
  const repeatTo = (size: number, unit: string) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));
  const shapes: { name: string; expect: string; make: (size: number) => string | Uint8Array }[] = [
    {
      name: "one long string with a raw control character at its end",
      expect: "invalid-json",
      make: (n) => args(`"${"a".repeat(n)}\n"`),
    },
    {
      name: "pretty-printed long strings, then garbage after the root",
      expect: "invalid-json",
      make: (n) => `${args(`[\n  ${repeatTo(n, `"${"a".repeat(60)}",\n  `)}"end"\n]`)} x`,
    },
    {
      name: "short strings full of escapes, left unterminated",
      expect: "invalid-json",
      make: (n) => `{"x":[${repeatTo(n, '"\\u0041\\n\\"",')}"abc`,
    },
    {
      name: "a wide object whose last member repeats the first",
      expect: "duplicate-key",
      make: (n) => args(`{${Array.from({ length: Math.floor(n / 12) }, (_, i) => `"k${i}":0`).join(",")},"k0":1}`),
    },
    {
      name: "escaped member names, the last one a repeat",
      expect: "duplicate-key",
      make: (n) =>
        args(`{${Array.from({ length: Math.floor(n / 20) }, (_, i) => `"\\u006b${i}":0`).join(",")},"k0":1}`),
    },
    {
      name: "twelve-member objects, a repeat in the last",
      expect: "duplicate-key",
      make: (n) =>
        args(
          `[${repeatTo(n, '{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0,"k":0,"l":0},')}{"a":0,"a":0}]`,
        ),
    },
    { name: "a single number literal of n digits", expect: "unsafe-number", make: (n) => args("9".repeat(n)) },
    {
      name: "towers 60 deep, the last one too deep",
      expect: "too-deep",
      make: (n) => args(`[${repeatTo(n, `${arrayBomb(60)},`)}${arrayBomb(70)}]`),
    },
    {
      name: "surrogate pairs, then a lone surrogate",
      expect: "invalid-utf8",
      make: (n) => args(`"${"😀".repeat(Math.floor(n / 4))}\ud800"`),
    },
    { name: "whitespace, then garbage", expect: "invalid-json", make: (n) => `${args("1")}${" ".repeat(n)}x` },
    {
      name: "bytes: multibyte text, an invalid byte at the end",
      expect: "invalid-utf8",
      make: (n) => new Uint8Array([...Buffer.from(args(`"${"é".repeat(Math.floor(n / 2))}`)), 0xff, 0x22, 0x7d, 0x7d]),
    },
    {
      name: "any-JSON entries, the last one a repeat",
      expect: "duplicate-entry",
      make: (n) =>
        args(
          `{"entries":[${Array.from({ length: Math.floor(n / 24) }, (_, i) => `{"key":"k${i}","value":0}`).join(",")},{"key":"k0","value":1}]}`,
        ),
    },
    {
      name: "map entries, the last one a repeat",
      expect: "duplicate-entry",
      make: (n) =>
        `{"x":null,"m":{"state":"present","value":[${Array.from({ length: Math.floor(n / 26) }, (_, i) => `{"key":"k${i}","value":"v"}`).join(",")},{"key":"k0","value":"w"}]}}`,
    },
  ];

  for (const shape of shapes) {
    it(shape.name, { timeout: 120_000 }, () => {
      const small = shape.make(MB);
      const large = shape.make(4 * MB);
      const [s, l] = typeof small === "string" ? [flat(small), flat(large as string)] : [small, large];
      for (const input of [s, l]) {
        const r = codec.decode(input, { limits: ROOMY });
        expect(r.ok ? "accepted" : r.error.code).toBe(shape.expect);
      }
      const best = growth(
        () => codec.decode(s, { limits: ROOMY }),
        () => codec.decode(l, { limits: ROOMY }),
        10,
      );
      expect(best.large).toBeLessThan(CEILING_MS);
      expect(best.ratio, `${best.small.toFixed(1)} ms vs ${best.large.toFixed(1)} ms`).toBeLessThan(10);
    });
  }
});
