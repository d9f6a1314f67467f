/**
 * The wire check without generated code (validate/wire-check.ts) held to
 * ajv's all-errors wire validator, compiled with the options a module's is
 * (validate/ajv.ts): the same verdict and the same errors, error for error
 * (instancePath, schemaPath, keyword, params, message, order), for every
 * fixture schema on every target, over the encoded fixture values, the
 * fixtures themselves, the mistakes and hostile corpora, arbitrary JSON and
 * valid wire values with one thing broken.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compile, loadBundle, TARGET_NAMES } from "../../src/index.js";
import { jsonEqual } from "../../src/json.js";
import { codecFromModule } from "../../src/runtime.js";
import { createAjv } from "../../src/validate/ajv.js";
import { fullFormats } from "../../src/validate/formats.js";
import { re2 } from "../../src/validate/regexp.js";
import type { FastValidator } from "../../src/validate/validators.js";
import { WIRE_UNREADABLE, wireInterpretable, wireValidator } from "../../src/validate/wire-check.js";
import { anyJson, runs } from "../../testkit/arbitraries.js";
import { FIXTURES, hostileCases, rawInput, schemaFixtures } from "../../testkit/fixtures.js";

const PIECES = { formats: fullFormats, re2, equal: jsonEqual };

/** Both validators' answers to one value, side by side. */
function agree(interpreted: FastValidator, ajv: FastValidator, value: unknown): void {
  const verdict = ajv(value);
  expect({ verdict: interpreted(value), errors: interpreted.errors }).toEqual({ verdict, errors: ajv.errors });
}

/** The values a text stands for: parsed, and its `arguments` member when it has one (texts may carry the envelope or not). */
function parsedTexts(texts: readonly (string | Uint8Array)[]): unknown[] {
  const out: unknown[] = [];
  for (const text of texts) {
    try {
      const value = JSON.parse(typeof text === "string" ? text : new TextDecoder().decode(text)) as unknown;
      out.push(value);
      if (typeof value === "object" && value !== null && "arguments" in value) out.push(value.arguments);
    } catch {
      // Not JSON: the parser refuses it before any validator runs.
    }
  }
  return out;
}

function mistakes(name: string): string[] {
  try {
    const cases = JSON.parse(readFileSync(join(FIXTURES, "mistakes", `${name}.json`), "utf8")) as { text: string }[];
    return cases.map((c) => c.text);
  } catch {
    return [];
  }
}

/** Every location of a value, as the path of keys to it. */
function locations(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push(...locations(v, [...at, i]));
  else if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...locations(v, [...at, k]));
  return out;
}

type Mutation = "drop" | "extra" | "wrong-type" | "null" | "out-of-range" | "other-string" | "replace";
const MUTATIONS: readonly Mutation[] = [
  "drop",
  "extra",
  "wrong-type",
  "null",
  "out-of-range",
  "other-string",
  "replace",
];

/** A copy of `value` with one thing broken at one location. */
function mutate(value: unknown, pick: number, mutation: Mutation, other: unknown, n: number): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const all = locations(copy);
  const path = all[pick % all.length]!;
  const set = (replacement: unknown): unknown => {
    if (path.length === 0) return replacement;
    let parent = copy as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path.at(-1)!] = replacement;
    return copy;
  };
  let here = copy as Record<string | number, unknown>;
  for (const key of path) here = here[key] as Record<string | number, unknown>;
  switch (mutation) {
    case "drop": {
      if (typeof here === "object" && here !== null && !Array.isArray(here)) {
        const keys = Object.keys(here);
        if (keys.length > 0) delete here[keys[n % keys.length]!];
      } else if (Array.isArray(here)) here.pop();
      return copy;
    }
    case "extra":
      if (typeof here === "object" && here !== null && !Array.isArray(here)) here[`extra${n % 3}`] = other;
      else if (Array.isArray(here)) here.push(other);
      return copy;
    case "wrong-type":
      return set(
        typeof here === "string" ? n : typeof here === "number" ? String(n) : Array.isArray(here) ? {} : [here],
      );
    case "null":
      return set(null);
    case "out-of-range":
      return set(typeof here === "number" ? [-1e12, 1e12, here + 0.5, -here - 1, 0][n % 5] : n * 1.5);
    case "other-string":
      return set(typeof here === "string" ? `${here}x` : "x");
    case "replace":
      return set(other);
  }
}

const cases = schemaFixtures().flatMap((f) =>
  TARGET_NAMES.flatMap((target) => {
    const bundle = compile(f.schema, { ...f.options, target });
    return bundle.ok ? [{ name: f.name, target, f, bundle: bundle.value }] : [];
  }),
);

