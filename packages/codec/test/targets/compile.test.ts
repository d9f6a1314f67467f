/**
 * Targets as a compile option: every profile cites where each fact came from,
 * and compile picks the representation the target can take (native optional
 * members within Anthropic's budget, JSON text where recursion is refused,
 * relaxed keywords enforced at decode, keywords beside $ref moved off it).
 */
import {
  type CompileOptions,
  compileCodec,
  FACT_KINDS,
  type Field,
  type Node,
  TARGET_NAMES,
  type TargetName,
  targetProfile,
} from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_KINDS } from "../../src/constructs/compile/registry.js";
import { recursiveDefs } from "../../src/ir/cycles.js";
import { runs } from "../../testkit/arbitraries.js";
import { canonical } from "../../testkit/same.js";

type Json = Record<string, unknown>;

function codecFor(schema: unknown, options: CompileOptions) {
  const compiled = compileCodec(schema, { name: "tool", ...options });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  return compiled.value;
}

function roundTrip(codec: ReturnType<typeof codecFor>, value: unknown): unknown {
  const encoded = codec.encode(value);
  if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
  const decoded = codec.decode(JSON.stringify(encoded.value));
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.error));
  return decoded.value;
}

/** The members of a plan node that must be a closed object. */
function fieldsOf(node: Node | undefined): readonly Field[] {
  if (node?.kind !== "object") throw new Error(`expected an object node, got ${node?.kind}`);
  return node.fields;
}

function relaxedKeywords(codec: ReturnType<typeof codecFor>): string[] {
  return codec.bundle.plan.relaxed.map((r) => r.keyword);
}

describe("target profiles", () => {
  it("exist for every target name, each fact with a source address and the date it was read", () => {
    for (const name of TARGET_NAMES) {
      const profile = targetProfile(name);
      expect(profile.name).toBe(name);
      expect(profile.facts.length).toBeGreaterThan(3);
      for (const fact of profile.facts) {
        expect(fact.source).toMatch(/^https:\/\//);
        expect(fact.read).toMatch(/^2026-12-0[24]$/);
        expect(FACT_KINDS).toContain(fact.kind);
        expect(fact.rule.length).toBeGreaterThan(2);
        expect(fact.fact.length).toBeGreaterThan(20);
      }
    }
  });

  it("are all accepted by compile, and the default stays openai", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    for (const target of TARGET_NAMES) expect(codecFor(schema, { target }).bundle.options.target).toBe(target);
    expect(codecFor(schema, {}).bundle.options.target).toBe("openai");
  });

  it("refuse an unknown target name as invalid options", () => {
    const r = compileCodec({ type: "object" }, { target: "mistral" as TargetName });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("invalid-options");
  });
});

