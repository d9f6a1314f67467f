/**
 * What compile calls a validator that ajv cannot compile: "too large" only when the engine ran out
 * of room (stack, string or array length); any other exception is the schema's fault or a bug.
 * ajv's compile is made to throw each error here, as the engines throw them: a schema that really
 * overflows ajv's code generation is refused by compile's depth limits first.
 */
import { Ajv } from "ajv";
import { afterEach, describe, expect, test, vi } from "vitest";
import { compile } from "../../src/index.js";

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