describe("the interpreted wire check answers as ajv's", () => {
  test("every fixture compiles on the default target", () => {
    expect(cases.filter((c) => c.target === "openai").length).toBe(schemaFixtures().length);
  });

  test.each(cases)("$name ($target)", ({ f, bundle }) => {
    // Every wire the builders emit for the corpus is in the interpreter's subset.
    expect(wireInterpretable(bundle.wire)).toBeDefined();
    const interpreted = wireValidator(bundle.wire, PIECES);
    const ajv = createAjv("2020", true).compile(bundle.wire) as FastValidator;
    const codec = loadBundle(bundle);
    if (!codec.ok) throw new Error(codec.error.message);
    const wires: unknown[] = [];
    for (const value of [...f.valid, ...f.invalid.map((i) => i.value)]) {
      const encoded = codec.value.encode(value);
      if (encoded.ok) wires.push(encoded.value);
      agree(interpreted, ajv, value);
    }
    expect(wires.length).toBeGreaterThan(0);
    for (const wire of wires) {
      expect(interpreted(wire)).toBe(true);
      agree(interpreted, ajv, wire);
    }
    for (const value of parsedTexts([...mistakes(f.name), ...hostileCases(f.name).map(rawInput)]))
      agree(interpreted, ajv, value);
    fc.assert(
      fc.property(anyJson, (value) => agree(interpreted, ajv, value)),
      { numRuns: runs(50) },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...wires),
        fc.nat(),
        fc.constantFrom(...MUTATIONS),
        anyJson,
        fc.nat(),
        (wire, pick, mutation, other, n) => agree(interpreted, ajv, mutate(wire, pick, mutation, other, n)),
      ),
      { numRuns: runs(300) },
    );
  });
});

