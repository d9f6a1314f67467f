import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ErrorCode, Result } from "../../src/errors.js";
import { parseJson } from "../../src/parse/json.js";
import { type ParseRefusal, parseTextByScanner } from "../../src/parse/parser.js";

// Limits out of the way: these properties are about grammar and the value rules.
const ROOMY = { maxBytes: 10_000_000, maxNodes: 10_000_000, maxDepth: 10_000 };

type Reference = { ok: true; value: unknown } | { ok: false; code: ErrorCode; path: string };

/** A reference failure; only the oracle below throws it. */
class Rejected {
  constructor(
    readonly code: ErrorCode,
    readonly path: string,
  ) {}
}

const NUMBER_LIKE = /-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
const STRICT_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * The rules written as plainly as possible, for small inputs only: a
 * recursive-descent parser reporting the first problem left to right, at the
 * member or element being read ("" and the container's path between values).
 */
function referenceParse(text: string): Reference {
  let i = 0;
  const pointer = (path: string, token: string | number) =>
    `${path}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
  const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
  const skipWs = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const unexpected = (path: string) => {
    const c = text.charCodeAt(i);
    const lone = isLow(c) || (isHigh(c) && !isLow(text.charCodeAt(i + 1)));
    return new Rejected(lone ? "invalid-utf8" : "invalid-json", path);
  };
  const hex = (at: number) =>
    /^[0-9a-fA-F]{4}$/.test(text.slice(at, at + 4)) ? Number.parseInt(text.slice(at, at + 4), 16) : -1;

  function string(path: string): string {
    let out = "";
    i++;
    for (;;) {
      if (i >= text.length) throw new Rejected("invalid-json", path);
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return out;
      }
      if (c < 0x20) throw new Rejected("invalid-json", path);
      if (c === 92) {
        const e = text[i + 1] ?? "";
        if (e in SIMPLE_ESCAPES) {
          out += SIMPLE_ESCAPES[e];
          i += 2;
          continue;
        }
        const u = e === "u" ? hex(i + 2) : -1;
        if (u < 0) throw new Rejected("invalid-json", path);
        if (isHigh(u) && text.startsWith("\\u", i + 6) && isLow(hex(i + 8))) {
          out += String.fromCharCode(u, hex(i + 8));
          i += 12;
        } else if (isHigh(u) || isLow(u)) {
          throw new Rejected("invalid-utf8", path);
        } else {
          out += String.fromCharCode(u);
          i += 6;
        }
        continue;
      }
      if (isHigh(c) && isLow(text.charCodeAt(i + 1))) {
        out += text.slice(i, i + 2);
        i += 2;
      } else if (isHigh(c) || isLow(c)) {
        throw new Rejected("invalid-utf8", path);
      } else {
        out += text[i];
        i++;
      }
    }
  }

  function number(path: string): number {
    NUMBER_LIKE.lastIndex = i;
    const spelled = NUMBER_LIKE.exec(text)?.[0] ?? "";
    if (!STRICT_NUMBER.test(spelled)) throw new Rejected("invalid-json", path);
    i += spelled.length;
    const n = Number(spelled);
    if (!(Math.abs(n) <= Number.MAX_SAFE_INTEGER)) throw new Rejected("unsafe-number", path);
    return n === 0 ? 0 : n;
  }

  function value(path: string): unknown {
    const c = text[i];
    if (c === '"') return string(path);
    if (c === "[") return array(path);
    if (c === "{") return object(path);
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number(path);
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    throw unexpected(path);
  }

  function array(path: string): unknown[] {
    const out: unknown[] = [];
    i++;
    skipWs();
    if (text[i] === "]") {
      i++;
      return out;
    }
    for (;;) {
      out.push(value(pointer(path, out.length)));
      skipWs();
      if (text[i] === "]") {
        i++;
        return out;
      }
      if (text[i] !== ",") throw unexpected(path);
      i++;
      skipWs();
    }
  }

  function object(path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    i++;
    skipWs();
    if (text[i] === "}") {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] !== '"') throw unexpected(path);
      const key = string(path);
      if (Object.hasOwn(out, key)) throw new Rejected("duplicate-key", pointer(path, key));
      skipWs();
      if (text[i] !== ":") throw unexpected(pointer(path, key));
      i++;
      skipWs();
      Object.defineProperty(out, key, { value: value(pointer(path, key)), enumerable: true });
      skipWs();
      if (text[i] === "}") {
        i++;
        return out;
      }
      if (text[i] !== ",") throw unexpected(path);
      i++;
      skipWs();
    }
  }

  try {
    skipWs();
    const v = value("");
    skipWs();
    if (i < text.length) throw unexpected("");
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof Rejected) return { ok: false, code: e.code, path: e.path };
    throw e;
  }
}

/** The value with every -0 replaced by 0 (parseJson does not keep the sign of zero). */
function withoutNegativeZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(withoutNegativeZero);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: withoutNegativeZero(x), enumerable: true });
    return out;
  }
  return v;
}

function nativeParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: withoutNegativeZero(JSON.parse(text)) };
  } catch {
    return { ok: false };
  }
}

/**
 * parseJson agrees with the straightforward recursive reference on every
 * text, in outcome, value, error code and path, and is never looser than
 * JSON.parse: what it accepts, JSON.parse accepts with the same value, and
 * what it calls invalid JSON, JSON.parse rejects too.
 */
function checkAgainstOracles(text: string): void {
  const ours = parseJson(text, ROOMY);
  const reference: Reference = referenceParse(text);
  const native = nativeParse(text);
  if (ours.ok) {
    expect(reference).toEqual({ ok: true, value: ours.value });
    expect(native).toEqual({ ok: true, value: ours.value });
  } else {
    expect({ ok: false, code: ours.error.code, path: ours.error.path }).toEqual(reference);
    if (ours.error.code === "invalid-json") expect(native.ok).toBe(false);
    expect(ours.error.offset).toBeGreaterThanOrEqual(0);
    expect(ours.error.offset).toBeLessThanOrEqual(text.length);
  }
}

/** Pieces of string content, some long enough to take the scanner's long-string path, some invalid. */
const stringPiece = fc.constantFrom(
  "a",
  "lorem ipsum dolor sit amet ",
  "é",
  "😀",
  '"',
  "\\",
  "\n",
  "\u0000",
  "\ud800",
  "\udc00",
);

const stringUnit = fc.oneof(
  fc.constantFrom("grapheme-ascii", "grapheme", "binary") as fc.Arbitrary<"grapheme" | "binary">,
  fc.constant(stringPiece),
);

/** JSON text of an arbitrary value, compact or indented. */
const jsonText = fc
  .tuple(
    stringUnit.chain((unit) => fc.jsonValue({ stringUnit: unit, maxDepth: 6 })),
    fc.constantFrom(undefined, 1, 2, "\t"),
  )
  .map(([v, indent]) => JSON.stringify(v, null, indent));

const TOKENS = [
  ..."{}[],:\"\\ \n\t\r-+.eE0123456789uxad'/*",
  '"a"',
  '"\\u0061"',
  '"a":',
  "lorem ipsum dolor sit amet ",
  "true",
  "false",
  "null",
  "tru",
  "NaN",
  "Infinity",
  "1e400",
  "-0",
  "9007199254740993",
  "\\ud800",
  "\\udc00",
  "\ud800",
  "\udc00",
  "😀",
  "\u00a0",
  "\ufeff",
  "\u0000",
  "\u001f",
  "é",
];
const token = fc.constantFrom(...TOKENS);
const tokenSoup = fc.array(token, { maxLength: 40 }).map((parts) => parts.join(""));

/** Valid JSON text damaged by a few edits: near-misses exercise every error path. */
const damagedJson = fc
  .tuple(
    jsonText,
    fc.array(fc.tuple(fc.constantFrom("insert", "delete", "replace"), fc.nat(), token), { minLength: 1, maxLength: 3 }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [kind, at, tok]) => {
      const k = t.length === 0 ? 0 : at % t.length;
      if (kind === "insert") return t.slice(0, k) + tok + t.slice(k);
      if (kind === "delete") return t.slice(0, k) + t.slice(k + 1);
      return t.slice(0, k) + tok + t.slice(k + 1);
    }, text),
  );

/** A name, and whether its first character is written as an escape. */
const wideName = fc.tuple(
  fc.constantFrom("a", "b", "é", "a/b", "~1", "😀", "lorem ipsum dolor sit", ""),
  fc.nat(40),
  fc.boolean(),
);

const nameText = ([stem, n]: [string, number, boolean], escaped: boolean) => {
  const name = `${stem}${n}`;
  if (!escaped) return JSON.stringify(name);
  return `"\\u${name.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(name).slice(2)}`;
};

/**
 * An object of distinct names, then a few members that repeat an earlier
 * one's name (spelled the same or not) put in later: most past the scanner's
 * one-by-one check (12 names), where names are logged and checked at once.
 */
const wideMembers = (value: fc.Arbitrary<string>, maxLength: number) =>
  fc
    .tuple(
      fc.uniqueArray(fc.tuple(wideName, value), {
        maxLength,
        size: "max",
        selector: ([[stem, n]]) => `${stem}${n}`,
      }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean(), value), { maxLength: 2 }),
    )
    .map(([distinct, repeats]) => {
      const members = distinct.map(([name, v]) => [nameText(name, name[2]), v]);
      for (const [from, to, escaped, v] of repeats) {
        if (distinct.length === 0) break;
        const source = from % distinct.length;
        const at = source + 1 + (to % (members.length - source));
        members.splice(at, 0, [nameText(distinct[source]![0], escaped), v]);
      }
      return `{${members.map(([name, v]) => `${name}:${v}`).join(",")}}`;
    });

