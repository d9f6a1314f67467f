/** The plan check at load, on hand-built plans: each node kind checks its own members. */
import { describe, expect, test } from "vitest";
import { checkBundleShape, checkPlan } from "../../src/bundle/check.js";
import { compileCodec } from "../../src/compile.js";

const plan = (root: unknown, defs: Record<string, unknown> = {}) => ({
  root,
  envelope: "arguments",
  defs,
  relaxed: [],
  nodes: 1,
});
const str = { kind: "scalar", schema: {}, types: ["string"] };

describe("checkPlan", () => {
  test("a well-formed plan passes", () => {
    const root = {
      kind: "object",
      schema: {},
      fields: [
        { name: "a", node: str, optional: true, presence: "tagged" },
        { name: "b", node: { kind: "ref", def: "B" }, optional: false },
      ],
    };
    const union = { kind: "union", schema: {}, branches: [str], rule: { by: "same" }, branchSources: [["/x"]] };
    expect(checkPlan(plan(root, { B: { kind: "array", schema: {}, items: union } }))).toEqual({ ok: true });
  });

  test.each([
    ["an unknown kind", plan({ kind: "set", schema: {} }), "/plan/root/kind"],
    ["an unknown envelope", { ...plan(str), envelope: "none" }, "/plan/envelope"],
    ["a bare envelope around a root that is not an object", { ...plan(str), envelope: "bare" }, "/plan/envelope"],
    [
      "inline presence on a member that is not an object",
      plan({ kind: "object", schema: {}, fields: [{ name: "a", node: str, optional: true, presence: "inline" }] }),
      "/plan/root/fields/0/presence",
    ],
    [
      "an unknown tag spelling",
      plan({
        kind: "object",
        schema: {},
        fields: [{ name: "a", node: str, optional: true, presence: "tagged", tags: "short" }],
      }),
      "/plan/root/fields/0",
    ],
    ["a scalar without types", plan({ kind: "scalar", schema: {} }), "/plan/root/types"],
    ["a node without its schema", plan({ kind: "any" }), "/plan/root/schema"],
    ["a dangling reference", plan({ kind: "ref", def: "X" }), "/plan/root/def"],
    [
      "a member named twice",
      plan({
        kind: "object",
        schema: {},
        fields: [
          { name: "a", node: str, optional: false },
          { name: "a", node: str, optional: false },
        ],
      }),
      "/plan/root/fields/1",
    ],
    [
      "an optional member without presence",
      plan({ kind: "object", schema: {}, fields: [{ name: "a", node: str, optional: true }] }),
      "/plan/root/fields/0/presence",
    ],
    ["a map without a key schema", plan({ kind: "map", schema: {}, value: str }), "/plan/root/key"],
    [
      "a rule naming a branch out of range",
      plan({
        kind: "union",
        schema: {},
        branches: [str],
        branchSources: [["/x"]],
        rule: { by: "type", types: { string: 1 } },
      }),
      "/plan/root/rule",
    ],
    [
      "a damaged node deep down",
      plan({ kind: "array", schema: {}, items: { kind: "array", schema: {}, items: 3 } }),
      "/plan/root/items/items",
    ],
    [
      "definitions that only refer to each other",
      plan(
        { kind: "ref", def: "A" },
        {
          A: { kind: "ref", def: "B" },
          B: {
            kind: "union",
            schema: {},
            branches: [{ kind: "ref", def: "A" }],
            branchSources: [["/x"]],
            rule: { by: "same" },
          },
        },
      ),
      "/plan/defs/A",
    ],
    ["a scalar whose type is no JSON type", plan({ kind: "scalar", schema: {}, types: ["text"] }), "/plan/root/types"],
    [
      "a member whose annotations are not an object",
      plan({ kind: "object", schema: {}, fields: [{ name: "a", node: str, optional: false, annotations: "x" }] }),
      "/plan/root/fields/0",
    ],
    [
      "a presence no codec knows",
      plan({ kind: "object", schema: {}, fields: [{ name: "a", node: str, optional: true, presence: "maybe" }] }),
      "/plan/root/fields/0/presence",
    ],
    [
      "fewer source lists than branches",
      plan({ kind: "union", schema: {}, branches: [str, str], branchSources: [["/x"]], rule: { by: "same" } }),
      "/plan/root/branchSources",
    ],
    [
      "a rule no decoder knows",
      plan({ kind: "union", schema: {}, branches: [str], branchSources: [["/x"]], rule: { by: "guess" } }),
      "/plan/root/rule",
    ],
    [
      "a discriminator value naming a negative branch",
      plan({
        kind: "union",
        schema: {},
        branches: [str],
        branchSources: [["/x"]],
        rule: { by: "discriminator", field: "t", values: { a: -1 } },
      }),
      "/plan/root/rule",
    ],
  ])("%s is refused at its place", (_what, p, path) => {
    const r = checkPlan(p);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.path).toBe(path);
  });
});

describe("checkBundleShape: the options", () => {
  const compiled = compileCodec({ type: "object", properties: { a: { type: "string" } } }, { dialect: "bfcl" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const bundle = compiled.value.bundle;
  const withOptions = (options: Record<string, unknown>) => ({ ...bundle, options: { ...bundle.options, ...options } });

  test("the bfcl dialect, tagged and compact presence pass", () => {
    expect(bundle.options.dialect).toBe("bfcl");
    expect(checkBundleShape(bundle)).toEqual({ ok: true });
    expect(checkBundleShape(withOptions({ presence: "compact" }))).toEqual({ ok: true });
  });

  test.each([
    ["an input dialect no adapter reads", { dialect: "yaml" }, "/options/dialect"],
    ["an inherited name as the dialect", { dialect: "constructor" }, "/options/dialect"],
    ["a member's own presence as the option", { presence: "native" }, "/options/presence"],
  ])("%s is refused at its place", (_what, options, path) => {
    const r = checkBundleShape(withOptions(options));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.path).toBe(path);
  });
});
