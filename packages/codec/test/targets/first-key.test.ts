/**
 * OpenAI's first-key rule ("Objects provided via 'anyOf' must not share
 * identical first keys"): compile reorders members so the object branches of
 * every anyOf differ at the first member, or writes an inseparable union in
 * the tag form; the tag forms are left as they are; round trips are unchanged
 * and the model may write members in the wire's order.
 */
import { type CompileOptions, checkToolSet, compileCodec, describeFinding, toolSetAdvisories } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { firstKeyClashes, firstKeyReadings, orderFirstKeys } from "../../src/targets/first-key.js";
import { canonical } from "../../testkit/same.js";
import { firstKeyProblems, STRICT_RULES } from "../../testkit/strict-rules.js";

type Json = Record<string, unknown>;

function codecFor(schema: unknown, options: CompileOptions = {}) {
  const compiled = compileCodec(schema, { name: "tool", ...options });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  return compiled.value;
}

/** Every value round-trips, also when the members are written in the order the wire gives them. */
function roundTrips(schema: unknown, values: readonly unknown[], options: CompileOptions = {}): Json {
  const codec = codecFor(schema, options);
  for (const value of values) {
    const encoded = codec.encode(value);
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
    const decoded = codec.decode(JSON.stringify(inWireOrder(encoded.value, codec.wire as Json)));
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.error));
    expect(canonical(decoded.value)).toBe(canonical(value));
  }
  return codec.wire as Json;
}

/** A wire value's object members in the order of the first schema that names them all (what a model writes). */
function inWireOrder(value: unknown, wire: Json): unknown {
  if (Array.isArray(value)) return value.map((v) => inWireOrder(v, wire));
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value);
  const order = schemaOrders(wire).find((o) => keys.every((k) => o.includes(k)) && o.length === keys.length);
  const out: Json = {};
  for (const k of order ?? keys) out[k] = inWireOrder((value as Json)[k], wire);
  return out;
}

function schemaOrders(schema: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(schema)) for (const s of schema) schemaOrders(s, out);
  else if (typeof schema === "object" && schema !== null) {
    const s = schema as Json;
    if (typeof s.properties === "object" && s.properties !== null) out.push(Object.keys(s.properties));
    for (const v of Object.values(s)) schemaOrders(v, out);
  }
  return out;
}

const credentials = {
  type: "object",
  oneOf: [
    {
      properties: { clientId: { type: "string" }, clientSecret: { type: "string" } },
      required: ["clientId", "clientSecret"],
      additionalProperties: false,
    },
    {
      properties: { clientId: { type: "string" }, refreshToken: { type: "string" } },
      required: ["clientId", "refreshToken"],
      additionalProperties: false,
    },
  ],
};