describe("the hostile corpus, part two (its own schemas and options)", () => {
  const dir = join(FIXTURES, "hostile-generated");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  const fixtures = new Map(schemaFixtures().map((f) => [f.name, f]));
  test.each(files)("%s", (file) => {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      fixture?: string;
      schema?: unknown;
      options?: object;
      cases: { text?: string; base64?: string }[];
    };
    const base = doc.fixture === undefined ? undefined : fixtures.get(doc.fixture);
    const schema = doc.schema ?? base?.schema;
    const values = parsedTexts(doc.cases.map((c) => rawInput({ name: "", expect: "", ...c })));
    let compared = 0;
    for (const target of TARGET_NAMES) {
      const bundle = compile(schema, { ...base?.options, ...doc.options, target });
      if (!bundle.ok) continue;
      expect(wireInterpretable(bundle.value.wire)).toBeDefined();
      const interpreted = wireValidator(bundle.value.wire, PIECES);
      const ajv = createAjv("2020", true).compile(bundle.value.wire) as FastValidator;
      for (const value of values) agree(interpreted, ajv, value);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe("the rules one at a time", () => {
  // Each a wire-shaped schema exercising one of ajv's orderings or tests the corpus may not reach.
  const SCHEMAS: readonly [string, unknown][] = [
    ["a type error after the untyped rules", { type: "object", enum: [{ a: 1 }], required: ["a"] }],
    ["a type error first (no rule of its group)", { type: "integer", enum: [1, 2.5], minimum: 2 }],
    ["a list of types", { type: ["string", "null"], enum: ["a", null], pattern: "^a" }],
    [
      "number limits",
      { type: "number", minimum: 1, maximum: 9, exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
    ],
    ["string lengths", { type: "string", minLength: 2, maxLength: 3, format: "date" }],
    ["a number format", { type: "integer", format: "int32" }],
    ["a string format on a number", { type: "number", format: "date" }],
    ["an unknown format", { type: "string", format: "no-such-format" }],
    [
      "tuples",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "integer" }],
        items: { type: "boolean" },
        minItems: 1,
        maxItems: 4,
      },
    ],
    [
      "awkward member names",
      {
        type: "object",
        properties: {
          "a/b": { type: "string" },
          "~": { type: "integer" },
          __proto__: { type: "string" },
          "x y": { const: 1 },
        },
        required: ["a/b", "", "__proto__"],
        additionalProperties: false,
      },
    ],
    [
      "more than 8 members",
      {
        type: "object",
        properties: Object.fromEntries("abcdefghij".split("").map((k) => [k, { type: "integer" }])),
        additionalProperties: false,
      },
    ],
    [
      // ajv tests a member declared by a list up to 8 members ("__proto__" left out), by an own-member test past that.
      "more than 8 members and __proto__",
      JSON.parse(
        `{"type":"object","additionalProperties":false,"required":["a"],"properties":{"__proto__":{"type":"integer"},${"abcdefghi"
          .split("")
          .map((k) => `"${k}":{"type":"integer"}`)
          .join(",")}}}`,
      ),
    ],
    [
      "references inlined and apart",
      {
        $defs: {
          leaf: { type: "string", maxLength: 2 },
          tree: {
            type: "object",
            properties: { v: { $ref: "#/$defs/leaf" }, kids: { type: "array", items: { $ref: "#/$defs/tree" } } },
            required: ["v"],
          },
        },
        type: "object",
        properties: { root: { $ref: "#/$defs/tree" }, leaf: { $ref: "#/$defs/leaf" } },
      },
    ],
    ["anyOf", { anyOf: [{ type: "string", minLength: 3 }, { type: "object", required: ["t"] }, { const: 7 }] }],
    ["const before enum, before anyOf", { enum: ["b", 3], const: "a", anyOf: [{ type: "integer" }] }],
    ["objects and arrays in const and enum", { anyOf: [{ const: { a: 1 } }, { enum: ["a", [1, "a"], { t: 1 }, 0] }] }],
    ["anyOf with a branch that cannot fail", { anyOf: [{ type: "string" }, { description: "anything" }] }],
  ];
  test.each(SCHEMAS)("%s", (_name, schema) => {
    expect(wireInterpretable(schema)).toBeDefined();
    const interpreted = wireValidator(schema, PIECES);
    const ajv = createAjv("2020", true).compile(schema as object) as FastValidator;
    const values: unknown[] = [
      ...[null, true, 0, -1, 1.5, 3, 7, 1e21, 2 ** 31, "", "a", "ab", "abc", "2020-01-01", "no", "é😀x"],
      ...[[], ["a"], ["a", 1, true, false, 1], [1, "a"], { a: 1 }, { t: 1 }, {}],
      JSON.parse('{"__proto__": 1, "a/b": 2, "~": "x", "x y": 2, "k": 0}'),
      { root: { v: "abc", kids: [{ v: 1 }, { kids: [] }] }, leaf: "xyz" },
      Object.fromEntries("abcdefghijk".split("").map((k) => [k, "1"])),
    ];
    for (const value of values) agree(interpreted, ajv, value);
    fc.assert(
      fc.property(anyJson, (value) => agree(interpreted, ajv, value)),
      { numRuns: runs(200) },
    );
  });

  test("a schema outside the subset is left to ajv", () => {
    for (const schema of [
      { type: "array", uniqueItems: true },
      { oneOf: [{ type: "string" }] },
      { type: "object", additionalProperties: { type: "string" } },
      { type: "object", properties: { a: true } },
      { $ref: "#/$defs/missing" },
      { type: "strings" },
    ])
      expect(wireInterpretable(schema)).toBeUndefined();
    expect(wireInterpretable({ type: "string", format: "date", pattern: "^2" })).toEqual({
      formats: true,
      re2: true,
      equal: false,
    });
    // JSON equality only for an object or array in const or enum: a scalar is compared with ===.
    expect(wireInterpretable({ enum: ["a", 1, null], const: "a" })?.equal).toBe(false);
    expect(wireInterpretable({ anyOf: [{ const: { a: 1 } }] })?.equal).toBe(true);
    expect(wireInterpretable({ enum: ["a", [1]] })?.equal).toBe(true);
  });

  test("a $ref loop with no container between (a hand-edited module) is refused, not run until the stack overflows", () => {
    const loops = [
      { $ref: "#" },
      { type: "object", properties: { a: { $ref: "#/properties/a" } } },
      {
        $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
        type: "object",
        properties: { x: { $ref: "#/$defs/a" } },
      },
      { anyOf: [{ type: "string" }, { $ref: "#" }] },
      { $defs: { a: { anyOf: [{ type: "null" }, { $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" },
    ];
    for (const wire of loops) {
      expect(wireInterpretable(wire), JSON.stringify(wire)).toBeUndefined();
      const check = wireValidator(wire);
      expect(check({ x: 1 })).toBe(false);
      expect(check.errors).toMatchObject([{ keyword: "wire", message: WIRE_UNREADABLE }]);
    }
    // No loop, but chains that double at each of thirty definitions: 2^30 checks of a value that fails them all.
    const doubling = (k: number) => {
      const $defs: Record<string, unknown> = { d0: { type: "string" } };
      for (let i = 1; i <= k; i++)
        $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
      return { $defs, type: "object", properties: { x: { $ref: `#/$defs/d${k}` } } };
    };
    expect(wireInterpretable(doubling(30))).toBeUndefined();
    expect(wireValidator(doubling(30))({ x: 1 })).toBe(false);
    // Ten levels (2^10 chains) are within what a union may hold.
    expect(wireValidator(doubling(10))({ x: "a" })).toBe(true);
    // Through structure a reference may come back: each step reads one level deeper.
    const tree = { type: "object", properties: { child: { $ref: "#" } }, additionalProperties: false };
    expect(wireInterpretable(tree)).toEqual({ formats: false, re2: false, equal: false });
    expect(wireValidator(tree)({ child: { child: {} } })).toBe(true);
  });

  test("a module whose wire schema was edited into a $ref loop does not load: invalid-bundle at /wire", () => {
    const compiled = compile({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const bundle = { ...compiled.value, wire: { ...compiled.value.wire, $ref: "#" } };
    const always = () => true;
    const validators = {
      digest: bundle.digest,
      source: always,
      wire: wireValidator(bundle.wire),
      diagnoseSource: always,
      diagnoseWire: always,
      branches: new Map(),
    };
    expect(codecFromModule(bundle, validators)).toMatchObject({
      ok: false,
      error: { code: "invalid-bundle", path: "/wire", message: WIRE_UNREADABLE },
    });
  });
});
