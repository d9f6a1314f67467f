/** A value's breach of the limits is a typed value (value-limits.ts); feedback/value.ts words it. */
import { expect, test } from "vitest";
import { valueError } from "../../src/feedback/value.js";
import { measureValue } from "../../src/value-limits.js";

const LIMITS = { maxBytes: 10, maxNodes: 5, maxDepth: 2 };

test.each([
  ["too many values", [1, 2, 3, 4, 5], undefined, { code: "too-many-nodes", limit: 5 }, "more than 5 JSON values"],
  ["too deep", [[[1]]], undefined, { code: "too-deep", limit: 2 }, "nested deeper than 2 levels"],
  ["too large", {}, "x".repeat(11), { code: "input-too-large", limit: 10 }, "more than 10 bytes of JSON"],
  [
    "not finite",
    [Number.NaN],
    undefined,
    { code: "invalid-json", found: "non-finite-number" },
    "a number that JSON cannot carry (NaN or Infinity)",
  ],
  [
    "unsafe",
    2 ** 60,
    undefined,
    { code: "unsafe-number", value: 2 ** 60 },
    `the number ${2 ** 60} is beyond ±9007199254740991 and would be rounded`,
  ],
  [
    "not JSON",
    [() => 1],
    undefined,
    { code: "invalid-json", found: "not-json-type", type: "function" },
    "a function is not a JSON value",
  ],
  [
    "not plain",
    [new Date(0)],
    undefined,
    { code: "invalid-json", found: "not-plain-object" },
    "not a plain JSON object",
  ],
])("%s: a typed breach, worded by feedback", (_name, value, text, breach, words) => {
  const measured = measureValue(value, LIMITS, text);
  expect(measured).toEqual({ ok: false, error: breach });
  if (measured.ok) return;
  const error = valueError(measured.error);
  expect({ code: error.code, path: error.path, message: error.message }).toEqual({
    code: breach.code,
    path: "",
    message: words,
  });
  expect(error.feedback).toContain(words);
});

test("a value within the limits measures its nodes and depth", () => {
  expect(measureValue({ a: [1, 2] }, LIMITS)).toEqual({ ok: true, value: { nodes: 4, depth: 2 } });
});