describe("optional members", () => {
  const optional = (count: number): Json => ({
    type: "object",
    properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, { type: "string" }])),
  });

  it("travel natively on anthropic, the first 24 in document order, the rest tagged", () => {
    const codec = codecFor(optional(30), { target: "anthropic" });
    const fields = fieldsOf(codec.bundle.plan.root);
    expect(fields.slice(0, 24).every((f) => f.presence === "native")).toBe(true);
    expect(fields.slice(24).every((f) => f.presence === "tagged")).toBe(true);
    const args = codec.wire;
    expect(args.required).toEqual(fields.slice(24).map((f) => f.name));
    const value = { m0: "a", m25: "b" };
    expect(canonical(roundTrip(codec, value))).toBe(canonical(value));
  });

  it("count nested members in document order: a member before its own members", () => {
    const schema = {
      type: "object",
      properties: {
        outer: { type: "object", properties: Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`i${i}`, {}])) },
        late: { type: "string" },
      },
    };
    const codec = codecFor(schema, { target: "anthropic" });
    const [outer, late] = fieldsOf(codec.bundle.plan.root);
    expect(outer?.presence).toBe("native");
    const inner = fieldsOf(outer?.node);
    expect(inner.filter((f) => f.presence === "native")).toHaveLength(23);
    expect(inner[23]?.presence).toBe("tagged");
    expect(late?.presence).toBe("tagged");
  });

  it("past the budget follow presence: compact on anthropic makes them T | null", () => {
    const codec = codecFor(optional(26), { target: "anthropic", presence: "compact" });
    const fields = fieldsOf(codec.bundle.plan.root);
    expect(fields.map((f) => f.presence).slice(23)).toEqual(["native", "compact", "compact"]);
    expect(canonical(roundTrip(codec, { m25: "x" }))).toBe(canonical({ m25: "x" }));
  });

  it("are all native on gemini, whatever presence asks", () => {
    for (const presence of ["tagged", "compact"] as const) {
      const codec = codecFor(optional(40), { target: "gemini", presence });
      expect(codec.wire.required).toEqual([]);
    }
  });

  it("keep absent and null apart when native", () => {
    const schema = { type: "object", properties: { note: { type: ["string", "null"] } } };
    const codec = codecFor(schema, { target: "anthropic" });
    expect(canonical(roundTrip(codec, {}))).toBe("{}");
    expect(canonical(roundTrip(codec, { note: null }))).toBe('{"note":null}');
  });

  it("stay tagged by default on openai, compact on request", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    const tagged = codecFor(schema, { target: "openai" }).wire;
    const compact = codecFor(schema, { target: "openai", presence: "compact" }).wire;
    expect(tagged.required).toEqual(["n"]);
    expect(JSON.stringify((tagged.properties as Json).n)).toContain("strictwire_absent");
    expect((compact.properties as Json).n).toEqual({ anyOf: [{ type: "integer" }, { type: "null" }] });
  });
});

describe("recursion where the target refuses it", () => {
  const tree = {
    $defs: {
      node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["name", "children"],
        additionalProperties: false,
      },
      label: { type: "string", minLength: 1 },
    },
    type: "object",
    properties: {
      tree: { $ref: "#/$defs/node", description: "The whole tree." },
      title: { $ref: "#/$defs/label" },
    },
    required: ["tree", "title"],
  };
  const value = { tree: { name: "a", children: [{ name: "b", children: [] }] }, title: "t" };

  for (const target of ["anthropic", "gemini"] as const) {
    it(`travels as JSON text on ${target}, its schema and the member's description said`, () => {
      const codec = codecFor(tree, { target });
      const member = (codec.wire.properties as Json).tree as Json;
      expect(member.type).toBe("string");
      expect(member.description).toMatch(/^The whole tree\. A node value \(JSON Schema \{.*"children".*\}\), written/);
      expect(Object.keys((codec.wire.$defs as Json | undefined) ?? {})).not.toContain("node");
      expect(codec.bundle.plan.relaxed).toContainEqual(
        expect.objectContaining({ path: "/$defs/node", keyword: "$ref" }),
      );
      const encoded = codec.encode(value);
      expect(encoded.ok && typeof (encoded.value as Json).tree).toBe("string");
      expect(canonical(roundTrip(codec, value))).toBe(canonical(value));
    });
  }

  it("keeps recursive $defs on openai", () => {
    const codec = codecFor(tree, { target: "openai" });
    expect(Object.keys(codec.wire.$defs as Json)).toContain("node");
    expect(canonical(roundTrip(codec, value))).toBe(canonical(value));
  });

  it("reads the JSON text with the bounded parser and holds it to the schema", () => {
    const codec = codecFor(tree, { target: "anthropic", limits: { maxDepth: 8 } });
    const wire = (tree: string) => JSON.stringify({ tree, title: "t" });
    const notJson = codec.decode(wire("{name:"));
    expect(notJson.ok || notJson.error.code).toBe("invalid-json");
    const deep = codec.decode(wire(`${"[".repeat(20)}${"]".repeat(20)}`));
    expect(deep.ok || deep.error.code).toBe("too-deep");
    const wrong = codec.decode(wire('{"name":"a"}'));
    expect(wrong.ok || wrong.error.code).toBe("contract-violation");
    const duplicate = codec.decode(wire('{"name":"a","name":"b","children":[]}'));
    expect(duplicate.ok || duplicate.error.code).toBe("duplicate-key");
  });

  it("finds exactly the definitions that reach themselves", () => {
    const graph = fc
      .integer({ min: 1, max: 9 })
      .chain((n) => fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(graph, (edges) => {
        const defs = Object.fromEntries(edges.map((to, i) => [`d${i}`, refsTo(to)]));
        const reaches = (from: number): boolean => {
          const seen = new Set<number>();
          const work = [...edges[from]!];
          while (work.length > 0) {
            const at = work.pop()!;
            if (at === from) return true;
            if (!seen.has(at)) work.push(...edges[at]!);
            seen.add(at);
          }
          return false;
        };
        const expected = edges.flatMap((_, i) => (reaches(i) ? [`d${i}`] : []));
        expect([...recursiveDefs(defs, NODE_KINDS)].sort()).toEqual(expected.sort());
      }),
      { numRuns: runs(300) },
    );
  });

  it("follows a cycle of 20,000 definitions without growing the stack", () => {
    const n = 20_000;
    const defs = Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, refsTo([(i + 1) % n])]));
    expect(recursiveDefs(defs, NODE_KINDS).size).toBe(n);
  });

  it("breaks mutual recursion too, and drops definitions nothing references", () => {
    const schema = {
      $defs: {
        a: { type: "object", properties: { b: { $ref: "#/$defs/b" } }, additionalProperties: false },
        b: { type: "array", items: { $ref: "#/$defs/a" } },
      },
      type: "object",
      properties: { a: { $ref: "#/$defs/a" } },
      required: ["a"],
    };
    const codec = codecFor(schema, { target: "anthropic" });
    expect(codec.wire.$defs).toBeUndefined();
    expect(Object.keys(codec.bundle.plan.defs)).toEqual([]);
    const v = { a: { b: [{ b: [] }, {}] } };
    expect(canonical(roundTrip(codec, v))).toBe(canonical(v));
  });
});

