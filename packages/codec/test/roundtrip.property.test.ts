import { compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs, type Schema, schemaArb, valueArb } from "../testkit/arbitraries.js";
import { canonical } from "../testkit/same.js";

/** A generated schema with a value that is valid under it, for each presence mode and object policy. */
const caseArb = fc
  .tuple(
    schemaArb,
    fc.constantFrom("tagged" as const, "compact" as const),
    fc.constantFrom("close" as const, "preserve" as const),
  )
  .chain(([schema, presence, openObjects]) => {
    const root: Schema = { type: "object", properties: { v: schema, w: schema }, required: ["v"] };
    return fc.tuple(fc.constant(root), fc.constant(presence), fc.constant(openObjects), valueArb(root));
  });

describe("round trip on generated schemas", () => {
  it("decode(encode(x)) deep-equals x for every valid x, member presence included", { timeout: 120_000 }, () => {
    let checked = 0;
    fc.assert(
      fc.property(caseArb, fc.boolean(), ([schema, presence, openObjects, value], factored) => {
        const compiled = compileCodec(schema, { presence, openObjects, factored });
        // A generated schema may be deeper than the target allows: that refusal is the right answer.
        fc.pre(compiled.ok || compiled.error.code !== "target-limit");
        expect(compiled.ok, JSON.stringify(!compiled.ok && compiled.error)).toBe(true);
        if (!compiled.ok) return;
        const codec = compiled.value;
        fc.pre(codec.validate(value).ok);
        const encoded = codec.encode(value);
        if (!encoded.ok && encoded.error.code === "undeclared-member") {
          // Only the "close" policy may refuse a valid value for an undeclared member.
          expect(openObjects).toBe("close");
          return;
        }
        // Integers beyond ±2^53 cannot come back through a JSON text unrounded: refused up front.
        if (!encoded.ok && encoded.error.code === "unsafe-number") return;
        expect(encoded.ok, JSON.stringify(!encoded.ok && encoded.error)).toBe(true);
        if (!encoded.ok) return;
        const decoded = codec.decode(JSON.stringify(encoded.value));
        expect(decoded.ok, JSON.stringify(!decoded.ok && decoded.error)).toBe(true);
        if (decoded.ok) expect(canonical(decoded.value)).toBe(canonical(value));
        checked++;
      }),
      { numRuns: runs(250) },
    );
    expect(checked).toBeGreaterThan(50);
  });
});

/** Byte-level mutations of a valid wire text. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("splice" as const), at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
);

function mutate(
  text: string,
  m: fc.Arbitrary<unknown> extends never ? never : { kind: string; at: number; byte?: number; text?: string },
): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  switch (m.kind) {
    case "flip":
      return text.slice(0, at) + String.fromCharCode(m.byte ?? 0) + text.slice(at + 1);
    case "truncate":
      return text.slice(0, at);
    case "splice":
      return text.slice(0, at) + (m.text ?? "") + text.slice(at);
    default: {
      // Repeat the member that starts after the nearest '{' before `at`.
      const open = text.lastIndexOf("{", at);
      const close = text.indexOf(",", open);
      if (open < 0 || close < 0) return text;
      return `${text.slice(0, close + 1)}${text.slice(open + 1, close + 1)}${text.slice(close + 1)}`;
    }
  }
}

describe("decoding mutated wire text", () => {
  it("returns a typed result, never throws, and accepts only contract-valid values", { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        ([schema, presence, openObjects, value], ms) => {
          const compiled = compileCodec(schema, { presence, openObjects });
          if (!compiled.ok) return;
          const codec = compiled.value;
          fc.pre(codec.validate(value).ok);
          const encoded = codec.encode(value);
          fc.pre(encoded.ok);
          if (!encoded.ok) return;
          let text = JSON.stringify(encoded.value);
          for (const m of ms) text = mutate(text, m);
          const decoded = codec.decode(text);
          if (decoded.ok) expect(codec.validate(decoded.value).ok).toBe(true);
          else expect(typeof decoded.error.code).toBe("string");
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
