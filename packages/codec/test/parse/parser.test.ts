import { describe, expect, it } from "vitest";
import type { CodecError, ErrorCode } from "../../src/errors.js";
import { parseJson } from "../../src/parse/json.js";
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "../../src/parse/parser.js";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function value(input: string | Uint8Array, limits?: Partial<ParseLimits>): unknown {
  const result = parseJson(input, limits);
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function error(input: string | Uint8Array, limits?: Partial<ParseLimits>): CodecError {
  const result = parseJson(input, limits);
  if (result.ok) throw new Error(`expected a failure for ${String(input).slice(0, 80)}`);
  return result.error;
}

function expectError(input: string | Uint8Array, code: ErrorCode, path: string, limits?: Partial<ParseLimits>) {
  const e = error(input, limits);
  expect({ code: e.code, path: e.path }).toEqual({ code, path });
  return e;
}

describe("parseJson accepts RFC 8259 JSON", () => {
  it.each([
    ["null", null],
    ["true", true],
    ["false", false],
    ["0", 0],
    ["-1.5e3", -1500],
    ["1E+2", 100],
    ["2.5e-3", 0.0025],
    ['"x"', "x"],
    ["[]", []],
    ["{}", {}],
    ['{"a":[1,{"b":null}],"c":"d"}', { a: [1, { b: null }], c: "d" }],
    [" \t\r\n[ 1 , 2 ]\n ", [1, 2]],
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9"', '"\\/\b\f\n\r\tAé'],
    ['"😀 and \\ud83d\\ude00"', "😀 and 😀"],
    ['{"":1}', { "": 1 }],
  ])("%s", (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it("reads UTF-8 bytes like the equivalent string", () => {
    const text = '{"name":"Zoë","emoji":"😀","n":[1,2]}';
    expect(value(utf8(text))).toEqual(JSON.parse(text));
    expect(value(Buffer.from(text))).toEqual(JSON.parse(text));
  });

  it("reads a Uint8Array view into a larger buffer", () => {
    const whole = utf8("xx[1,2]yy");
    expect(value(whole.subarray(2, 7))).toEqual([1, 2]);
  });
});

describe("invalid-json", () => {
  it.each([
    ["trailing garbage", "[1] x", "", 4, "after the end"],
    ["two values", "1 2", "", 2, "after the end"],
    ["trailing comma in an array", "[1,2,]", "/2", 5, "trailing comma"],
    ["trailing comma in an object", '{"a":1,}', "", 7, "trailing comma"],
    ["a line comment", '{"a":1 // x\n}', "", 7, "comments"],
    ["a block comment", "/* x */ 1", "", 0, "comments"],
    ["single-quoted string", "['x']", "/0", 1, "single-quoted"],
    ["single-quoted name", "{'a':1}", "", 1, "single-quoted"],
    ["unquoted name", "{a:1}", "", 1, "unquoted member name"],
    ["unquoted value", '{"a":x}', "/a", 5, "unquoted"],
    ["NaN", "[NaN]", "/0", 1, "NaN"],
    ["Infinity", '{"a":Infinity}', "/a", 5, "Infinity"],
    ["-Infinity", "[-Infinity]", "/0", 2, "-Infinity"],
    ["leading zero", "01", "", 1, "leading zero"],
    ["negative leading zero", "[-01]", "/0", 3, "leading zero"],
    ["plus sign", "+1", "", 0, "'+'"],
    ["bare fraction", ".5", "", 0, "'.'"],
    ["bare decimal point", "1.", "", 2, "decimal point"],
    ["empty exponent", "[1e]", "/0", 3, "exponent"],
    ["signed empty exponent", "1e+", "", 3, "exponent"],
    ["lone minus", "-", "", 1, "after '-'"],
    ["raw newline in a string", '{"a":"x\ny"}', "/a", 7, "control character U+000A"],
    ["raw NUL in a string", '["\u0000"]', "/0", 2, "control character U+0000"],
    ["raw tab in a name", '{"a\tb":1}', "", 3, "control character U+0009"],
    ["\\x escape", '["\\x41"]', "/0", 2, "invalid escape"],
    ["short \\u escape", '"\\u12"', "", 1, "invalid escape"],
    ["\\u escape at the end", '"\\u', "", 1, "invalid escape"],
    ["unterminated string", '{"a":"xyz', "/a", 9, "unterminated string"],
    ["unterminated name", '{"ab', "", 4, "unterminated string"],
    ["unterminated array", "[1,2", "", 4, "never closed"],
    ["unterminated object", '{"a":1', "", 6, "never closed"],
    ["array open at the end", "[", "/0", 1, "never closed"],
    ["value missing after a name", '{"a":', "/a", 5, "never closed"],
    ["missing colon", '{"a" 1}', "/a", 5, "expected ':'"],
    ["missing comma", "[1 2]", "", 3, "expected ',' or ']'"],
    ["mismatched closer", "[1}", "", 2, "expected ',' or ']'"],
    ["bad literal", "[tru]", "/0", 1, "unquoted"],
    ["capitalised literal", "True", "", 0, "unquoted"],
    ["leading comma", "[,1]", "/0", 1, "','"],
    ["empty input", "", "", 0, "empty"],
    ["whitespace only", " \n\t\r ", "", 5, "only whitespace"],
    ["non-JSON whitespace", "\u00a01", "", 0, "U+00A0"],
    ["form feed outside strings", "\f1", "", 0, "U+000C"],
  ])("%s", (_name, text, path, offset, words) => {
    const e = expectError(text, "invalid-json", path);
    expect(e.offset).toBe(offset);
    expect(e.message).toContain(words);
  });

  it("names a byte order mark in a string or in bytes", () => {
    for (const input of ["\ufeff{}", Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d)]) {
      const e = expectError(input, "invalid-json", "");
      expect(e.message).toContain("byte order mark");
      expect(e.offset).toBe(0);
    }
  });

  it("gives paths with escaped pointer tokens", () => {
    expectError('{"a/b":{"c~d":[0,nope]}}', "invalid-json", "/a~1b/c~0d/1");
  });

  it("gives byte offsets for byte input", () => {
    // "é" is 2 bytes but 1 code unit, so the offsets differ.
    expect(error('["é",x]').offset).toBe(5);
    expect(error(utf8('["é",x]')).offset).toBe(6);
  });

  it("rejects input that is neither a string nor bytes without throwing", () => {
    for (const input of [null, undefined, 42, {}, [1]]) {
      expect(error(input as unknown as string).code).toBe("invalid-json");
    }
    expect(error("[1]", null as unknown as ParseLimits).code).toBe("invalid-json");
  });
});

describe("error values", () => {
  it("carry a message for people and feedback for the model", () => {
    const e = error('{"a":[1,2,]}');
    expect(e.message).toBe("trailing comma before ']'");
    expect(e.feedback).toContain("invalid-json at /a/2");
    expect(e.feedback).toContain("Remove the comma");
  });

  it("have feedback and a message for every code", () => {
    const failures = [
      error("[1,]"),
      error("[1]", { maxBytes: 2 }),
      error("[[1]]", { maxDepth: 1 }),
      error("[1,2]", { maxNodes: 2 }),
      error('{"a":1,"a":2}'),
      error("1e400"),
      error('"\\ud800"'),
      error(Uint8Array.of(0xff)),
    ];
    expect(new Set(failures.map((e) => e.code))).toEqual(
      new Set([
        "invalid-json",
        "input-too-large",
        "too-deep",
        "too-many-nodes",
        "duplicate-key",
        "unsafe-number",
        "invalid-utf8",
      ]),
    );
    for (const e of failures) {
      expect(e.message.length).toBeGreaterThan(10);
      expect(e.feedback).toContain(e.code);
    }
  });
});

describe("input-too-large", () => {
  it("measures UTF-8 bytes, not code units", () => {
    expect(value('"ééé"', { maxBytes: 8 })).toBe("ééé");
    expectError('"éééé"', "input-too-large", "", { maxBytes: 9 });
    expect(value(utf8('"éé"'), { maxBytes: 6 })).toBe("éé");
    expectError(utf8('"ééé"'), "input-too-large", "", { maxBytes: 7 });
  });

  it("accepts exactly maxBytes", () => {
    expect(value("[1,2]", { maxBytes: 5 })).toEqual([1, 2]);
    expectError("[1,2] ", "input-too-large", "", { maxBytes: 5 });
  });

  it("refuses 10 MB before reading it, whatever it contains", () => {
    const big = `[${"1,".repeat(5_000_000)}1]`;
    const e = expectError(big, "input-too-large", "");
    expect(e.message).toContain(String(DEFAULT_PARSE_LIMITS.maxBytes));
    expectError(`\ufeff${"{".repeat(10_000_000)}`, "input-too-large", "");
    expectError(new Uint8Array(10_000_000).fill(0xff), "input-too-large", "");
  });
});

describe("too-deep", () => {
  const nestedArrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
  const nestedObjects = (n: number) => `${'{"k":'.repeat(n)}null${"}".repeat(n)}`;

  it("allows exactly maxDepth and refuses one more, at the container that is too deep", () => {
    expect(parseJson(nestedArrays(64)).ok).toBe(true);
    const e = expectError(nestedArrays(65), "too-deep", "/0".repeat(64));
    expect(e.offset).toBe(64);
    expectError(nestedObjects(65), "too-deep", "/k".repeat(64));
  });

  it("counts a root container as depth 1 and scalars as no depth", () => {
    expect(value("1", { maxDepth: 0 })).toBe(1);
    expectError("[]", "too-deep", "", { maxDepth: 0 });
    expect(value('{"a":[]}', { maxDepth: 2 })).toEqual({ a: [] });
    expectError('{"a":[{}]}', "too-deep", "/a/0", { maxDepth: 2 });
  });

  it.each([100_000, 1_000_000])("refuses %i nested arrays and objects", (n) => {
    const limits = { maxBytes: 10 * n };
    expectError(nestedArrays(n), "too-deep", "/0".repeat(64), limits);
    expectError(nestedObjects(n), "too-deep", "/k".repeat(64), limits);
    expectError("[".repeat(n), "too-deep", "/0".repeat(64), limits);
  });

  it("scans deep documents without recursion when the limit allows them", () => {
    const n = 200_000;
    const limits = { maxBytes: 10 * n, maxDepth: n, maxNodes: n + 1 };
    let v = value(nestedObjects(n), limits);
    let depth = 0;
    while (typeof v === "object" && v !== null) {
      v = (v as { k: unknown }).k;
      depth++;
    }
    expect(depth).toBe(n);
    expectError(`${nestedArrays(n)}x`, "invalid-json", "", limits);
    // Normalising a -0 walks the built value, also without recursion.
    let inner = value(`${"[".repeat(n)}-0${"]".repeat(n)}`, limits);
    for (let d = 0; d < n; d++) inner = (inner as unknown[])[0];
    expect(Object.is(inner, 0)).toBe(true);
  });
});

describe("too-many-nodes", () => {
  it("counts every value", () => {
    // 1 object + 1 array + 2 numbers + string + boolean + null = 7
    const text = '{"a":[1,2],"b":"s","c":true,"d":null}';
    expect(value(text, { maxNodes: 7 })).toEqual(JSON.parse(text));
    const e = expectError(text, "too-many-nodes", "/d", { maxNodes: 6 });
    expect(e.offset).toBe(text.indexOf("null"));
    expectError("[[],[]]", "too-many-nodes", "/1", { maxNodes: 2 });
    expect(value("[]", { maxNodes: 1 })).toEqual([]);
  });

  it("stops at the first value over the limit", () => {
    const text = `[${"0,".repeat(30_000)}x`;
    expectError(text, "too-many-nodes", "/19999");
  });

  it("reports a syntax error rather than a phantom extra value", () => {
    expectError("[1,", "invalid-json", "/1", { maxNodes: 2 });
  });
});

describe("duplicate-key", () => {
  it.each([
    ['{"a":1,"a":2}', "/a", 7],
    ['{"outer":{"a":1,"b":2,"a":3}}', "/outer/a", 22],
    ['[{"x":1},{"a":1,"\\u0061":2}]', "/1/a", 16],
    ['{"\\u00e9":1,"é":2}', "/é", 12],
    ['{"a/b":1,"a\\/b":2}', "/a~1b", 9],
    ['{"__proto__":1,"__proto__":2}', "/__proto__", 15],
  ])("%s", (text, path, offset) => {
    const e = expectError(text, "duplicate-key", path);
    expect(e.offset).toBe(offset);
  });

  it("checks big objects too", () => {
    const members = Array.from({ length: 200 }, (_, k) => `"m${k}":${k}`);
    const big = `{${members.join(",")}}`;
    expect(Object.keys(value(big) as object)).toHaveLength(200);
    expectError(`{${members.join(",")},"m0":0}`, "duplicate-key", "/m0");
    expectError(`{${members.join(",")},"m199":0}`, "duplicate-key", "/m199");
    // A nested object inside a big one has names of its own.
    expectError(`{${members.join(",")},"inner":{"m0":0,"x":1,"x":2}}`, "duplicate-key", "/inner/x");
    expectError(`{"inner":{${members.join(",")}},"inner":0}`, "duplicate-key", "/inner");
  });

  it("allows the same name in sibling and nested objects", () => {
    const text = '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":1,"b":{"b":1},"d":1}}';
    expect(value(text)).toEqual(JSON.parse(text));
  });
});

describe("unsafe-number", () => {
  it.each([
    ["9007199254740993", "", 0],
    ["-9007199254740993", "", 0],
    ["9007199254740992", "", 0],
    ["123456789012345678901234567890", "", 0],
    ["1e20", "", 0],
    ["-1E16", "", 0],
    ["1.5e300", "", 0],
    ["9007199254740993.0", "", 0],
    ['{"n":[1,1e400]}', "/n/1", 8],
    ['{"n":-1e400}', "/n", 5],
  ])("%s", (text, path, offset) => {
    const e = expectError(text, "unsafe-number", path);
    expect(e.offset).toBe(offset);
  });

  it("says when a number overflows", () => {
    expect(error("1e400").message).toContain("too large");
    expect(error("9007199254740993").message).toContain("safe integer");
  });

  it.each([
    ["9007199254740991", 9007199254740991],
    ["-9007199254740991", -9007199254740991],
    ["999999999999999", 999999999999999],
    ["1e15", 1e15],
    ["0.1234567890123456789", 0.12345678901234568],
    ["1e-400", 0],
    ["12345678901234567e-5", 123456789012.34567],
    ["1.7976931348623157e-300", 1.7976931348623157e-300],
  ])("accepts %s", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it("parses -0 as 0", () => {
    for (const text of ["-0", "-0.0", "-0e5", "-0E-1", "-1e-400"]) {
      expect(Object.is(value(text), 0)).toBe(true);
    }
    const v = value('[-0,{"a":-0.0,"__proto__":-0,"b":[1,-0]}]') as [number, Record<string, unknown>];
    expect(Object.is(v[0], 0)).toBe(true);
    expect(Object.is(v[1].a, 0)).toBe(true);
    expect(Object.is(Object.getOwnPropertyDescriptor(v[1], "__proto__")?.value, 0)).toBe(true);
    expect(Object.getPrototypeOf(v[1])).toBe(Object.prototype);
    expect(Object.is((v[1].b as number[])[1], 0)).toBe(true);
  });
});

describe("invalid-utf8", () => {
  it.each([
    ["a stray continuation byte", [0x5b, 0x80, 0x5d], 1],
    ["an invalid byte", [0x22, 0x61, 0xff, 0x22], 2],
    ["an overlong encoding", [0x22, 0xc0, 0xaf, 0x22], 1],
    ["an encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22], 1],
    ["a truncated sequence", [0x22, 0xe2, 0x82, 0x22], 1],
    ["a code point above U+10FFFF", [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
  ])("bytes with %s", (_name, bytes, offset) => {
    const e = expectError(Uint8Array.from(bytes), "invalid-utf8", "");
    expect(e.offset).toBe(offset);
  });

  it.each([
    ["a raw lone high surrogate", '["\ud800"]', "/0", 2],
    ["a raw lone low surrogate", '{"a":"x\udc00"}', "/a", 7],
    ["reversed raw surrogates", '"\udc00\ud800"', "", 1],
    ["a lone high surrogate escape", '["\\ud800"]', "/0", 2],
    ["a lone low surrogate escape", '["\\uDC00"]', "/0", 2],
    ["a high surrogate escape then another escape", '"\\ud800\\u0041"', "", 1],
    ["a raw high surrogate then an escaped low one", '"\ud83d\\ude00"', "", 1],
    ["an escaped high surrogate then a raw low one", '"\\ud83d\ude00"', "", 1],
    ["a lone surrogate in a member name", '{"\\ud800":1}', "", 2],
    ["a lone surrogate outside strings", "[1,\ud800]", "/1", 3],
    ["a lone surrogate after the value", "1\udfff", "", 1],
  ])("a string with %s", (_name, text, path, offset) => {
    const e = expectError(text, "invalid-utf8", path);
    expect(e.offset).toBe(offset);
  });

  it("accepts surrogate pairs, raw and escaped", () => {
    expect(value('["\ud83d\ude00","\\ud83d\\ude00","\\uD83D\\uDE00"]')).toEqual(["😀", "😀", "😀"]);
    expect(value('{"\\ud83d\\ude00":"\udbff\udfff"}')).toEqual({ "😀": "\u{10ffff}" });
  });
});

describe("long strings (scanned by native searches)", () => {
  const long = "lorem ipsum dolor sit amet ".repeat(3);

  it("accepts them with escapes, quotes and surrogate pairs anywhere", () => {
    for (const body of [long, `${long}\\"${long}\\n😀`, `😀${long}\\u00e9\\ud83d\\ude00${long}é`, `${long}\\\\`]) {
      const text = `{"${long}${body}":"${body}","k":["${body}"]}`;
      expect(value(text)).toEqual(JSON.parse(text));
      expect(value(utf8(text))).toEqual(JSON.parse(text));
    }
  });

  it.each([
    ["a raw newline", `{"a":"${long}\n"}`, "invalid-json", "/a", 87],
    ["a raw tab after an escape", `["${long}\\"\t"]`, "invalid-json", "/0", 85],
    ["an unterminated string", `["${long}`, "invalid-json", "/0", 83],
    ["an unterminated string ending in a backslash", `["${long}\\`, "invalid-json", "/0", 83],
    ["a lone high surrogate", `["${long}\ud800x"]`, "invalid-utf8", "/0", 83],
    ["a lone low surrogate after a pair", `["${long}😀\udc00"]`, "invalid-utf8", "/0", 85],
    ["a lone surrogate escape", `["${long}\\udc00"]`, "invalid-utf8", "/0", 83],
    ["a bad escape", `["${long}\\q"]`, "invalid-json", "/0", 83],
  ])("rejects %s at its place", (_name, text, code, path, offset) => {
    const e = expectError(text, code as ErrorCode, path);
    expect(e.offset).toBe(offset);
  });

  it("reports a raw control character before a later rule breach", () => {
    // The fast path leaves these to JSON.parse; what is reported must still be the first problem.
    expectError(`{"a":"${long}\n","b":1,"b":2}`, "invalid-json", "/a");
    expectError(`["${long}\u0001",1e400]`, "invalid-json", "/0");
    expectError(`["${long}\u001f",[[[[1]]]]]`, "invalid-json", "/0", { maxDepth: 3 });
    expectError(`["${long}\u0000",1,2,3]`, "invalid-json", "/0", { maxNodes: 3 });
    expectError(`{"b":1,"b":"${long}\n"}`, "duplicate-key", "/b");
    // An escaped name hiding a raw control character, then a duplicate of it.
    const e = expectError(`{"\\"${long}\r":1,"\\"${long}\r":2}`, "invalid-json", "");
    expect(e.offset).toBe(85);
  });

  it("finds duplicates among long and escaped member names", () => {
    const name = `${long}x`;
    expectError(`{"${name}":1,"${name}":2}`, "duplicate-key", `/${name}`);
    expectError(`{"${name}":1,"${name.replace("x", "\\u0078")}":2}`, "duplicate-key", `/${name}`);
    expect(value(`{"${name}":1,"${name}y":2}`)).toEqual({ [name]: 1, [`${name}y`]: 2 });
  });
});

describe("prototype safety", () => {
  it("keeps __proto__, constructor and prototype as own data", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const text = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1}';
    const v = value(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
    expect(Object.hasOwn(v, "constructor")).toBe(true);
    expect(Object.hasOwn(v, "prototype")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(Object.getOwnPropertyDescriptor(v, "__proto__")?.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  });

  it("does so for nested and byte input as well", () => {
    const v = value(utf8('[{"a":{"__proto__":[]}}]')) as [{ a: object }];
    expect(Object.getPrototypeOf(v[0].a)).toBe(Object.prototype);
    expect(Object.hasOwn(v[0].a, "__proto__")).toBe(true);
    expect(Array.isArray(v[0].a)).toBe(false);
  });
});

describe("limits", () => {
  it("default to 1 MB, 20,000 values and 64 levels, and are frozen", () => {
    expect(DEFAULT_PARSE_LIMITS).toEqual({ maxBytes: 1_000_000, maxNodes: 20_000, maxDepth: 64 });
    expect(Object.isFrozen(DEFAULT_PARSE_LIMITS)).toBe(true);
  });

  it("can be set one at a time, keeping the other defaults", () => {
    const deep = `${"[".repeat(100)}${"]".repeat(100)}`;
    expect(parseJson(deep, { maxDepth: 100 }).ok).toBe(true);
    expectError(deep, "too-deep", "/0".repeat(65), { maxDepth: 65 });
    const many = `[${"0,".repeat(30_000)}0]`;
    expect(parseJson(many, { maxNodes: 30_002 }).ok).toBe(true);
    expectError(many, "too-many-nodes", "/30000", { maxNodes: 30_001 });
    expectError(many, "too-many-nodes", "/19999", { maxBytes: 100_000_000 });
  });
});
