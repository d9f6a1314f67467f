/**
 * Lone surrogates and the generated decoder's fast path: it checks the
 * strings it reads instead of the whole text, and checks the whole text
 * where that would not be the same (an escaped surrogate that may pair with
 * a raw one, a plan naming something with a lone surrogate). Each text gets
 * the verdict and the value of the reference path.
 */
import { compileCodec } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const HIGH = "\ud83d";
const LOW = "\ude00";

function codecOf(schema: unknown) {
  const compiled = compileCodec(schema, { name: "t" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

const tool = codecOf({
  type: "object",
  properties: {
    note: { type: "string" },
    tags: { type: "object", additionalProperties: { type: "string" } },
    extra: {},
  },
  required: ["note"],
});

// A value with a lone surrogate in the plan (member names cannot have one: the schema does not compile).
const oddEnum = codecOf({ type: "object", properties: { e: { enum: [`a${HIGH}`, "b"] } }, required: ["e"] });

const samePaths = (codec: ReturnType<typeof codecOf>, text: string) => {
  const generated = codec.decode(text);
  expect(generated, JSON.stringify(text)).toStrictEqual(codec.decode(text, { interpreted: true }));
  return generated;
};

describe("lone surrogates on the generated decoder's path", () => {
  it("a raw lone surrogate in a string value, a map key or an any-JSON value is refused as the reference refuses it", () => {
    for (const text of [
      `{"note":"x${HIGH}y","tags":{"state":"absent"},"extra":{"state":"absent"}}`,
      `{"note":"${LOW}","tags":{"state":"absent"},"extra":{"state":"absent"}}`,
      `{"note":"x","tags":{"state":"present","value":[{"key":"k${HIGH}","value":"v"}]},"extra":{"state":"absent"}}`,
      `{"note":"x","tags":{"state":"absent"},"extra":{"state":"present","value":"${HIGH}"}}`,
    ]) {
      expect(samePaths(tool, text).ok, JSON.stringify(text)).toBe(false);
    }
  });

  it("a raw high surrogate before an escaped low one is refused, though the parsed string is well formed", () => {
    const text = `{"note":"${HIGH}\\ude00","tags":{"state":"absent"},"extra":{"state":"absent"}}`;
    expect(JSON.parse(text).note.isWellFormed()).toBe(true);
    expect(samePaths(tool, text).ok).toBe(false);
  });

  it("a well-formed pair, raw or escaped, decodes to the same value on both paths", () => {
    for (const note of [`${HIGH}${LOW}`, "\\ud83d\\ude00"]) {
      const r = samePaths(tool, `{"note":"${note}","tags":{"state":"absent"},"extra":{"state":"absent"}}`);
      expect(r).toStrictEqual({ ok: true, value: { note: "😀" } });
    }
  });

  it("a plan that names a lone surrogate keeps the whole-text check", () => {
    expect(samePaths(oddEnum, `{"e":"a${HIGH}"}`).ok).toBe(false);
    samePaths(oddEnum, '{"e":"a\\ud83d"}');
    expect(samePaths(oddEnum, '{"e":"b"}')).toStrictEqual({ ok: true, value: { e: "b" } });
  });

  it("any text built from strings with surrogates, raw or escaped, gets the reference's verdict", () => {
    const piece = fc.constantFrom("a", "é", "😀", HIGH, LOW, "\\ud83d", "\\ude00", '\\"', ":");
    const str = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
    fc.assert(
      fc.property(str, str, str, (note, key, value) => {
        const text = `{"note":"${note}","tags":{"state":"present","value":[{"key":"${key}","value":"${value}"}]},"extra":{"state":"present","value":{"${key}":"${value}"}}}`;
        samePaths(tool, text);
      }),
      { numRuns: 2000 },
    );
  });
});