/** A plan node referring to each of `targets` (by index), as a union of references. */
function refsTo(targets: readonly number[]): Node {
  return {
    kind: "union",
    branches: targets.map((t) => ({ kind: "ref", def: `d${t}` })),
    rule: { by: "tag" },
    branchSources: targets.map(() => [""]),
    schema: {},
  };
}

describe("any JSON value", () => {
  const schema = { type: "object", properties: { data: { description: "Anything." } }, required: ["data"] };
  const values = [{ data: { a: [1, { b: null }] } }, { data: "s" }, { data: [] }, { data: null }];

  it("travels as JSON text where recursion is refused, as entries on openai", () => {
    const text = (codecFor(schema, { target: "gemini" }).wire.properties as Json).data as Json;
    expect(text).toEqual({ description: "Anything. Any JSON value, written as JSON text.", type: "string" });
    const entries = JSON.stringify(codecFor(schema, { target: "openai" }).wire);
    expect(entries).toContain("strictwire_json");
    for (const target of TARGET_NAMES) {
      const codec = codecFor(schema, { target });
      for (const v of values) expect(canonical(roundTrip(codec, v))).toBe(canonical(v));
    }
  });
});

describe("keywords the target does not take", () => {
  const schema = {
    type: "object",
    properties: {
      count: { type: "integer", minimum: 1, maximum: 9, multipleOf: 1, exclusiveMinimum: 0 },
      code: { type: "string", pattern: "\\bab\\b", minLength: 2, maxLength: 8 },
      site: { type: "string", format: "uri" },
      mail: { type: "string", format: "email" },
      tags: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 5 },
      one: { type: "array", items: { type: "string" }, minItems: 1 },
      kind: { const: "fixed" },
    },
    required: ["count", "code", "site", "mail", "tags", "one", "kind"],
    additionalProperties: false,
  };
  const valid = {
    count: 3,
    code: "ab",
    site: "https://x.example",
    mail: "a@b.co",
    tags: ["a", "b"],
    one: ["c"],
    kind: "fixed",
  };

  const kept = (target: TargetName) => {
    const props = codecFor(schema, { target }).wire.properties as Record<string, Json>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Object.keys(v).sort()]));
  };

  it("are kept on openai where documented", () => {
    const k = kept("openai");
    expect(k.count).toEqual(["exclusiveMinimum", "maximum", "minimum", "multipleOf", "type"]);
    expect(k.code).toEqual(["pattern", "type"]);
    expect(k.site).toEqual(["type"]);
    expect(k.mail).toEqual(["format", "type"]);
    expect(k.tags).toEqual(["items", "maxItems", "minItems", "type"]);
  });

  it("are relaxed on anthropic: no numeric bounds, lengths or \\b, minItems only 0 or 1", () => {
    const k = kept("anthropic");
    expect(k.count).toEqual(["type"]);
    expect(k.code).toEqual(["type"]);
    expect(k.site).toEqual(["format", "type"]);
    expect(k.tags).toEqual(["items", "type"]);
    expect(k.one).toEqual(["items", "minItems", "type"]);
  });

  it("are relaxed on gemini: no pattern, exclusive bounds, multipleOf, and const spelt as enum", () => {
    const k = kept("gemini");
    expect(k.count).toEqual(["maximum", "minimum", "type"]);
    expect(k.code).toEqual(["type"]);
    expect(k.mail).toEqual(["type"]);
    expect(k.kind).toEqual(["enum", "type"]);
  });

  it("are relaxed on openai-finetuned: no lengths, pattern, format, bounds, multipleOf or item counts", () => {
    const k = kept("openai-finetuned");
    expect(k.count).toEqual(["type"]);
    expect(k.code).toEqual(["type"]);
    expect(k.mail).toEqual(["type"]);
    expect(k.tags).toEqual(["items", "type"]);
    expect(k.one).toEqual(["items", "type"]);
    expect(k.kind).toEqual(["const", "type"]);
    expect(relaxedKeywords(codecFor(schema, { target: "openai-finetuned" }))).toEqual(
      expect.arrayContaining(["minimum", "maximum", "multipleOf", "exclusiveMinimum", "pattern", "format", "minItems"]),
    );
  });

  it("follow Anthropic's SDKs on anthropic: a simple pattern is relaxed, const travels as a one-value enum", () => {
    const simple = {
      type: "object",
      properties: { id: { type: "string", pattern: "^[a-z]+$" }, kind: { const: "fixed" }, box: { const: { a: 1 } } },
      required: ["id", "kind", "box"],
      additionalProperties: false,
    };
    const codec = codecFor(simple, { target: "anthropic" });
    const props = codec.wire.properties as Record<string, Json>;
    expect(props.id).toEqual({ type: "string" });
    expect(props.kind).toEqual({ type: "string", enum: ["fixed"] });
    expect(JSON.stringify(codec.wire)).not.toMatch(/"const"|"pattern"/);
    expect(codec.bundle.plan.relaxed.map((r) => `${r.path} ${r.keyword}`)).toEqual(
      expect.arrayContaining(["/properties/id pattern", "/properties/box const"]),
    );
    const value = { id: "abc", kind: "fixed", box: { a: 1 } };
    expect(canonical(roundTrip(codec, value))).toBe(canonical(value));
    for (const broken of [
      { ...value, id: "ABC" },
      { ...value, kind: "other" },
      { ...value, box: { a: 2 } },
    ]) {
      const decoded = codec.decode(JSON.stringify(broken));
      expect(decoded.ok, JSON.stringify(broken)).toBe(false);
    }
  });

  for (const target of TARGET_NAMES) {
    it(`are enforced at decode on ${target}`, () => {
      const codec = codecFor(schema, { target });
      expect(canonical(roundTrip(codec, valid))).toBe(canonical(valid));
      // Something the wire of this target lets through: only the final validation can refuse it.
      const broken = target === "anthropic" ? { ...valid, count: 12, tags: ["a"] } : { ...valid, site: "not a uri" };
      const decoded = codec.decode(JSON.stringify(broken));
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.error.code).toBe("contract-violation");
    });
  }

  it("leave the relaxed list naming each keyword", () => {
    expect(relaxedKeywords(codecFor(schema, { target: "anthropic" }))).toEqual(
      expect.arrayContaining(["minimum", "maximum", "multipleOf", "minLength", "pattern", "minItems", "maxItems"]),
    );
    expect(relaxedKeywords(codecFor(schema, { target: "gemini" }))).toEqual(
      expect.arrayContaining(["exclusiveMinimum", "multipleOf", "pattern", "format"]),
    );
  });
});

