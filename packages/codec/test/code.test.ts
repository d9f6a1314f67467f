/**
 * Code building safe by construction (src/code.ts): plain data only
 * ever becomes a literal, names come from a scope and are identifiers, and
 * every construct's generated decode keeps hostile names, strings and
 * numbers out of the code.
 */
import { describe, expect, test } from "vitest";
import { _, Code, indent, join, literal, Name, render, Scope, type ScopeValue, ValueScope } from "../src/code.js";
import type { ConstructCompiler } from "../src/constructs/compile/construct.js";
import { FAIL } from "../src/constructs/context.js";
import { constructOfKind, encodeNode } from "../src/constructs/registry.js";
import { compileDecoder, generateDecoder } from "../src/generate/decoder.js";
import type { Field, Node, ObjectNode, Plan, UnionNode } from "../src/ir/nodes.js";
import { canonicalJson } from "../src/json.js";
import { canonical } from "../testkit/same.js";
import { decodeState, encodeContext, int, optional, required, str } from "./constructs/support.js";

const hostile = [
  '"]);globalThis.pwned=1;//',
  "'+(globalThis.pwned=1)+'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the attack is this very text
  "`${globalThis.pwned=1}`",
  "*/globalThis.pwned=1;/*",
  "\u2028globalThis.pwned=1\u2029",
  "</script><script>globalThis.pwned=1</script>",
  '\\\\"); globalThis.pwned = 1; ("',
  "\\",
  "constructor",
  "__proto__",
  "state",
  "value",
];

const evaluate = (code: Code): unknown => new Function(`return ${render(code)};`)();

describe("the _ template", () => {
  test("writes every plain string, number, boolean and null as a literal of itself", () => {
    for (const value of [...hostile, "", 0, -0, 1e308, -1e-308, 2 ** 53 + 2, true, false, null]) {
      const code = _`${value}`;
      expect(Object.is(evaluate(code), Object.is(value, -0) ? 0 : value)).toBe(true);
      // One literal, nothing after it: a string never closes its quotes.
      if (typeof value === "string") expect(render(code)).toBe(literal(value));
    }
    expect(render(_`${"\u2028</script>"}`)).toBe('"\\u2028\\u003c/script>"');
  });

  test("refuses a number JSON cannot write, and anything that is no plain value", () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(() => _`${n}`).toThrow();
    expect(() => _`${{ toString: () => "globalThis.pwned = 1" } as never}`).toThrow();
    expect(() => _`${undefined as never}`).toThrow();
    expect(() => _`${[1, 2] as never}`).toThrow();
  });

  test("is a template tag: an array handed in as its strings is refused", () => {
    const fake = Object.assign(["globalThis.pwned = 1"], { raw: ["globalThis.pwned = 1"] });
    expect(() => _(fake as unknown as TemplateStringsArray)).toThrow();
  });

  test("splices code and names as they are, and joins pieces", () => {
    const scope = new Scope();
    const v = scope.name("v");
    const code = join([_`const ${v} = ${"a"};`, _`return ${v};`]);
    expect(render(code)).toBe('const v = "a";\nreturn v;');
    expect(new Function(render(code))()).toBe("a");
  });

  test("code and names cannot be made outside the module", () => {
    expect(() => new Code(undefined as never, ["globalThis.pwned = 1"])).toThrow();
    expect(() => new Name(undefined as never, "x")).toThrow();
  });

  test("types: a plain string is not code, and generateDecode must return code", () => {
    // @ts-expect-error a raw string cannot stand for code
    const raw: Code = "globalThis.pwned = 1";
    // @ts-expect-error no constructor takes text
    const made = () => new Code("globalThis.pwned = 1");
    const construct: Pick<ConstructCompiler, "generateDecode"> = {
      // @ts-expect-error a construct's body is code, never a string
      generateDecode: () => "return F;",
    };
    // @ts-expect-error an object is no plain value for a template
    const spliced = () => _`${{ code: "x" }}`;
    expect([typeof raw, typeof made, typeof construct.generateDecode, typeof spliced]).toEqual([
      "string",
      "function",
      "function",
      "function",
    ]);
  });
});

