/**
 * The run-time path's portable parts give what Node's built-ins gave: the
 * digest is node:crypto's SHA-256 byte for byte (bundles written before still
 * load), and the UTF-8 length the limits count is Buffer.byteLength's, lone
 * surrogates included; where String.prototype.isWellFormed is missing (browsers
 * before 2023), lone surrogates are still found, and decode still refuses them;
 * and a stack overflow is a refusal in every engine's words for it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { digestOf, type UnsignedBundle } from "../../src/bundle/bundle.js";
import { CodecCore } from "../../src/codec.js";
import { compile, loadBundle } from "../../src/index.js";
import { canonicalJson } from "../../src/json.js";
import { IncrementalParser } from "../../src/parse/incremental.js";
import { utf8Length } from "../../src/parse/utf8.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "fixtures", "bundles");

/** Strings of UTF-16 code units drawn so that lone and paired surrogates are common. */
const codeUnits = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x7ff }),
      fc.integer({ min: 0x800, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdbff }),
      fc.integer({ min: 0xdc00, max: 0xdfff }),
    ),
    { maxLength: 64 },
  )
  .map((units) => String.fromCharCode(...units));

describe("utf8Length", () => {
  it("is Buffer.byteLength over random strings, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(codeUnits, fc.string({ unit: "binary" })), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, "utf8"));
      }),
      { numRuns: 1000 },
    );
  });

  it("counts the edge cases as Buffer does", () => {
    for (const s of [
      "",
      "a",
      "é",
      "€",
      "😀",
      "\ud800",
      "\udc00",
      "a\ud800",
      "\ud800a",
      "\ud800\ud800\udc00",
      "\udc00\ud800",
    ]) {
      expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, "utf8"));
    }
  });

  it("the streaming parser refuses at the byte it refused at with Buffer: 2, 3 and 4-byte characters", () => {
    const text = '"é€😀"';
    expect(Buffer.byteLength(text, "utf8")).toBe(11);
    const over = new IncrementalParser({ maxBytes: 10, maxNodes: 10, maxDepth: 4 }).push(text);
    expect(over.ok ? "accepted" : over.error.code).toBe("input-too-large");
    expect(new IncrementalParser({ maxBytes: 11, maxNodes: 10, maxDepth: 4 }).push(text).ok).toBe(true);
  });
});

describe("the bundle digest", () => {
  it("is node:crypto's SHA-256 over the canonical JSON, for random members", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string({ unit: "binary" }), (extra, name) => {
        const bundle = { ...extra, name, format: "strictwire/bundle@5" } as unknown as UnsignedBundle;
        const expected = `sha256-${createHash("sha256").update(canonicalJson(bundle)).digest("hex")}`;
        expect(digestOf(bundle)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("every fixture bundle, each written by an earlier version, still loads and decodes its calls", () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
    // Formats 2 to 4, and one written by format 5's code before the digest left node:crypto.
    expect(files).toContain("create-event-recurrence.format-5.json");
    for (const file of files) {
      const fixture = JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as {
        bundle: { digest: string };
        calls: { text: string; value: unknown }[];
      };
      const loaded = loadBundle(JSON.stringify(fixture.bundle));
      if (!loaded.ok) throw new Error(`${file}: ${loaded.error.code} ${loaded.error.message}`);
      expect(fixture.calls.length, file).toBeGreaterThan(0);
      for (const call of fixture.calls)
        expect(loaded.value.decode(call.text), file).toStrictEqual({ ok: true, value: call.value });
    }
  });

  it("a bundle whose member changed no longer matches its digest: the comparison can fail", () => {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, "create-event-recurrence.format-5.json"), "utf8")) as {
      bundle: Record<string, unknown>;
    };
    const loaded = loadBundle(JSON.stringify({ ...fixture.bundle, description: "Create a calendar event!" }));
    expect(loaded.ok ? "loaded" : loaded.error.code).toBe("digest-mismatch");
  });
});