describe("constructs no target takes", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "integer", not: { const: 3 } },
      b: { allOf: [{ type: "string" }, { minLength: 1 }] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
      c: { type: "string", if: { minLength: 3 }, then: { pattern: "^x" } },
      d: { type: "object", properties: { p: { type: "string" } }, dependentRequired: { p: ["q"] } },
      e: { type: "object", patternProperties: { "^x": { type: "integer" } }, additionalProperties: false },
    },
    required: ["a", "b", "c", "d", "e"],
  };
  const valid = { a: 1, b: "s", c: "xyz", d: {}, e: { x1: 1 } };

  for (const target of TARGET_NAMES) {
    it(`travel relaxed on ${target}, enforced at decode`, () => {
      const codec = codecFor(schema, { target });
      const wire = JSON.stringify(codec.wire);
      for (const keyword of ["allOf", "not", "if", "then", "dependentRequired", "patternProperties"]) {
        expect(wire).not.toContain(`"${keyword}"`);
      }
      expect(relaxedKeywords(codec)).toEqual(
        expect.arrayContaining(["not", "if", "then", "dependentRequired", "patternProperties"]),
      );
      expect(canonical(roundTrip(codec, valid))).toBe(canonical(valid));
      const encoded = codec.encode(valid);
      if (!encoded.ok) throw new Error("encode refused a valid value");
      const args = encoded.value as Json;
      const broken = codec.decode(JSON.stringify({ ...args, a: 3 }));
      expect(broken.ok || broken.error.code).toBe("contract-violation");
    });
  }
});