describe("the first-key rule on openai", () => {
  it("the checker catches object branches that share their first member (Github_easy/o10013's shape)", () => {
    const wire: Json = {
      type: "object",
      properties: { a: { anyOf: [credentials.oneOf[0], credentials.oneOf[1]] } },
      required: ["a"],
      additionalProperties: false,
    };
    expect(firstKeyProblems(wire)).toEqual([
      "/properties/a: anyOf object branches 0 and 1 share the first key clientId",
    ]);
    expect(firstKeyClashes(wire as never)).toEqual([{ path: "/properties/a", member: "clientId" }]);
    expect(STRICT_RULES.openai(wire)).toContain(
      "/properties/a: anyOf object branches 0 and 1 share the first key clientId",
    );
  });

  it("reorders members so each branch leads with a name no other branch leads with", () => {
    const wire = roundTrips(credentials, [
      { clientId: "a", clientSecret: "s" },
      { clientId: "a", refreshToken: "r" },
    ]);
    expect(STRICT_RULES.openai(wire)).toEqual([]);
    const branches = ((wire.properties as Json).arguments as Json).anyOf as Json[];
    const firsts = branches.map((b) => Object.keys(b.properties as Json)[0]);
    expect(firsts).toEqual(["clientId", "refreshToken"]);
    // required in the same order: one write-up says its first entry counts too.
    expect(branches.map((b) => (b.required as string[])[0])).toEqual(firsts);
  });

  it("puts a discriminating constant first where one exists", () => {
    const schema = {
      type: "object",
      properties: {
        shape: {
          anyOf: [
            {
              type: "object",
              properties: { size: { type: "number" }, kind: { const: "square" } },
              required: ["size", "kind"],
              additionalProperties: false,
            },
            {
              type: "object",
              properties: { size: { type: "number" }, kind: { const: "circle" } },
              required: ["size", "kind"],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ["shape"],
      additionalProperties: false,
    };
    const wire = roundTrips(schema, [{ shape: { size: 1, kind: "square" } }, { shape: { size: 2, kind: "circle" } }]);
    const anyOf = ((wire.properties as Json).shape as Json).anyOf as Json[];
    expect(anyOf.map((b) => Object.keys(b.properties as Json))).toEqual([
      ["kind", "size"],
      ["kind", "size"],
    ]);
    expect(anyOf.map((b) => b.required)).toEqual([
      ["kind", "size"],
      ["kind", "size"],
    ]);
    expect(STRICT_RULES.openai(wire)).toEqual([]);
  });

  it("writes branches with the same member names and no constant in the tag form, whose first member is a constant", () => {
    const schema = {
      type: "object",
      properties: {
        v: {
          anyOf: [
            {
              type: "object",
              properties: { x: { type: "string", pattern: "^a" } },
              required: ["x"],
              additionalProperties: false,
            },
            {
              type: "object",
              properties: { x: { type: "string", pattern: "^b" } },
              required: ["x"],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ["v"],
      additionalProperties: false,
    };
    const wire = roundTrips(schema, [{ v: { x: "ab" } }, { v: { x: "ba" } }]);
    const anyOf = ((wire.properties as Json).v as Json).anyOf as Json[];
    expect(anyOf.map((b) => Object.keys(b.properties as Json))).toEqual([
      ["branch", "value"],
      ["branch", "value"],
    ]);
    expect(STRICT_RULES.openai(wire)).toEqual([]);
    // The named branch is held to its own constraint at decode.
    const codec = codecFor(schema);
    const wrong = codec.decode(JSON.stringify({ v: { branch: 0, value: { x: "ba" } } }));
    expect(wrong.ok).toBe(false);
    // Not on targets without the rule: there the union keeps its plain form.
    const anthropic = codecFor(schema, { target: "anthropic" }).wire as Json;
    expect(Object.keys((((anthropic.properties as Json).v as Json).anyOf as Json[])[0]!.properties as Json)).toEqual([
      "x",
    ]);
  });

  it("leaves presence tags and union tags as they are", () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" } },
      required: ["age"],
      additionalProperties: false,
    };
    const wire = codecFor(schema).wire as Json;
    const name = (wire.properties as Json).name as Json;
    expect(name.anyOf).toEqual([
      { $ref: "#/$defs/strictwire_absent" },
      {
        type: "object",
        properties: { state: { type: "string", const: "present" }, value: { type: "string" } },
        required: ["state", "value"],
        additionalProperties: false,
      },
    ]);
    expect(Object.keys(((wire.$defs as Json).strictwire_absent as Json).properties as Json)).toEqual(["state"]);
    expect(orderFirstKeys(wire as never).wire).toEqual(wire);
    expect(orderFirstKeys(wire as never).clashes).toEqual([]);
  });

  it("orders a definition once for every union that uses it", () => {
    const defs = {
      a: { type: "object", properties: { id: { type: "string" }, p: { type: "string" } }, required: ["id", "p"] },
      b: { type: "object", properties: { id: { type: "string" }, q: { type: "string" } }, required: ["id", "q"] },
    };
    const wire: Json = {
      type: "object",
      properties: {
        one: { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }] },
        two: { anyOf: [{ $ref: "#/$defs/b" }, { $ref: "#/$defs/a" }] },
      },
      required: ["one", "two"],
      additionalProperties: false,
      $defs: defs,
    };
    const ordered = orderFirstKeys(wire as never);
    expect(ordered.clashes).toEqual([]);
    expect(firstKeyProblems(ordered.wire as Json)).toEqual([]);
    // The input is not changed.
    expect(Object.keys(defs.b.properties)).toEqual(["id", "q"]);
  });

  it("check reports a bundle whose wire breaks the rule (compiled before it was modelled)", () => {
    const bundle = codecFor(credentials).bundle;
    expect(checkToolSet([bundle], "openai")).toEqual([]);
    const arguments_ = { anyOf: credentials.oneOf.map((b) => ({ type: "object", ...b })) };
    const old = {
      ...bundle,
      wire: {
        type: "object",
        properties: { arguments: arguments_ },
        required: ["arguments"],
        additionalProperties: false,
      },
    };
    const findings = checkToolSet([old as never], "openai");
    expect(findings).toEqual([{ limit: "firstKey", measured: 1, max: 0, path: "/properties/arguments", tool: "tool" }]);
    expect(describeFinding(findings[0]!, "openai")).toContain("must not share identical first keys");
    // Targets without the rule do not report it.
    expect(checkToolSet([{ ...old, options: { ...old.options, target: "gemini" } } as never], "gemini")).toEqual([]);
  });

  it("refuses, naming the rule, where the tag form would cross the nesting limit (Github_hard/o9808's case)", () => {
    const branch = (p: string) => ({
      type: "object",
      properties: { x: { type: "string", pattern: p } },
      required: ["x"],
      additionalProperties: false,
    });
    let schema: Json = { anyOf: [branch("^a"), branch("^b")] };
    for (let i = 0; i < 9; i++)
      schema = { type: "object", properties: { d: schema }, required: ["d"], additionalProperties: false };
    const r = compileCodec(schema, { name: "tool" });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("target-limit");
      expect(r.error.message).toMatch(/^maxNesting: .*first-key rule/);
    }
    // One level shallower, the tag form fits.
    expect(compileCodec((schema.properties as Json).d, { name: "tool" }).ok).toBe(true);
  });
});

/** The schemas a wire gives the members its anyOf branches share first (where each branch leads). */
function sharedFirstMembers(wire: Json): unknown[] {
  const defs = (wire.$defs ?? {}) as Json;
  const out: unknown[] = [];
  const resolveRef = (s: Json): Json => {
    let x = s;
    while (typeof x.$ref === "string") x = defs[x.$ref.slice("#/$defs/".length)] as Json;
    return x;
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const s = node as Json;
    if (Array.isArray(s.anyOf)) {
      const firsts = s.anyOf
        .map((b) => resolveRef(b as Json))
        .map((b) => Object.entries((b.properties ?? {}) as Json)[0]);
      for (const [name, schema] of firsts.filter((f) => f !== undefined)) {
        if (firsts.filter((f) => f?.[0] === name).length > 1) out.push(schema);
      }
    }
    Object.values(s).forEach(walk);
  };
  walk(wire);
  return out;
}

describe("the first-key rule's unconfirmed readings", () => {
  // Optional members of different types: factoring hoists the presence tag's {"const":"present"} into a definition.
  const optionals: Json = {
    type: "object",
    properties: {
      s: { type: "string" },
      i: { type: "integer" },
      b: { type: "boolean" },
      n: { type: "number" },
      a: { type: "array", items: { type: "string" } },
      e: { type: "string", enum: ["x", "y"] },
      m: { type: "integer", minimum: 0 },
    },
  };
  const kinds: Json = {
    type: "object",
    $defs: { A: { const: "a" }, B: { const: "b" } },
    properties: {
      u: {
        anyOf: [
          {
            type: "object",
            properties: { kind: { $ref: "#/$defs/A" }, x: { type: "string" } },
            required: ["kind", "x"],
          },
          {
            type: "object",
            properties: { kind: { $ref: "#/$defs/B" }, y: { type: "string" } },
            required: ["kind", "y"],
          },
        ],
      },
    },
    required: ["u"],
  };

  it("writes a shared first member's constant in place, never behind a $ref (factored presence tags)", () => {
    // Before: "state": {"$ref": "#/$defs/sw_f1"} in every present branch.
    const wire = roundTrips(optionals, [{}, { s: "t", i: 1, b: true, n: 1.5, a: ["q"], e: "y", m: 0 }], {
      factored: true,
    });
    const shared = sharedFirstMembers(wire);
    expect(shared.length).toBeGreaterThan(0);
    for (const member of shared) expect(member).not.toHaveProperty("$ref");
    expect(JSON.stringify(wire)).not.toMatch(/"state":\{"\$ref"/);
    expect(STRICT_RULES.openai(wire)).toEqual([]);
  });

  it("writes a discriminator the schema gives by reference in place, and drops the definitions left unused", () => {
    // Before: "kind": {"$ref": "#/$defs/A"}, the wire leading with a reference.
    const wire = roundTrips(kinds, [{ u: { kind: "a", x: "1" } }, { u: { kind: "b", y: "2" } }]);
    const branches = ((wire.properties as Json).u as Json).anyOf as Json[];
    expect(branches.map((b) => (b.properties as Json).kind)).toEqual([
      { type: "string", const: "a" },
      { type: "string", const: "b" },
    ]);
    expect(wire.$defs).toBeUndefined();
    expect(codecFor(kinds).decode('{"u":{"kind":"b","x":"1"}}').ok).toBe(false);
  });

  it("leaves a constant the other targets are sent behind a reference as the schema gave it", () => {
    const wire = codecFor(kinds, { target: "anthropic" }).wire as Json;
    expect(JSON.stringify(wire)).toMatch(/"kind":\{"\$ref"/);
  });

  it("says which reading a wire depends on, and where", () => {
    const tagged = codecFor({ type: "object", properties: { s: { type: "string" } } }).wire as Json;
    expect(firstKeyReadings(tagged as never)).toEqual([
      { reading: "shared-name-constants", path: "/properties/s", member: "state" },
    ]);
    // A wire as an earlier version compiled it: the discriminator behind a reference.
    const old: Json = {
      type: "object",
      properties: { u: { anyOf: [{ $ref: "#/$defs/X" }, { $ref: "#/$defs/Y" }] } },
      required: ["u"],
      additionalProperties: false,
      $defs: {
        K: { type: "string", const: "x" },
        X: {
          type: "object",
          properties: { kind: { $ref: "#/$defs/K" } },
          required: ["kind"],
          additionalProperties: false,
        },
        Y: { type: "object", properties: { kind: { const: "y" } }, required: ["kind"], additionalProperties: false },
      },
    };
    expect(firstKeyReadings(old as never)).toEqual([
      { reading: "constant-behind-ref", path: "/properties/u", member: "kind" },
    ]);
    // Branches that lead with different names depend on neither reading.
    const apart = codecFor({ type: "object", properties: { u: credentials } }, {}).wire as Json;
    expect(firstKeyReadings(apart as never).filter((r) => r.path.startsWith("/properties/u/"))).toEqual([]);
  });

  it("check advises which reading a tool depends on, on OpenAI only", () => {
    const tool = codecFor({ type: "object", properties: { s: { type: "string" }, t: { type: "string" } } }).bundle;
    const advisories = toolSetAdvisories([tool], "openai");
    expect(advisories).toMatchObject([
      { kind: "firstKeyReading", tool: "tool", reading: "shared-name-constants", member: "state", sites: 2 },
    ]);
    expect(advisories[0]?.message).toMatch(/share their first member state, told apart by its constants/);
    const closed = codecFor({ type: "object", properties: { s: { type: "string" } }, required: ["s"] }).bundle;
    expect(toolSetAdvisories([closed], "openai")).toEqual([]);
    const anthropic = codecFor({ type: "object", properties: { s: { type: "string" } } }, { target: "anthropic" });
    expect(toolSetAdvisories([anthropic.bundle], "anthropic").filter((a) => a.kind === "firstKeyReading")).toEqual([]);
  });
});