describe("a runtime without String.prototype.isWellFormed (Safari 16.3, Chrome 110, Firefox 118)", () => {
  const native = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed")!;
  afterEach(() => {
    Object.defineProperty(String.prototype, "isWellFormed", native);
    vi.resetModules();
  });
  /** The codec's modules evaluated afresh with the method gone, as such a runtime evaluates them. */
  async function withoutIsWellFormed() {
    delete (String.prototype as { isWellFormed?: unknown }).isWellFormed;
    vi.resetModules();
    const chars = await import("../../src/parse/chars.js");
    const { compileCodec } = await import("../../src/index.js");
    return { chars, compileCodec };
  }

  it("a lone surrogate is found as the native method finds it, over random strings", async () => {
    const nativeCheck = (s: string) => (native.value as (this: string) => boolean).call(s);
    const { chars } = await withoutIsWellFormed();
    fc.assert(
      fc.property(fc.oneof(codeUnits, fc.string({ unit: "binary" })), (s) => {
        expect(chars.isWellFormed(s)).toBe(nativeCheck(s));
      }),
      { numRuns: 1000 },
    );
    for (const s of ["", "a", "\ud83d\ude00", "\ud800", "\udc00", "a\ud800b", "\udc00\ud800", "\ud800\ud800\udc00"])
      expect(chars.isWellFormed(s), JSON.stringify(s)).toBe(nativeCheck(s));
  });

  it("decode still refuses a lone surrogate, raw or escaped, and takes a pair, on both paths, without throwing", async () => {
    const { compileCodec } = await withoutIsWellFormed();
    const compiled = compileCodec(
      {
        type: "object",
        properties: { note: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
        required: ["note", "tags"],
      },
      { name: "t" },
    );
    if (!compiled.ok) throw new Error(compiled.error.message);
    const codec = compiled.value;
    for (const options of [{}, { interpreted: true }]) {
      for (const text of [
        '{"note":"a\ud800","tags":[]}',
        '{"note":"a\\ud800","tags":[]}',
        '{"note":"x","tags":["\udc00"]}',
      ]) {
        const decoded = codec.decode(text, options);
        expect(decoded.ok ? "accepted" : decoded.error.code, JSON.stringify(text)).toBe("invalid-utf8");
      }
      expect(codec.decode('{"note":"\ud83d\ude00","tags":[]}', options)).toStrictEqual({
        ok: true,
        value: { note: "\ud83d\ude00", tags: [] },
      });
      expect(codec.decode('{"note":"\\ud83d\\ude00","tags":[]}', options)).toStrictEqual({
        ok: true,
        value: { note: "\ud83d\ude00", tags: [] },
      });
    }
  });
});

describe("a stack overflow in a check, as each engine throws it", () => {
  const compiled = compile({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { name: "t" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  /** A codec whose contract check overflows the stack with this exception. */
  const overflowing = (error: Error) =>
    new CodecCore(compiled.value, {
      checkSource: () => {
        throw error;
      },
      checkWire: () => undefined,
      satisfies: () => undefined,
    });
  // SpiderMonkey's InternalError, which is no RangeError: Firefox has it as a global, Node does not.
  const spiderMonkey = Object.assign(new Error("too much recursion"), { name: "InternalError" });
  const engines: [string, Error][] = [
    ["V8", new RangeError("Maximum call stack size exceeded")],
    ["JavaScriptCore", new RangeError("Maximum call stack size exceeded.")],
    ["SpiderMonkey", spiderMonkey],
  ];

  for (const [engine, error] of engines) {
    it(`${engine}: decode, encode and validate refuse with too-deep, never throw`, () => {
      const codec = overflowing(error);
      expect(codec.decode('{"a":"x"}')).toMatchObject({ ok: false, error: { code: "too-deep", path: "" } });
      expect(codec.encode({ a: "x" })).toMatchObject({ ok: false, error: { code: "too-deep" } });
      expect(codec.validate({ a: "x" })).toMatchObject({ ok: false, error: { code: "too-deep" } });
    });
  }

  it("another exception is a bug, and is thrown", () => {
    expect(() => overflowing(new TypeError("x is not a function")).decode('{"a":"x"}')).toThrow(TypeError);
  });
});
