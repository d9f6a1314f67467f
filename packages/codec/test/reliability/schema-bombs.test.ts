/**
 * Hostile schemas at compile time: each is refused with its code, or compiles,
 * quickly and without a throw. A stack overflow would be a throw: every
 * compile here runs inside expect(() => …).not.toThrow() through `attempt`.
 */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { growth } from "./support.js";

/** A refusal is decided well within this, even on a busy machine (typical: tens of ms). */
const CEILING_MS = 10_000;

type Outcome = { code: string; ms: number };

function attempt(schema: unknown, options: Parameters<typeof compile>[1] = {}): Outcome {
  const t = performance.now();
  let code: string;
  try {
    const r = compile(schema, options);
    code = r.ok ? "compiled" : r.error.code;
  } catch (error) {
    code = `threw ${String(error)}`;
  }
  return { code, ms: performance.now() - t };
}

const obj = (v: unknown) => ({ type: "object", properties: { v }, required: ["v"], additionalProperties: false });
const withDefs = (v: unknown, $defs: Record<string, unknown>) => ({ ...obj(v), $defs });

describe("exponential unions", () => {
  it("nested anyOf whose document doubles at each level (2^16 and 2^20 leaves): refused by size", () => {
    for (const k of [16, 20]) {
      let s: unknown = { type: "string" };
      for (let i = 0; i < k; i++) s = { anyOf: [s, { type: "array", items: s }] };
      const r = attempt(obj(s));
      expect(r.code, `2^${k}`).toBe("schema-too-large");
      expect(r.ms).toBeLessThan(CEILING_MS);
    }
  });

  it("a DAG of definitions with 2^30 paths: shared, so it compiles or hits the expansion budget, never expands", () => {
    const $defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let i = 1; i <= 30; i++) {
      $defs[`d${i}`] = {
        anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { type: "array", items: { $ref: `#/$defs/d${i - 1}` } }],
      };
    }
    const r = attempt(withDefs({ $ref: "#/$defs/d30" }, $defs));
    expect(["compiled", "expansion-limit", "target-limit"]).toContain(r.code);
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  /** Definitions d1..dk whose `keyword` names the one below twice: 2^k chains applying to one value, no loop. */
  const doubling = (keyword: "anyOf" | "allOf" | "oneOf", k: number): Record<string, unknown> => {
    const $defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let i = 1; i <= k; i++)
      $defs[`d${i}`] = { [keyword]: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    return $defs;
  };

  for (const keyword of ["anyOf", "allOf", "oneOf"] as const) {
    it(`${keyword} naming the next definition twice, thirty deep (2^30 checks of a failing value): schema-too-large at a definition`, () => {
      const r = compile(withDefs({ $ref: "#/$defs/d30" }, doubling(keyword, 30)));
      expect(r).toMatchObject({ ok: false, error: { code: "schema-too-large" } });
      expect(r.ok ? "" : r.error.path).toMatch(/^\/\$defs\/d\d+$/);
      expect(r.ok ? "" : r.error.message).toContain("more than 10000 chains of $ref, anyOf, allOf, oneOf");
    });
  }

  it("anyOf naming the next definition twice, ten deep: within the budget, compiles", () => {
    expect(attempt(withDefs({ $ref: "#/$defs/d10" }, doubling("anyOf", 10))).code).toBe("compiled");
  });

  it("allOf over twenty two-way anyOfs (2^20 combinations): never distributed in full", () => {
    const parts = Array.from({ length: 20 }, (_, i) => ({
      anyOf: [
        { type: "object", properties: { [`a${i}`]: { type: "string" } }, required: [`a${i}`] },
        { type: "object", properties: { [`b${i}`]: { type: "number" } }, required: [`b${i}`] },
      ],
    }));
    const r = attempt(obj({ allOf: parts }));
    expect(["compiled", "expansion-limit", "unsupported-schema", "target-limit"]).toContain(r.code);
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  it("anyOf nested 300 levels deep: refused by depth", () => {
    let s: unknown = { type: "string" };
    for (let i = 0; i < 300; i++) s = { anyOf: [s, { type: "null" }] };
    const r = attempt(obj(s));
    expect(r.code).toBe("schema-too-large");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });
});

describe("reference chains and cycles", () => {
  const cycles: [string, Record<string, unknown>][] = [
    ["a -> b -> a", { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }],
    ["a -> a", { a: { $ref: "#/$defs/a" } }],
    ["a -> anyOf[b] -> anyOf[a]", { a: { anyOf: [{ $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }] } }],
  ];
  for (const [name, $defs] of cycles) {
    it(`${name}, with no structure between: unsupported-schema`, () => {
      const r = attempt(withDefs({ $ref: "#/$defs/a" }, $defs));
      expect(r.code).toBe("unsupported-schema");
      expect(r.ms).toBeLessThan(CEILING_MS);
    });
  }

  it("the root referring to itself: unsupported-schema", () => {
    expect(attempt({ $ref: "#" }).code).toBe("unsupported-schema");
  });

  it("10,000 definitions, each only a reference to the next: refused by the nesting budget, without growing the stack", () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    $defs.d10000 = { type: "string" };
    const r = attempt(withDefs({ $ref: "#/$defs/d0" }, $defs));
    // A schema is behind the chain: the refusal is the definitions budget, not "no schema behind it".
    expect(r.code).toBe("expansion-limit");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  it("10,000 definitions nested through arrays: the expansion budget refuses them", () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) $defs[`d${i}`] = { type: "array", items: { $ref: `#/$defs/d${i + 1}` } };
    $defs.d10000 = { type: "string" };
    const r = attempt(withDefs({ $ref: "#/$defs/d0" }, $defs));
    expect(r.code).toBe("expansion-limit");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  it("recursion through structure compiles, and a deep value is refused by depth, not by the stack", () => {
    const compiled = compileCodec(
      withDefs({ $ref: "#/$defs/t" }, { t: { type: "array", items: { $ref: "#/$defs/t" } } }),
    );
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const deep = (n: number) => `{"v":${"[".repeat(n)}${"]".repeat(n)}}`;
    expect(compiled.value.decode(deep(60)).ok).toBe(true);
    const r = compiled.value.decode(deep(100_000));
    expect(r.ok ? "accepted" : r.error.code).toBe("too-deep");
  });
});

describe("huge enums", () => {
  it("an enum of a million values: refused by size before anything reads it", () => {
    const r = attempt(obj({ enum: Array.from({ length: 1_000_000 }, (_, i) => `v${i}`) }));
    expect(r.code).toBe("schema-too-large");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  it("an enum of 50,000 values under 2020-12: refused by a size limit", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...obj({ enum: Array.from({ length: 50_000 }, (_, i) => `v${i}`) }),
    };
    const r = attempt(schema);
    // The target's enum limit today; an earlier cap on enum length would say schema-too-large.
    expect(["target-limit", "schema-too-large"]).toContain(r.code);
    expect(r.ms).toBeLessThan(CEILING_MS);
  });
});

describe("patterns", () => {
  it("(a+)+$ compiles under RE2, and a hostile string costs linear time", () => {
    const compiled = compileCodec(obj({ type: "string", pattern: "(a+)+$" }));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const text = (n: number) => `{"v":"${"a".repeat(n)}!"}`;
    const small = text(200_000);
    const large = text(800_000);
    for (const t of [small, large]) expect(compiled.value.decode(t).ok).toBe(false);
    const best = growth(
      () => compiled.value.decode(small),
      () => compiled.value.decode(large),
      10,
    );
    // A backtracking engine would take longer than the age of the universe; linear time gives about 4.
    expect(best.ratio, `${best.small.toFixed(1)} ms vs ${best.large.toFixed(1)} ms`).toBeLessThan(10);
  });

  const unsafe = ["(?=a)a", "(?!a)b", "(?<=a)b", "(?<!a)b", "(a)\\1", "(?<n>a)\\k<n>", "(?>a+)", "a++", "(?(1)a|b)"];
  const places: [string, (p: string) => unknown][] = [
    ["pattern", (p) => obj({ type: "string", pattern: p })],
    ["patternProperties", (p) => obj({ type: "object", patternProperties: { [p]: { type: "string" } } })],
    ["propertyNames", (p) => obj({ type: "object", propertyNames: { pattern: p } })],
  ];
  for (const [place, make] of places) {
    it(`lookaround, backreferences and atomic groups in ${place}: unsafe-pattern`, () => {
      for (const p of unsafe) expect(attempt(make(p)).code, p).toBe("unsafe-pattern");
    });
  }
});

describe("references that leave the document", () => {
  const remote = [
    "https://example.com/schema.json",
    "http://example.com/schema.json#/$defs/a",
    "other.json",
    "other.json#/$defs/a",
    "//evil.example/x.json",
    "file:///etc/passwd",
    "urn:example:schema",
  ];
  it("are refused as remote-ref, and nothing is fetched", () => {
    for (const ref of remote) {
      const r = attempt(obj({ $ref: ref }));
      expect(r.code, ref).toBe("remote-ref");
      // A fetch would take far longer than this, or fail with another code.
      expect(r.ms, ref).toBeLessThan(CEILING_MS);
    }
  });

  it("a relative reference against a remote $id is remote too", () => {
    const r = attempt({ $id: "https://example.com/root.json", ...obj({ $ref: "sibling.json" }) });
    expect(r.code).toBe("remote-ref");
  });

  it("a local reference to nothing is unresolved-ref; a dynamic reference the scope could choose is dynamic-ref", () => {
    expect(attempt(obj({ $ref: "#/$defs/missing" })).code).toBe("unresolved-ref");
    // No dynamic anchor of that name: a plain reference to nothing.
    expect(attempt(obj({ $dynamicRef: "#node" })).code).toBe("unresolved-ref");
    const twice = { $dynamicAnchor: "node", type: "object" };
    const scoped = { ...withDefs({ $dynamicRef: "#node" }, { a: { $id: "a", ...twice } }), $dynamicAnchor: "node" };
    expect(attempt(scoped).code).toBe("dynamic-ref");
    const recursive = {
      ...obj({ $recursiveRef: "#" }),
      $recursiveAnchor: true,
      $defs: { a: { $id: "a", $recursiveAnchor: true } },
    };
    expect(attempt({ ...recursive, $schema: "https://json-schema.org/draft/2019-09/schema" }).code).toBe("dynamic-ref");
  });
});

describe("schemas too big to read", () => {
  it("a million JSON values: schema-too-large, fast", () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 340_000; i++) properties[`p${i}`] = { type: "string" };
    const r = attempt({ type: "object", properties });
    expect(r.code).toBe("schema-too-large");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });

  for (const n of [100_000, 1_000_000]) {
    it(`${n} levels of items: schema-too-large, without recursion`, () => {
      let s: unknown = { type: "string" };
      for (let i = 0; i < n; i++) s = { type: "array", items: s };
      const r = attempt(obj(s));
      expect(r.code).toBe("schema-too-large");
      expect(r.ms).toBeLessThan(CEILING_MS);
    });
  }

  it("a million nested arrays that are not even a schema: schema-too-large", () => {
    let s: unknown = [];
    for (let i = 0; i < 1_000_000; i++) s = [s];
    expect(attempt(s).code).toBe("schema-too-large");
  });

  it("a cyclic object graph: schema-too-large, not an endless walk", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema };
    const r = attempt(schema);
    expect(r.code).toBe("schema-too-large");
    expect(r.ms).toBeLessThan(CEILING_MS);
  });
});

