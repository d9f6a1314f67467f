/**
 * What docs/security.md says about Zod and `__proto__`, held against the real
 * zod: a codec compiled from a Zod schema hands back Zod's parse output, and
 * Zod drops a `__proto__` key from records and loose objects (the wire keeps
 * the entry, decode accepts it); `z.any()` keeps it. No prototype is touched.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileCodec } from "../../src/index.js";

const VALUE = JSON.parse('{"m":{"__proto__":1,"a":2}}') as { m: Record<string, number> };

function roundTrip(schema: z.ZodType): Record<string, unknown> {
  const codec = compileCodec(schema, { name: "t" });
  if (!codec.ok) throw new Error(codec.error.message);
  const wire = codec.value.encode(VALUE);
  if (!wire.ok) throw new Error(wire.error.message);
  expect(JSON.stringify(wire.value)).toContain('"key":"__proto__"');
  const decoded = codec.value.decode(JSON.stringify(wire.value));
  if (!decoded.ok) throw new Error(decoded.error.message);
  return (decoded.value as { m: Record<string, unknown> }).m;
}

describe("Zod and a __proto__ key (docs/security.md, threat model)", () => {
  it.each([
    ["z.record", z.object({ m: z.record(z.string(), z.number()) })],
    ["z.partialRecord", z.object({ m: z.partialRecord(z.string(), z.number()) })],
    ["z.looseObject", z.object({ m: z.looseObject({}) })],
  ])("%s: the wire carries it, decode accepts, and Zod's output drops it", (_name, schema) => {
    const m = roundTrip(schema);
    expect(Object.keys(m)).toEqual(["a"]);
    expect(Object.hasOwn(m, "__proto__")).toBe(false);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it("z.any(): kept, as an own data member", () => {
    const m = roundTrip(z.object({ m: z.any() }));
    expect(Object.keys(m)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });
});