describe("scopes", () => {
  test("hand out identifiers only, each once, never one that is taken or reserved", () => {
    const scope = new Scope(["w", "d", "s", "t1"], ["node"]);
    expect([scope.name("t"), scope.name("t"), scope.name("t"), scope.name("s")].map((n) => n.id)).toEqual([
      "t",
      "t2",
      "t3",
      "s1",
    ]);
    for (const bad of ["", "a-b", "1a", "a b", "a1", '"', "node", "t;x"]) expect(() => scope.name(bad)).toThrow();
    // A word the language keeps is never a name, however it is reached.
    expect(new Scope().name("for").id).toBe("for1");
    expect(new Scope().numbered("node").id).toBe("node0");
  });

  test("a function written twice reads the same (its scope numbers its own locals)", () => {
    const write = () => {
      const scope = new Scope(["w"]);
      const [a, b] = [scope.name("v"), scope.name("v")];
      return render(_`const ${a} = w; const ${b} = ${a};`);
    };
    expect(write()).toBe(write());
  });
});

describe("value scopes", () => {
  test("name each value once, with its ref for memory and its code for a module", () => {
    const values = new ValueScope(new Scope());
    const f = (x: number) => x + 1;
    const a = values.value("f", { ref: f, code: _`(x) => x + 1` });
    // The same ref is the same value: written once.
    expect(values.value("g", { ref: f, code: _`other` })).toBe(a);
    const b = values.value("f", { ref: 2, code: _`2` });
    // A primitive ref is no identity: two of them are two values.
    const c = values.value("f", { ref: 2, code: _`2` });
    expect([a.id, b.id, c.id]).toEqual(["f", "f1", "f2"]);
    expect(values.ref(a)).toBe(f);
    const module = join([_`const ${a} = ${values.code(a)};`, _`return ${a}(${values.code(b)});`]);
    expect(new Function(render(module))()).toBe((values.ref(a) as typeof f)(values.ref(b) as number));
    // Code that names itself, and a name spelt exactly.
    const d = values.exact("decode", (name) => ({ ref: 0, code: _`function ${name}() {}` }));
    expect(render(values.code(d))).toBe("function decode() {}");
    expect(() => values.exact("decode", { ref: 1, code: _`1` })).toThrow();
    expect(() => values.ref(new Scope().name("f"))).toThrow();
  });

  test("an exact name is an identifier, not taken, and no reserved prefix's numbered name", () => {
    const scope = new Scope(["w"], ["node"]);
    expect(scope.exact("strictwireRuntime_re2").id).toBe("strictwireRuntime_re2");
    for (const bad of ["w", "node0", "strictwireRuntime_re2", "a-b", "for", '"'])
      expect(() => scope.exact(bad)).toThrow();
  });

  test("types: a value's code is code, never a string", () => {
    // @ts-expect-error a raw string cannot stand for a value's code
    const value: ScopeValue = { ref: 1, code: "globalThis.pwned = 1" };
    // @ts-expect-error join takes code, not strings
    const joined = () => join(["globalThis.pwned = 1"]);
    // @ts-expect-error a value given by a function of its name returns code too
    const named = () => new ValueScope(new Scope()).value("v", (name) => ({ ref: 1, code: `${name.id}` }));
    expect([typeof value.code, typeof joined, typeof named]).toEqual(["string", "function", "function"]);
  });
});

test("indent follows braces outside string literals", () => {
  expect(render(indent(_`if (x) {\nconst a = "{";\nswitch (a) {\ncase "}": return 1;\n}\n}`))).toBe(
    'if (x) {\n  const a = "{";\n  switch (a) {\n  case "}": return 1;\n  }\n}',
  );
});

const state = decodeState;

