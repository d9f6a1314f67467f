/**
 * What compile calls a validator that ajv cannot compile: "too large" only when the engine ran out
 * of room (stack, string or array length); any other exception is the schema's fault or a bug.
 * ajv's compile is made to throw each error here, as the engines throw them: a schema that really
 * overflows ajv's code generation is refused by compile's depth limits first.
 */
import { Ajv } from "ajv";
import { afterEach, describe, expect, test, vi } from "vitest";
import { compile, compileCodec } from "../../src/index.js";

/** The schema whose compile throws: marked, so that the meta-schemas and other schemas compile as ever. */
const MARK = "strictwire-test: ajv's compile throws here";
const SCHEMA = {
  $comment: MARK,
  type: "object",
  properties: { a: { type: "string" } },
  required: ["a"],
  additionalProperties: false,
};

/** An error as SpiderMonkey names it: InternalError is no RangeError. */
function internalError(message: string): Error {
  const e = new Error(message);
  e.name = "InternalError";
  return e;
}

/** The code compile returns when ajv's compile of the marked schema throws `error` (null: throws nothing). */
function codeWhenCompileThrows(error: Error | null): string {
  // compile lives on the class every ajv flavour (07, 2019, 2020) extends.
  const core = Object.getPrototypeOf(Ajv.prototype) as Pick<Ajv, "compile">;
  const original = core.compile;
  vi.spyOn(core, "compile").mockImplementation(function (this: Ajv, schema: unknown, meta?: boolean) {
    if (error !== null && (schema as { $comment?: unknown } | null)?.$comment === MARK) throw error;
    return original.call(this, schema as object, meta);
  });
  const r = compile(SCHEMA);
  return r.ok ? "compiled" : r.error.code;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a validator ajv cannot compile", () => {
  test("the marked schema compiles when nothing throws: the spy alone changes nothing", () => {
    expect(codeWhenCompileThrows(null)).toBe("compiled");
  });

  const tooLarge: [string, Error][] = [
    ["V8's stack overflow", new RangeError("Maximum call stack size exceeded")],
    ["SpiderMonkey's stack overflow", internalError("too much recursion")],
    ["V8's longest string", new RangeError("Invalid string length")],
    ["V8's longest array", new RangeError("Invalid array length")],
    ["JavaScriptCore's longest string", new RangeError("Out of memory")],
    ["SpiderMonkey's longest string", internalError("allocation size overflow")],
  ];
  for (const [what, error] of tooLarge) {
    test(`${what}: schema-too-large`, () => {
      expect(codeWhenCompileThrows(error)).toBe("schema-too-large");
    });
  }

  const notTooLarge: [string, Error][] = [
    ["a RangeError that measures nothing (an invalid date)", new RangeError("Invalid time value")],
    ["a RangeError of a count", new RangeError("Invalid count value: -1")],
    ["ajv refusing the schema", new Error('strict mode: unknown keyword: "x"')],
  ];
  for (const [what, error] of notTooLarge) {
    test(`${what}: invalid-schema, not schema-too-large`, () => {
      expect(codeWhenCompileThrows(error)).toBe("invalid-schema");
    });
  }
});

/**
 * ajv's first-error code nests each check inside the one before: an object of some thousand members
 * overflows the stack when ajv writes that code or when V8 compiles it at its first call. The
 * validators then run all-errors code, which runs the same checks one after another.
 */
describe("a wide object (first-error code nested deeper than the stack)", () => {
  const LIMITS = { maxBytes: 8_000_000, maxNodes: 1_000_000 };
  const wide = (prefix: string, n: number) => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) properties[`${prefix}_${i}`] = { type: "integer" };
    return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
  };
  const membersOf = (prefix: string, n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}_${i}`, i]));

  test("5,000 members: compiles, encodes, decodes, and refuses a wrong member at its path", () => {
    const compiled = compileCodec(wide("m", 5000), { target: "anthropic", limits: LIMITS });
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const codec = compiled.value;
    const value = membersOf("m", 5000);
    const encoded = codec.encode(value);
    expect(encoded.ok && encoded.value).toEqual(value);
    const text = JSON.stringify(value);
    const decoded = codec.decode(text, { limits: LIMITS });
    expect(decoded.ok && decoded.value).toEqual(value);
    const wrong = codec.validate({ ...value, m_4999: "x" });
    expect(wrong.ok ? "accepted" : [wrong.error.code, wrong.error.path]).toEqual(["contract-violation", "/m_4999"]);
    const wrongWire = codec.decode(text.replace('"m_4999":4999', '"m_4999":"x"'), { limits: LIMITS });
    expect(wrongWire.ok ? "accepted" : [wrongWire.error.code, wrongWire.error.path]).toEqual([
      "wire-violation",
      "/m_4999",
    ]);
  });

  test("a union of two 1,600-member objects: encode picks the branch the value satisfies", () => {
    const schema = {
      type: "object",
      properties: { u: { anyOf: [wide("a", 1600), wide("b", 1600)] } },
      required: ["u"],
      additionalProperties: false,
    };
    const compiled = compileCodec(schema, { target: "anthropic", limits: LIMITS });
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const codec = compiled.value;
    const value = { u: membersOf("b", 1600) };
    const encoded = codec.encode(value);
    expect(encoded.ok).toBe(true);
    if (!encoded.ok) return;
    const decoded = codec.decode(JSON.stringify(encoded.value), { limits: LIMITS });
    expect(decoded.ok && decoded.value).toEqual(value);
  });

  test("first-error code that overflows when called: the all-errors code decides, and the overflow is paid once", () => {
    const core = Object.getPrototypeOf(Ajv.prototype) as Pick<Ajv, "compile">;
    const original = core.compile;
    const calls = { written: 0, called: 0 };
    // The marked schema's first-error validator overflows when called; every all-errors one is ajv's own.
    vi.spyOn(core, "compile").mockImplementation(function (this: Ajv, schema: unknown, meta?: boolean) {
      const validate = original.call(this, schema as object, meta);
      if (this.opts.allErrors || (schema as { $comment?: unknown } | null)?.$comment !== MARK) return validate;
      calls.written++;
      return Object.assign(() => {
        calls.called++;
        throw new RangeError("Maximum call stack size exceeded");
      }, validate);
    });
    const compiled = compileCodec(SCHEMA);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const codec = compiled.value;
    expect(codec.validate({ a: "x" }).ok).toBe(true);
    const wrong = codec.validate({ a: 1 });
    expect(wrong.ok ? "accepted" : [wrong.error.code, wrong.error.path]).toEqual(["contract-violation", "/a"]);
    expect(codec.validate({ a: "y" }).ok).toBe(true);
    // Called once, then replaced: an overflow is not paid on every call.
    expect(calls).toEqual({ written: 1, called: 1 });
  });

  test("first-error code that overflows as ajv writes it: compiled as all-errors code instead", () => {
    const core = Object.getPrototypeOf(Ajv.prototype) as Pick<Ajv, "compile">;
    const original = core.compile;
    vi.spyOn(core, "compile").mockImplementation(function (this: Ajv, schema: unknown, meta?: boolean) {
      if (!this.opts.allErrors && (schema as { $comment?: unknown } | null)?.$comment === MARK)
        throw new RangeError("Maximum call stack size exceeded");
      return original.call(this, schema as object, meta);
    });
    const compiled = compileCodec(SCHEMA);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.value.validate({ a: "x" }).ok).toBe(true);
    const wrong = compiled.value.validate({ a: 1 });
    expect(wrong.ok ? "accepted" : [wrong.error.code, wrong.error.path]).toEqual(["contract-violation", "/a"]);
  });
});
