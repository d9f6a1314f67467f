/**
 * Regression tests for the issues the reliability work found (see
 * docs/security.md). Each failed before its fix and passes after.
 */
import { createHash } from "node:crypto";
import { type Bundle, compile, compileCodec, loadBundle } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../../scripts/fuzz/bundle.js";

const obj = (v: unknown) => ({ type: "object", properties: { v }, required: ["v"], additionalProperties: false });
const withDefs = (v: unknown, $defs: Record<string, unknown>) => ({ ...obj(v), $defs });
const deep = (n: number) => `{"arguments":{"v":${"[".repeat(n)}${"]".repeat(n)}}}`;

/** A bundle changed and re-signed, as an attacker with write access would. */
function resigned(bundle: Bundle, change: (b: Record<string, unknown>) => void): string {
  const b = JSON.parse(JSON.stringify(bundle)) as Record<string, unknown>;
  change(b);
  delete b.digest;
  b.digest = `sha256-${createHash("sha256").update(canonicalJson(b)).digest("hex")}`;
  return JSON.stringify(b);
}

function outcome(run: () => { ok: boolean; error?: { code: string } }): string {
  try {
    const r = run();
    return r.ok ? "ok" : r.error!.code;
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

describe("schemas that refer back to themselves without structure", () => {
  const loops: [string, Record<string, unknown>][] = [
    ["allOf a -> b -> a", { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { allOf: [{ $ref: "#/$defs/a" }] } }],
    ["anyOf a -> a", { a: { anyOf: [{ $ref: "#/$defs/a" }, { type: "string" }] } }],
    ["not a -> a", { a: { not: { $ref: "#/$defs/a" } } }],
    ["$ref with a sibling, a -> a", { a: { $ref: "#/$defs/a", type: "string" } }],
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
    ["if a -> a", { a: { if: { $ref: "#/$defs/a" }, then: { type: "string" } } }],
  ];
  for (const [name, $defs] of loops) {
    it(`${name}: refused at compile, unsupported-schema`, () => {
      expect(outcome(() => compile(withDefs({ $ref: "#/$defs/a" }, $defs)))).toBe("unsupported-schema");
    });
  }

  it("recursion through structure still compiles", () => {
    const $defs = { a: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/a" } }] } };
    expect(outcome(() => compile(withDefs({ $ref: "#/$defs/a" }, $defs)))).toBe("ok");
  });

  it("a bundle whose source loops that way is refused when loaded", () => {
    const good = compile(withDefs({ $ref: "#/$defs/a" }, { a: { type: "string" } }));
    if (!good.ok) throw new Error(JSON.stringify(good.error));
    const text = resigned(good.value, (b) => {
      b.source = withDefs({ $ref: "#/$defs/a" }, { a: { allOf: [{ $ref: "#/$defs/a" }] } });
    });
    expect(outcome(() => loadBundle(text))).toBe("invalid-bundle");
  });
});

describe("depth limits beyond what the stack can check", () => {
  it("compile refuses maxDepth above the cap, and a codec at the cap refuses deeper values with too-deep", () => {
    expect(outcome(() => compile(obj({}), { limits: { maxDepth: 2_000_000 } }))).toBe("invalid-options");
    const atCap = compileCodec(obj({}), { limits: { maxDepth: 512, maxBytes: 10_000_000, maxNodes: 10_000_000 } });
    if (!atCap.ok) throw new Error(JSON.stringify(atCap.error));
    expect(outcome(() => atCap.value.decode(deep(500)))).toBe("ok");
    expect(outcome(() => atCap.value.decode(deep(100_000)))).toBe("too-deep");
  });

  it("decode refuses per-call limits above the cap", () => {
    const c = compileCodec(obj({}));
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(outcome(() => c.value.decode(deep(5000), { limits: { maxDepth: 1_000_000, maxBytes: 10_000_000 } }))).toBe(
      "invalid-options",
    );
  });

  it("a bundle whose limits allow deeper is refused when loaded", () => {
    const good = compile(obj({}));
    if (!good.ok) throw new Error(JSON.stringify(good.error));
    const text = resigned(good.value, (b) => {
      (b.limits as Record<string, unknown>).maxDepth = 1_000_000;
    });
    expect(outcome(() => loadBundle(text))).toBe("invalid-bundle");
  });
});

describe("re-signed bundles whose plan would crash the codec", () => {
  const good = compile(
    obj({
      anyOf: [
        { type: "string" },
        { type: "array", items: { type: "string" } },
        { type: "object", properties: { a: { type: "number" } } },
      ],
    }),
  );
  if (!good.ok) throw new Error(JSON.stringify(good.error));
  const field = (b: Record<string, unknown>) =>
    ((b.plan as Record<string, unknown>).root as { fields: Record<string, unknown>[] }).fields[0]!;

  it("definitions that only refer to each other", () => {
    const text = resigned(good.value, (b) => {
      (b.plan as Record<string, unknown>).defs = { a: { kind: "ref", def: "b" }, b: { kind: "ref", def: "a" } };
      field(b).node = { kind: "ref", def: "a" };
    });
    expect(outcome(() => loadBundle(text))).toBe("invalid-bundle");
  });

  it("a union decided by type whose branch leads back to it", () => {
    const text = resigned(good.value, (b) => {
      (b.plan as Record<string, unknown>).defs = {
        u: {
          kind: "union",
          schema: {},
          source: "",
          branches: [{ kind: "ref", def: "u" }],
          branchSources: [""],
          rule: { by: "type", types: { string: 0, number: 0, boolean: 0, null: 0, array: 0, object: 0 } },
        },
      };
      field(b).node = { kind: "ref", def: "u" };
    });
    expect(outcome(() => loadBundle(text))).toBe("invalid-bundle");
  });

  it("branchTypes or branchSources of the wrong shape", () => {
    for (const [key, value] of [
      ["branchTypes", 5],
      ["branchTypes", [["object"]]],
      ["branchTypes", [null, null, null]],
      ["branchSources", [1, 2, 3]],
    ] as const) {
      const text = resigned(good.value, (b) => {
        (field(b).node as Record<string, unknown>)[key] = value;
      });
      expect(
        outcome(() => loadBundle(text)),
        `${key} ${JSON.stringify(value)}`,
      ).toBe("invalid-bundle");
    }
  });
});

describe("member names with spaces", () => {
  it("a union below one chooses its branch by validation, and round-trips", () => {
    const c = compileCodec({
      type: "object",
      properties: { "x y": { anyOf: [{ enum: ["green"] }, {}, { type: "string" }] } },
      required: ["x y"],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    for (const value of [{ "x y": "" }, { "x y": "green" }, { "x y": [1] }]) {
      const e = c.value.encode(value);
      expect(e.ok, JSON.stringify(value)).toBe(true);
      if (e.ok) expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value });
    }
  });
});

describe("compile-time costs", () => {
  it("an enum of 100,000 values is refused by size before the meta-schema checks it pairwise", () => {
    const code = outcome(() => compile(obj({ enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) })));
    expect(code).toBe("schema-too-large");
  });
});