/** Hand-built nodes of every kind, named and valued with hostile text. */
function hostilePlan(): { plan: Plan; value: unknown } {
  const defName = hostile[0]!;
  const inner: ObjectNode = { kind: "object", schema: {}, fields: [required(hostile[3]!, str)] };
  const tagged = (name: string): Field => ({ ...optional(name, inner, "tagged"), tags: "minimal" });
  const branches: Node[] = hostile.slice(0, 3).map((tag) => ({
    kind: "object",
    schema: {},
    fields: [
      required(hostile[1]!, { kind: "scalar", schema: { const: tag }, types: ["string"] }),
      required(hostile[2]!, int),
    ],
  }));
  const union: UnionNode = {
    kind: "union",
    schema: {},
    branches,
    branchSources: branches.map(() => ["#"]),
    rule: {
      by: "discriminator",
      field: hostile[1]!,
      values: Object.fromEntries(hostile.slice(0, 3).map((tag, i) => [canonicalJson(tag), i])),
    },
  };
  const typeUnion: UnionNode = {
    kind: "union",
    schema: {},
    branches: [{ kind: "map", schema: {}, key: { type: "string" }, value: str }, str],
    branchSources: [["#"], ["#"]],
    rule: { by: "type", types: { array: 0, string: 1 } },
  };
  const tagUnion: UnionNode = {
    kind: "union",
    schema: {},
    branches: [{ kind: "any", schema: {} }, str],
    branchSources: [["#"], ["#"]],
    rule: { by: "tag" },
  };
  const fields: Field[] = [
    ...hostile.slice(0, 4).map((name) => required(name, str)),
    optional(hostile[4]!, str, "native"),
    optional(hostile[5]!, str, "compact"),
    optional(hostile[6]!, str, "tagged"),
    optional(hostile[7]!, inner, "inline"),
    { ...optional(hostile[8]!, inner, "inline"), tags: "minimal" },
    tagged(hostile[11]!),
    required("union", union),
    required("tagUnion", tagUnion),
    required("typeUnion", typeUnion),
    required("map", { kind: "map", schema: {}, key: { type: "string" }, value: str }),
    required("mixed", {
      kind: "mixed",
      schema: {},
      key: { type: "string" },
      value: int,
      fields: hostile.slice(0, 3).map((name) => required(name, str)),
    }),
    required("array", { kind: "array", schema: {}, items: { kind: "ref", def: defName } }),
    required("any", { kind: "any", schema: {} }),
    required("text", { kind: "json-text", schema: {} }),
    required("scalar", { kind: "scalar", schema: { const: { [hostile[0]!]: 1 } }, types: ["object"] }),
  ];
  const plan: Plan = {
    root: { kind: "object", schema: {}, fields },
    defs: { [defName]: inner },
    relaxed: [],
    envelope: "bare",
    nodes: 0,
  };
  const value = {
    ...Object.fromEntries(hostile.slice(0, 4).map((name) => [name, name])),
    [hostile[4]!]: hostile[4],
    [hostile[6]!]: hostile[6],
    [hostile[7]!]: { [hostile[3]!]: hostile[7] },
    [hostile[8]!]: { [hostile[3]!]: hostile[8] },
    union: { [hostile[1]!]: hostile[2], [hostile[2]!]: 7 },
    tagUnion: hostile[5],
    typeUnion: { [hostile[6]!]: hostile[7] },
    map: Object.fromEntries(hostile.map((k) => [k, k])),
    mixed: { ...Object.fromEntries(hostile.slice(0, 3).map((k) => [k, k])), [hostile[5]!]: 1 },
    array: [{ [hostile[3]!]: hostile[9] }],
    any: { [hostile[0]!]: [hostile[1], { [hostile[9]!]: null }] },
    text: { [hostile[2]!]: hostile[3] },
    scalar: { [hostile[0]!]: 1 },
  };
  return { plan, value };
}

test("every construct's generated decode keeps hostile names and strings out of the code", () => {
  const { plan, value } = hostilePlan();
  const kinds = new Set<string>();
  const work: Node[] = [plan.root, ...Object.values(plan.defs)];
  for (let n = work.pop(); n !== undefined; n = work.pop()) {
    kinds.add(n.kind);
    for (const c of constructOfKind(n.kind)!.children(n as never)) work.push(c.node);
  }
  expect([...kinds].sort()).toEqual(["any", "array", "json-text", "map", "mixed", "object", "ref", "scalar", "union"]);

  const ctx = encodeContext(plan.defs);
  const wire = encodeNode(plan.root, value, ctx);
  expect(ctx.error).toBeUndefined();
  const source = render(generateDecoder(plan).code);
  for (const text of ["\u2028", "</script>"]) expect(source).not.toContain(text);
  // Each name the code reads is there as its literal.
  for (const name of hostile.slice(0, 8)) expect(source).toContain(literal(name));
  const decoded = compileDecoder(plan)(JSON.parse(JSON.stringify(wire)), state());
  expect(decoded).not.toBe(FAIL);
  expect(canonical(decoded)).toBe(canonical(value));
  expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty("pwned");
});

test("identical functions are generated once", () => {
  const object = (): ObjectNode => ({ kind: "object", schema: {}, fields: [required("x", str)] });
  const plan: Plan = {
    root: { kind: "object", schema: {}, fields: [required("a", object()), required("b", object())] },
    defs: {},
    relaxed: [],
    envelope: "bare",
    nodes: 0,
  };
  const source = render(generateDecoder(plan).code);
  // The root, one object (a and b alike) and one string.
  expect(source.match(/^function /gm)).toHaveLength(3);
  expect(compileDecoder(plan)({ a: { x: "1" }, b: { x: "2" } }, state())).toEqual({ a: { x: "1" }, b: { x: "2" } });
});