/**
 * Objects of up to 40 members whose names repeat or not, with objects of up
 * to 20 inside; valid, or damaged by a few edits.
 */
const scalarText = fc.constantFrom("0", '"x"', "null", "[]");
const wideObject = wideMembers(fc.oneof(scalarText, scalarText, wideMembers(scalarText, 20)), 40);

const damagedWideObject = fc
  .tuple(
    wideObject,
    fc.array(fc.tuple(fc.constantFrom("insert", "delete", "replace", "cut"), fc.nat(), token), { maxLength: 2 }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [kind, at, tok]) => {
      const k = t.length === 0 ? 0 : at % t.length;
      if (kind === "insert") return t.slice(0, k) + tok + t.slice(k);
      if (kind === "delete") return t.slice(0, k) + t.slice(k + 1);
      if (kind === "cut") return t.slice(0, k);
      return t.slice(0, k) + tok + t.slice(k + 1);
    }, text),
  );

describe("parseJson against JSON.parse and a reference parser", () => {
  it("accepts generated JSON with JSON.parse's value, or names the rule it breaks", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        checkAgainstOracles(text);
        const ours = parseJson(text, ROOMY);
        if (!ours.ok) expect(["unsafe-number", "invalid-utf8"]).toContain(ours.error.code);
      }),
      { numRuns: 400 },
    );
  });

  it("reads the UTF-8 bytes of generated JSON like the string", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) return;
        const fromString = parseJson(text, ROOMY);
        const fromBytes = parseJson(new TextEncoder().encode(text), ROOMY);
        expect(fromBytes.ok).toBe(fromString.ok);
        if (fromBytes.ok && fromString.ok) expect(fromBytes.value).toEqual(fromString.value);
      }),
      { numRuns: 200 },
    );
  });

  it("agrees on damaged JSON", () => {
    fc.assert(fc.property(damagedJson, checkAgainstOracles), { numRuns: 2000 });
  });

  it("agrees on wide objects whose names repeat, valid or damaged, and so does the scanner alone", () => {
    let repeats = 0;
    fc.assert(
      fc.property(damagedWideObject, (text) => {
        checkAgainstOracles(text);
        const ours = parseJson(text, ROOMY);
        const scanner = parseTextByScanner(text, ROOMY);
        const verdict = (r: Result<unknown, Pick<ParseRefusal, "code" | "path" | "offset" | "message">>) =>
          r.ok ? r : { code: r.error.code, path: r.error.path, offset: r.error.offset, message: r.error.message };
        expect(verdict(scanner)).toEqual(verdict(ours));
        if (!ours.ok && ours.error.code === "duplicate-key") repeats++;
      }),
      { numRuns: 2000 },
    );
    // Repeated names are found often, not by chance alone.
    expect(repeats).toBeGreaterThan(200);
  });

  it("agrees on token soup", () => {
    fc.assert(fc.property(tokenSoup, checkAgainstOracles), { numRuns: 2000 });
  });

  it("agrees on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), checkAgainstOracles), { numRuns: 1000 });
  });

  it("never throws on arbitrary bytes, and rejects only with parse codes", () => {
    const parseCodes: ErrorCode[] = ["invalid-json", "invalid-utf8", "duplicate-key", "unsafe-number"];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), (bytes) => {
        const result = parseJson(bytes, ROOMY);
        if (result.ok) expect(nativeParse(new TextDecoder().decode(bytes))).toEqual({ ok: true, value: result.value });
        else expect(parseCodes).toContain(result.error.code);
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees on the named edge cases", () => {
    for (const text of [
      "[01]",
      "[1.]",
      "[1.e5]",
      "[1.5.3]",
      "[-]",
      "[1e+]",
      '{"a" 1}',
      '{"a":1 "b":2}',
      '{"a":1,"a" x',
      '["\\ud800\\u0041"]',
      '["\\ud800\\uzzzz"]',
      "[1 \ud800]",
      "x\ud800",
      "\ufeff1",
      '{"\\u0000":1,"\\u0000":2}',
      // Found by the damaged-JSON property: a raw control character in a long escaped name.
      '{"\\"lorem ipsum do\rlor sit amet ":null,"":null}',
    ]) {
      checkAgainstOracles(text);
    }
    // Big objects' names are checked when the object closes or the scan stops: the first repeat is still the one
    // reported, before any later problem, an inner object's repeat included.
    const members = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `"${prefix}${i}":0`).join(",");
    const wide = `${members("k", 14)},"k0":1`;
    for (const text of [
      `{${wide},"inner":{${members("j", 14)},"j0":1}}`,
      `{${wide},"inner":{${members("j", 3)},"j0":1}}`,
      `{${wide},"x" 1}`,
      `{${wide},"x":[1,}`,
      `{${wide}`,
      `{${members("k", 14)},"\\u006b0":1}`,
      `[{${members("k", 14)}},{${wide}}]`,
    ]) {
      const ours = parseJson(text, ROOMY);
      const scanner = parseTextByScanner(text, ROOMY);
      expect(ours.ok ? "accepted" : [ours.error.code, ours.error.path], text).toEqual(
        scanner.ok ? "accepted" : [scanner.error.code, scanner.error.path],
      );
      checkAgainstOracles(text);
      expect(ours.ok ? "accepted" : ours.error.code, text).toBe("duplicate-key");
    }
  });
});
