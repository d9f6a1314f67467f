/** Re-signed bundles whose plan would crash the codec are refused when loaded (docs/security.md). */
import { compile, loadBundle } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { obj, outcome, resigned } from "./support.js";

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
          branches: [{ kind: "ref", def: "u" }],
          branchSources: [[""]],
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