describe("schemas that are not JSON, or not allowed", () => {
  it("functions, undefined, bigints, symbols, non-finite numbers and class instances: invalid-schema", () => {
    const bad: [string, unknown][] = [
      ["function", obj((() => 1) as unknown)],
      ["undefined", obj(undefined)],
      ["bigint", obj({ type: "integer", maximum: 10n })],
      ["symbol", obj(Symbol("s"))],
      ["NaN", obj({ type: "number", maximum: Number.NaN })],
      ["Infinity", obj({ type: "number", maximum: Number.POSITIVE_INFINITY })],
      ["Date", obj(new Date(0))],
      ["Map", { type: "object", properties: new Map() }],
      ["a string", "schema"],
      ["null", null],
    ];
    for (const [name, schema] of bad) expect(attempt(schema).code, name).toBe("invalid-schema");
  });

  it("a declared member named __proto__: unsupported-schema (maps carry such keys)", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as unknown;
    expect(attempt(schema).code).toBe("unsupported-schema");
  });

  it("limits that are not positive integers: invalid-options", () => {
    for (const limits of [{ maxDepth: 0 }, { maxNodes: -1 }, { maxBytes: 1.5 }, { maxDepth: Number.NaN }]) {
      expect(attempt(obj({ type: "string" }), { limits }).code, JSON.stringify(limits)).toBe("invalid-options");
    }
  });
});