describe("keywords beside $ref", () => {
  const schema = {
    $defs: { money: { type: "object", properties: { cents: { type: "integer" } }, required: ["cents"] } },
    type: "object",
    properties: { price: { $ref: "#/$defs/money", description: "What it costs." } },
    required: ["price"],
  };

  it("move onto a one-branch anyOf on openai and gemini", () => {
    for (const target of ["openai", "gemini"] as const) {
      const price = (codecFor(schema, { target }).wire.properties as Json).price;
      expect(price).toEqual({ description: "What it costs.", anyOf: [{ $ref: "#/$defs/money" }] });
    }
  });

  it("inline the definition on anthropic, which then drops it", () => {
    const codec = codecFor(schema, { target: "anthropic" });
    const price = (codec.wire.properties as Json).price as Json;
    expect(price.description).toBe("What it costs.");
    expect(price.type).toBe("object");
    expect(codec.wire.$defs).toBeUndefined();
    expect(canonical(roundTrip(codec, { price: { cents: 5 } }))).toBe('{"price":{"cents":5}}');
  });

  it("are dropped on anthropic where the definition has other uses, rather than copy it", () => {
    const twice = {
      ...schema,
      properties: { ...schema.properties, refund: { $ref: "#/$defs/money" } },
      required: ["price", "refund"],
    };
    const codec = codecFor(twice, { target: "anthropic" });
    const props = codec.wire.properties as Json;
    expect(props.price).toEqual({ $ref: "#/$defs/money" });
    expect(props.refund).toEqual({ $ref: "#/$defs/money" });
    expect(Object.keys(codec.wire.$defs as Json)).toEqual(["money"]);
  });

  it("are never left beside a reference, factored or not, on any target", () => {
    for (const target of TARGET_NAMES) {
      for (const factored of [false, true]) {
        const text = JSON.stringify(codecFor(schema, { target, factored }).wire);
        expect(text).not.toMatch(/"\$ref":"[^"]*","|,"\$ref"/);
      }
    }
  });
});
