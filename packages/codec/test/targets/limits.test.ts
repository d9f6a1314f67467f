/**
 * Limits: per schema at compile time (`target-limit`, naming the limit, the
 * measured figure and where it is crossed), per request across a tool set
 * (`checkToolSet`), and the provider tool definitions built from bundles.
 */
import {
  type Bundle,
  type CompileOptions,
  checkToolSet,
  compile,
  compileCodec,
  describeFinding,
  loadBundle,
  type TargetName,
  toolDefinition,
} from "@strictwire/codec";
import { describe, expect, it } from "vitest";

type Json = Record<string, unknown>;

function bundleOf(schema: unknown, options: CompileOptions): Bundle {
  const compiled = compile(schema, { name: "tool", ...options });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  return compiled.value;
}

function refusal(schema: unknown, target: TargetName, options: CompileOptions = {}) {
  const compiled = compile(schema, { name: "tool", target, ...options });
  if (compiled.ok) throw new Error(`${target} compiled a schema over its limits`);
  return compiled.error;
}

const object = (properties: Json, required = Object.keys(properties)): Json => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const many = (count: number, make: (i: number) => [string, unknown]): Json =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => make(i)));

describe("openai per-schema limits", () => {
  it("refuse more than 5,000 object properties, and name the 5,001st", () => {
    const group = object(many(100, (i) => [`p${i}`, { type: "integer" }]));
    const error = refusal(object(many(50, (g) => [`g${g}`, group])), "openai");
    expect(error.code).toBe("target-limit");
    expect(error.message).toContain("maxProperties: tool: 5050 object properties");
    expect(error.message).toContain("at most 5000");
    // An object root is not wrapped: 49 groups of 1 + 100 make 4,949; then g49 and p0..p50.
    expect(error.path).toBe("/properties/g49/properties/p50");
  });

  it("refuse more than 10 levels of object nesting, and say where the deepest is", () => {
    let schema: Json = object({ leaf: { type: "string" } });
    for (let i = 0; i < 10; i++) schema = object({ [`l${i}`]: schema });
    const error = refusal(schema, "openai");
    expect(error.message).toContain("maxNesting: tool: 11 levels of object nesting");
    expect(error.path).toMatch(/^(\/properties\/l\d)+$/);
  });

  it("take a source of 10 levels as written: the root is not wrapped", () => {
    let schema: Json = object({ leaf: { type: "string" } });
    for (let i = 0; i < 9; i++) schema = object({ [`l${i}`]: schema });
    expect(compile(schema, { target: "openai" }).ok).toBe(true);
  });

  it("take optional object members at every level: their presence tags add no level, in either spelling", () => {
    // Ten levels of optional objects (a settings PATCH), each level's member optional.
    let schema: Json = object({ leaf: { type: "string" } });
    for (let i = 0; i < 9; i++) schema = object({ [`l${i}`]: schema }, []);
    for (const options of [{}, { tags: "minimal" as const }, { presence: "compact" as const }]) {
      const compiled = compile(schema, { target: "openai", ...options });
      expect(compiled.ok, JSON.stringify(options)).toBe(true);
    }
  });

  it("fit a tag that would cross the limit by sending that member compact, where null is free", () => {
    // Level 10 holds optional scalars: their tags would be level 11.
    let schema: Json = object({ leaf: { type: "string" }, note: { type: ["string", "null"] } }, []);
    for (let i = 0; i < 9; i++) schema = object({ [`l${i}`]: schema }, []);
    const refused = compile(schema, { target: "openai" });
    // `note` admits null, so only its tag can say "absent": the schema cannot fit.
    expect(refused.ok ? "compiled" : refused.error.message).toMatch(/maxNesting: tool: 11 levels/);
    const leafOnly: Json = JSON.parse(JSON.stringify(schema).replace(',"note":{"type":["string","null"]}', ""));
    const compiled = compileCodec(leafOnly, { target: "openai" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    let node = compiled.value.bundle.plan.root;
    for (let i = 8; i >= 0; i--) {
      if (node.kind !== "object") throw new Error("expected an object");
      expect(node.fields[0]?.presence, `l${i}`).toBe("inline");
      node = node.fields[0]!.node;
    }
    expect(node.kind === "object" && node.fields[0]?.presence).toBe("compact");
    // Exact both ways: absent and present at the deepest level.
    let value: Json = { leaf: "x" };
    for (let i = 0; i < 9; i++) value = { [`l${i}`]: value };
    const wire = compiled.value.encode(value);
    if (!wire.ok) throw new Error(wire.error.message);
    expect(compiled.value.decode(JSON.stringify(wire.value))).toStrictEqual({ ok: true, value });
    const empty = JSON.parse(JSON.stringify(value).replace('{"leaf":"x"}', "{}"));
    const emptyWire = compiled.value.encode(empty);
    expect(emptyWire.ok && JSON.stringify(emptyWire.value)).toContain('{"state":"present","leaf":null}');
  });

  it("fit nullable optional objects at the limit by writing their tag inline, with null beside it", async () => {
    // An activity-stream shape (JSONSchemaBench Github_hard/o84921): every level an optional, nullable object.
    const nullable = (properties: Json): Json => ({ ...object(properties, []), type: ["object", "null"] });
    let schema: Json = nullable({ width: { type: "integer" } });
    for (let i = 0; i < 9; i++) schema = i === 8 ? object({ [`l${i}`]: schema }, []) : nullable({ [`l${i}`]: schema });
    for (const tags of ["state", "minimal"] as const) {
      const compiled = compileCodec(schema, { target: "openai", tags });
      if (!compiled.ok) throw new Error(`${tags}: ${compiled.error.message}`);
      const wireText = JSON.stringify(compiled.value.bundle.wire);
      // The deepest levels carry null as a third form beside the two tags.
      expect(wireText, tags).toContain('{"type":"null"}]');
      // The value down to member l{k}, which holds `leaf` (or is left out when leaf is undefined).
      const down = (k: number, leaf: unknown): Json => {
        let value: Json = leaf === undefined ? {} : { [`l${k}`]: leaf };
        for (let i = k + 1; i <= 8; i++) value = { [`l${i}`]: value };
        return value;
      };
      const levels = Array.from({ length: 9 }, (_, k) => k);
      const values = [
        down(0, { width: 3 }),
        ...levels.map((k) => down(k, null)),
        ...levels.map((k) => down(k, undefined)),
      ];
      // The bundle as a dispatcher loads it reads the same.
      const loaded = await loadBundle(JSON.stringify(compiled.value.bundle));
      if (!loaded.ok) throw new Error(loaded.error.message);
      for (const value of values) {
        const wire = compiled.value.encode(value);
        if (!wire.ok) throw new Error(`${tags}: ${wire.error.message}`);
        const text = JSON.stringify(wire.value);
        expect(compiled.value.decode(text), text).toStrictEqual({ ok: true, value });
        expect(compiled.value.decode(text, { interpreted: true }), text).toStrictEqual({ ok: true, value });
        expect(loaded.value.decode(text), text).toStrictEqual({ ok: true, value });
      }
      // A wrong form at the deepest level is refused by both paths alike, naming what is allowed there.
      const cleared = compiled.value.encode(down(0, null));
      if (!cleared.ok) throw new Error(cleared.error.message);
      const deep = JSON.stringify(cleared.value).replace('"l0":null', '"l0":"none"');
      const bad = compiled.value.decode(deep);
      expect(bad.ok ? "decoded" : bad.error.message, tags).toMatch(
        /l1\/l0: (is "none"; must be one of the types object, null|must be an object, got "none".*null)/,
      );
      expect(compiled.value.decode(deep, { interpreted: true })).toStrictEqual(bad);
    }
  });

  it("fit untyped members with properties the same way: a value that is no object travels as itself", async () => {
    // `properties` without `type` constrains objects only: the member may be a string, a number, an array...
    let schema: Json = { properties: { width: { type: "integer" } }, required: ["width"] };
    for (let i = 0; i < 9; i++) schema = { properties: { [`l${i}`]: schema } };
    const compiled = compileCodec({ ...schema, type: "object" }, { target: "openai" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    // The members that would cross the limit went inline, their unions' other values beside the tags.
    const planText = JSON.stringify(compiled.value.bundle.plan);
    expect(planText).toMatch(/"name":"l0","node":\{"kind":"union".*?"presence":"inline"/);
    const loaded = await loadBundle(JSON.stringify(compiled.value.bundle));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const down = (k: number, leaf: unknown): Json => {
      let value: Json = { [`l${k}`]: leaf };
      for (let i = k + 1; i <= 8; i++) value = { [`l${i}`]: value };
      return value;
    };
    for (const leaf of [{ width: 2 }, "text", 7, [1, { a: 1 }], null, true]) {
      const value = down(0, leaf);
      const wire = compiled.value.encode(value);
      if (!wire.ok) throw new Error(wire.error.message);
      const text = JSON.stringify(wire.value);
      for (const decoded of [
        compiled.value.decode(text),
        compiled.value.decode(text, { interpreted: true }),
        loaded.value.decode(text),
      ])
        expect(decoded, text).toStrictEqual({ ok: true, value });
    }
  });

  it("refuse more than 120,000 characters of names and enum values", () => {
    const long = (i: number): [string, unknown] => [`${i}`.padEnd(10_000, "n"), { type: "boolean" }];
    const error = refusal(object(many(13, long)), "openai");
    expect(error.message).toMatch(/^maxStringBudget: tool: 130\d{3} characters/);
  });

  it("refuse more than 1,000 enum values across the schema", () => {
    const schema = object({
      a: { enum: Array.from({ length: 600 }, (_, i) => i) },
      b: { enum: Array.from({ length: 401 }, (_, i) => i) },
    });
    const error = refusal(schema, "openai");
    expect(error.message).toContain("maxEnumValues: tool: 1001 enum values");
    expect(error.path).toBe("/properties/b/enum");
  });

  it("refuse a string enum of more than 250 values past 15,000 characters", () => {
    const values = Array.from({ length: 251 }, (_, i) => `${i}`.padEnd(60, "v"));
    const error = refusal(object({ pick: { enum: values } }), "openai");
    expect(error.message).toContain("maxLargeEnumChars: tool: 15060 characters in one large string enum");
    expect(error.path).toBe("/properties/pick/enum");
    expect(compile(object({ pick: { enum: values.slice(0, 250) } }), { target: "openai" }).ok).toBe(true);
  });
});

describe("anthropic limits a single schema can break", () => {
  it("refuse more than 16 union parameters: a nullable type counts", () => {
    const schema = object(many(17, (i) => [`n${i}`, { type: ["string", "null"] }]));
    const error = refusal(schema, "anthropic");
    expect(error.message).toContain("maxUnionParameters: tool: 17 parameters with union types");
    expect(error.path).toBe("/properties/n16");
    expect(compile(object(many(16, (i) => [`n${i}`, { type: ["string", "null"] }])), { target: "anthropic" }).ok).toBe(
      true,
    );
  });

  it("count the anyOf of members past the native budget", () => {
    const schema = { type: "object", properties: many(41, (i) => [`o${i}`, { type: "string" }]) };
    const error = refusal(schema, "anthropic");
    expect(error.message).toContain("maxUnionParameters: tool: 17");
    expect(
      compile({ ...schema, properties: many(40, (i) => [`o${i}`, { type: "string" }]) }, { target: "anthropic" }).ok,
    ).toBe(true);
  });
});

describe("gemini limits", () => {
  it("refuse a wire schema past strictwire's own size guard", () => {
    const schema = object({ q: { type: "string", description: "d".repeat(50_000) } });
    const error = refusal(schema, "gemini");
    expect(error.message).toMatch(/^maxSchemaChars: tool: 50\d{3} characters of wire schema/);
    expect(error.path).toBe("");
    expect(compile(schema, { target: "openai" }).ok).toBe(true);
  });
});

describe("checkToolSet", () => {
  const small = (name: string, optional = 0, unions = 0): Bundle =>
    bundleOf(
      {
        type: "object",
        properties: {
          ...many(optional, (i) => [`o${i}`, { type: "string" }]),
          ...many(unions, (i) => [`u${i}`, { type: ["integer", "null"] }]),
        },
        required: Array.from({ length: unions }, (_, i) => `u${i}`),
      },
      { name, target: "anthropic" },
    );

  it("finds nothing for a set within every cap", () => {
    expect(checkToolSet([small("a", 10, 5), small("b", 14, 11)], "anthropic")).toEqual([]);
  });

  it("counts strict tools per request", () => {
    const set = Array.from({ length: 21 }, (_, i) => small(`t${i}`));
    expect(checkToolSet(set, "anthropic")).toEqual([
      { limit: "maxStrictTools", measured: 21, max: 20, path: "", tool: "t20", scope: "request" },
    ]);
    expect(checkToolSet(set.slice(0, 20), "anthropic")).toEqual([]);
  });

  it("counts optional parameters across tools: the total is the set's, with each tool's share and a way out", () => {
    const findings = checkToolSet([small("a", 20), small("b", 20)], "anthropic");
    expect(findings).toEqual([
      {
        limit: "maxOptionalParameters",
        measured: 40,
        max: 24,
        path: "/properties/o4",
        tool: "b",
        scope: "request",
        across: [
          { tool: "a", measured: 20 },
          { tool: "b", measured: 20 },
        ],
      },
    ]);
    const sentence = describeFinding(findings[0]!, "anthropic");
    expect(sentence).toMatch(
      /^the request's tools together: 40 optional parameters \(a 20, b 20\), where the anthropic target allows at most 24 per request; crossed in b at \/properties\/o4\. To fit: split these tools across requests/,
    );
    expect(sentence).not.toMatch(/^b: 40/);
  });

  it("attributes a three-tool total of 6 + 14 + 13 to the set, not to one tool", () => {
    const findings = checkToolSet(
      [small("create_event", 6), small("update_event", 14), small("find_slots", 13)],
      "anthropic",
    );
    expect(findings.map((f) => [f.limit, f.measured, f.scope, f.across])).toEqual([
      [
        "maxOptionalParameters",
        33,
        "request",
        [
          { tool: "create_event", measured: 6 },
          { tool: "update_event", measured: 14 },
          { tool: "find_slots", measured: 13 },
        ],
      ],
    ]);
    expect(describeFinding(findings[0]!, "anthropic")).toContain(
      "33 optional parameters (create_event 6, update_event 14, find_slots 13)",
    );
  });

  it("counts union parameters across tools", () => {
    const findings = checkToolSet([small("a", 0, 10), small("b", 0, 10)], "anthropic");
    expect(findings).toEqual([
      {
        limit: "maxUnionParameters",
        measured: 20,
        max: 16,
        path: "/properties/u6",
        tool: "b",
        scope: "request",
        across: [
          { tool: "a", measured: 10 },
          { tool: "b", measured: 10 },
        ],
      },
    ]);
  });

  it("holds each schema to the per-schema limits of the target named", () => {
    const big = bundleOf(object({ q: { type: "string", description: "d".repeat(50_000) } }), { name: "big" });
    const findings = checkToolSet([big], "gemini");
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ limit: "maxSchemaChars", max: 50_000, path: "", tool: "big" });
    expect(checkToolSet([big], "openai")).toEqual([]);
  });

  it("has no per-request caps on openai", () => {
    const set = Array.from({ length: 30 }, (_, i) =>
      bundleOf(object({ v: { type: ["string", "null"] } }), { name: `t${i}` }),
    );
    expect(checkToolSet(set, "openai")).toEqual([]);
    expect(checkToolSet(set, "anthropic").map((f) => f.limit)).toEqual(["maxStrictTools", "maxUnionParameters"]);
  });
});

describe("tool definitions", () => {
  const schema = {
    type: "object",
    description: "Find a user.",
    properties: { q: { type: "string" } },
    required: ["q"],
  };

  it("wrap the wire in each provider's envelope, strict where the API has it", () => {
    const openai = bundleOf(schema, { name: "find_user" });
    const responses = toolDefinition(openai, "openai-responses");
    const chat = toolDefinition(openai, "openai-chat");
    expect(responses.ok && responses.value).toEqual({
      type: "function",
      name: "find_user",
      description: "Find a user.",
      parameters: openai.wire,
      strict: true,
    });
    expect(chat.ok && chat.value).toEqual({
      type: "function",
      function: { name: "find_user", description: "Find a user.", parameters: openai.wire, strict: true },
    });
    const anthropic = bundleOf(schema, { name: "find_user", target: "anthropic" });
    const claude = toolDefinition(anthropic, "anthropic");
    expect(claude.ok && claude.value).toEqual({
      name: "find_user",
      description: "Find a user.",
      input_schema: anthropic.wire,
      strict: true,
    });
    const gemini = bundleOf(schema, { name: "find_user", target: "gemini" });
    const declaration = toolDefinition(gemini, "gemini");
    expect(declaration.ok && declaration.value).toEqual({
      name: "find_user",
      description: "Find a user.",
      parametersJsonSchema: gemini.wire,
    });
  });

  it("leave out a description the bundle does not have", () => {
    const bare = bundleOf({ type: "object" }, { name: "bare", target: "gemini" });
    const declaration = toolDefinition(bare, "gemini");
    expect(declaration.ok && Object.keys(declaration.value)).toEqual(["name", "parametersJsonSchema"]);
  });

  it("refuse a bundle compiled for another target", () => {
    const openai = bundleOf(schema, { name: "find_user" });
    for (const api of ["anthropic", "gemini"] as const) {
      const r = toolDefinition(openai, api);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe("invalid-options");
        expect(r.error.message).toContain("compiled for the openai target");
      }
    }
  });
});
