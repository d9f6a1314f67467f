/** Schemas that refer back to themselves without reading deeper: refused at compile and at load (docs/security.md). */
import { compile, loadBundle } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { outcome, resigned, withDefs } from "./support.js";

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
