/**
 * Bombs generated here rather than stored: 10^5 and 10^6 levels of nesting,
 * node floods, 10 MB inputs. Each is refused with the right code and without a
 * throw (a stack overflow would be one). Nothing here is timed: a bounded
 * refusal shows in the offset it reports, and the time of each shape at two
 * sizes is measured by `pnpm bench --only hostile` (docs/performance.md).
 */
import { type Codec, compileCodec, DEFAULT_PARSE_LIMITS, type ParseLimits, parseJson } from "@strictwire/codec";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bombArgs as args,
  arrayBomb,
  BOMB_SCHEMA,
  HOSTILE_SHAPES,
  MB,
  objectBomb,
  ROOMY_LIMITS,
} from "../../testkit/bombs.js";

/** For the tests that build and refuse inputs of several MB: generous for a loaded two-core machine (typical: 1-4 s). */
const LARGE = { timeout: 120_000 };

let codec: Codec;
beforeAll(() => {
  const compiled = compileCodec(BOMB_SCHEMA);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  codec = compiled.value;
});

function refusal(
  input: string | Uint8Array | unknown,
  limits?: Partial<ParseLimits>,
): { code: string; offset?: number } {
  const r = limits ? codec.decode(input, { limits }) : codec.decode(input);
  if (r.ok) throw new Error("accepted a bomb");
  return { code: r.error.code, ...(r.error.offset !== undefined ? { offset: r.error.offset } : {}) };
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

describe("depth bombs", () => {
  for (const n of [100_000, 1_000_000]) {
    for (const [shape, bomb] of [
      ["arrays", arrayBomb],
      ["objects", objectBomb],
    ] as const) {
      it(`${n} nested ${shape}: refused by size under the default limits, by depth once the size allows`, LARGE, () => {
        // {"x": is 5 characters; the 64th opener after it (1 or 5 characters each) is the 65th level, whatever n.
        const at65th = 5 + 63 * (shape === "arrays" ? 1 : 5);
        for (const closed of [true, false]) {
          const text = args(bomb(n, closed));
          const bySize = Buffer.byteLength(text) > DEFAULT_PARSE_LIMITS.maxBytes;
          for (const input of [text, bytes(text)]) {
            const defaults = refusal(input);
            expect(defaults).toEqual(bySize ? { code: "input-too-large" } : { code: "too-deep", offset: at65th });
            expect(refusal(input, { maxBytes: 16 * MB, maxNodes: 16 * MB })).toEqual({
              code: "too-deep",
              offset: at65th,
            });
          }
          const parsed = parseJson(bomb(n, closed), { maxBytes: 16 * MB });
          expect(parsed.ok ? "accepted" : parsed.error.code).toBe("too-deep");
        }
      });
    }

    it(`${n} nested arrays given already parsed: refused by depth, without recursion`, LARGE, () => {
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
    it(`${name}: too-many-nodes once the size allows, whatever the shape`, LARGE, () => {
      const text = args(inner);
      expect(refusal(text).code).toBe(Buffer.byteLength(text) > MB ? "input-too-large" : "too-many-nodes");
      const roomy = refusal(text, { maxBytes: 16 * MB });
      expect(roomy.code).toBe("too-many-nodes");
      // Refused where the 20,001st value begins, far from the end of the text.
      expect(roomy.offset).toBeLessThan(Buffer.byteLength(text) / 4);
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
  it("are refused as input-too-large before anything is read", LARGE, () => {
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
      const r = codec.decode(input);
      expect(r.ok, name).toBe(false);
      if (r.ok) continue;
      // Had anything been scanned, these would be too-deep, invalid-json or invalid-utf8, with an offset.
      expect(r.error.code, name).toBe("input-too-large");
      expect(r.error.offset, name).toBeUndefined();
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
 * Hostile shapes read to (nearly) their end before they are refused, at about
 * 1 MB and 4 MB: the same code at both sizes. That the time is linear in the
 * size (a ratio near 4, where quadratic would be near 16) is measured by
 * `pnpm bench --only hostile`, from the same shapes.
 */
describe("hostile shapes of 1 MB and 4 MB", () => {
  for (const shape of HOSTILE_SHAPES) {
    it(shape.name, LARGE, () => {
      for (const size of [MB, 4 * MB]) {
        const r = codec.decode(shape.make(size), { limits: ROOMY_LIMITS });
        expect(r.ok ? "accepted" : r.error.code, `${size} bytes`).toBe(shape.expect);
      }
    });
  }
});
