/**
 * Hostile schemas at compile time: each is refused with its code, or compiles,
 * without a throw. A stack overflow would be a throw: every compile here runs
 * through `attempt`, which turns one into a code. Nothing here is timed: a
 * refusal at a budget says which budget in its message, and the time of the
 * schemas whose size can vary is measured by `pnpm bench --only hostile`.
 */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import {
  arrayChain,
  bigEnum,
  manyProperties,
  nestedAnyOf,
  nestedItems,
  obj,
  PATTERN_BOMB,
  patternBombText,
  referenceChain,
  withDefs,
} from "../../testkit/bombs.js";

/** For the tests that build and compile schemas of 10^4 to 10^6 values: generous for a loaded two-core machine. */
const LARGE = { timeout: 120_000 };

/** The refusal at the document's size budget, read before anything else: the rest of the schema is not walked. */
const OVER_NODES = "the schema has more than 200000 JSON values";

function attempt(schema: unknown, options: Parameters<typeof compile>[1] = {}): { code: string; message?: string } {
  try {
    const r = compile(schema, options);
    return r.ok ? { code: "compiled" } : { code: r.error.code, message: r.error.message };
  } catch (error) {
    return { code: `threw ${String(error)}` };
  }
}

describe("exponential unions", () => {
  it("nested anyOf whose document doubles at each level (2^16 and 2^20 leaves): refused by size", LARGE, () => {
    for (const k of [16, 20])
      expect(attempt(nestedAnyOf(k)), `2^${k}`).toEqual({ code: "schema-too-large", message: OVER_NODES });
  });

  it(
    "a DAG of definitions with 2^30 paths: shared, so it compiles or hits the expansion budget, never expands",
    LARGE,
    () => {
      const $defs: Record<string, unknown> = { d0: { type: "string" } };
      for (let i = 1; i <= 30; i++) {
        $defs[`d${i}`] = {
          anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { type: "array", items: { $ref: `#/$defs/d${i - 1}` } }],
        };
      }
      const r = attempt(withDefs({ $ref: "#/$defs/d30" }, $defs));
      expect(["compiled", "expansion-limit", "target-limit"]).toContain(r.code);
    },
  );

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

  it("allOf over twenty two-way anyOfs (2^20 combinations): never distributed in full", LARGE, () => {
    const parts = Array.from({ length: 20 }, (_, i) => ({
      anyOf: [
        { type: "object", properties: { [`a${i}`]: { type: "string" } }, required: [`a${i}`] },
        { type: "object", properties: { [`b${i}`]: { type: "number" } }, required: [`b${i}`] },
      ],
    }));
    const r = attempt(obj({ allOf: parts }));
    expect(["compiled", "expansion-limit", "unsupported-schema", "target-limit"]).toContain(r.code);
  });

  it("anyOf nested 300 levels deep: refused by depth", () => {
    let s: unknown = { type: "string" };
    for (let i = 0; i < 300; i++) s = { anyOf: [s, { type: "null" }] };
    expect(attempt(obj(s))).toEqual({ code: "schema-too-large", message: "the schema nests deeper than 256 levels" });
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
      expect(attempt(withDefs({ $ref: "#/$defs/a" }, $defs)).code).toBe("unsupported-schema");
    });
  }

  it("the root referring to itself: unsupported-schema", () => {
    expect(attempt({ $ref: "#" }).code).toBe("unsupported-schema");
  });

  /** The budget both chains stop at: a thousand definitions in, whatever the chain's length. */
  const DEEPEST = { code: "expansion-limit", message: "references nest more than 1000 definitions deep" };

  it(
    "10,000 definitions, each only a reference to the next: refused by the nesting budget, without growing the stack",
    LARGE,
    () => {
      // A schema is behind the chain: the refusal is the definitions budget, not "no schema behind it".
      expect(attempt(referenceChain(10_000))).toEqual(DEEPEST);
    },
  );

  it("10,000 definitions nested through arrays: the expansion budget refuses them", LARGE, () => {
    expect(attempt(arrayChain(10_000))).toEqual(DEEPEST);
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
  it("an enum of a million values: refused by size before anything reads it", LARGE, () => {
    expect(attempt(bigEnum(1_000_000))).toEqual({ code: "schema-too-large", message: OVER_NODES });
  });

  it("an enum of 50,000 values under 2020-12: refused by a size limit", LARGE, () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...obj({ enum: Array.from({ length: 50_000 }, (_, i) => `v${i}`) }),
    };
    const r = attempt(schema);
    // The target's enum limit today; an earlier cap on enum length would say schema-too-large.
    expect(["target-limit", "schema-too-large"]).toContain(r.code);
  });
});

describe("patterns", () => {
  it("(a+)+$ compiles under RE2, and a hostile string is refused", LARGE, () => {
    const compiled = compileCodec(obj({ type: "string", pattern: PATTERN_BOMB }));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    // A backtracking engine would not return (2^200000 steps); RE2's linear time is measured by the bench.
    for (const n of [200_000, 800_000]) {
      const r = compiled.value.decode(patternBombText(n));
      expect(r.ok ? "accepted" : `${r.error.code} ${r.error.path}`).toBe("wire-violation /v");
    }
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
    // compile is synchronous: it could not wait for a fetch, and one that failed would give another code.
    for (const ref of remote) expect(attempt(obj({ $ref: ref })).code, ref).toBe("remote-ref");
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
  it("a million JSON values: schema-too-large, at the size budget", LARGE, () => {
    expect(attempt(manyProperties(340_000))).toEqual({ code: "schema-too-large", message: OVER_NODES });
  });

  for (const n of [100_000, 1_000_000]) {
    it(`${n} levels of items: schema-too-large, without recursion`, LARGE, () => {
      expect(attempt(nestedItems(n))).toEqual({ code: "schema-too-large", message: OVER_NODES });
    });
  }

  it("a million nested arrays that are not even a schema: schema-too-large", LARGE, () => {
    let s: unknown = [];
    for (let i = 0; i < 1_000_000; i++) s = [s];
    expect(attempt(s).code).toBe("schema-too-large");
  });

  it("a cyclic object graph: schema-too-large, not an endless walk", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema };
    expect(attempt(schema)).toEqual({ code: "schema-too-large", message: OVER_NODES });
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
