/**
 * The generated decoder itself: it takes every valid call of the fixtures
 * (the interpreted path is its fallback, not its everyday), and no name or
 * string in a schema ever becomes code.
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, test } from "vitest";
import { render } from "../../src/code.js";
import { FAIL } from "../../src/constructs/context.js";
import { compileDecoder, generateDecoder } from "../../src/generate/decoder.js";
import { schemaFixtures } from "../../testkit/fixtures.js";
import { canonical } from "../../testkit/same.js";
import { decodeState } from "../constructs/support.js";

const state = decodeState;

describe("the generated decoder", () => {
  test("decodes every fixture's valid calls itself, to the original values", () => {
    let taken = 0;
    for (const fixture of schemaFixtures()) {
      for (const options of [{}, { tags: "minimal" as const }, { presence: "compact" as const }]) {
        const compiled = compileCodec(fixture.schema, { name: "t", ...(fixture.options ?? {}), ...options });
        if (!compiled.ok) throw new Error(compiled.error.message);
        const decode = compileDecoder(compiled.value.bundle.plan);
        for (const value of fixture.valid) {
          const wire = compiled.value.encode(value);
          if (!wire.ok) continue;
          const decoded = decode(JSON.parse(JSON.stringify(wire.value)), state());
          expect(decoded, `${fixture.name} ${JSON.stringify(options)}`).not.toBe(FAIL);
          expect(canonical(decoded)).toBe(canonical(value));
          taken++;
        }
      }
    }
    expect(taken).toBeGreaterThan(300);
  });

  const hostile = [
    '"]);globalThis.pwned=1;//',
    "'+(globalThis.pwned=1)+'",
    // A template literal's substitution, if a name ever reached one.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the attack is this very text
    "`${globalThis.pwned=1}`",
    "*/globalThis.pwned=1;/*",
    "\u2028globalThis.pwned=1\u2029",
    "</script><script>globalThis.pwned=1</script>",
    '\\\\"); globalThis.pwned = 1; ("',
    "constructor",
    "hasOwnProperty",
  ];
  // Compile refuses a declared member named __proto__ (ajv cannot check it); map keys and enum values may be.
  const values = [...hostile, "__proto__"];

  test("names, enum values, discriminators and definition names reach the code only as literals", () => {
    const member = (i: number) => ({
      type: "object",
      properties: { [hostile[i]!]: { type: "string" } },
      required: [hostile[i]!],
    });
    const schema = {
      type: "object",
      $defs: Object.fromEntries(hostile.map((name, i) => [name, member(i)])),
      properties: {
        ...Object.fromEntries(
          hostile.map((name) => [name, { $ref: `#/$defs/${encodeURIComponent(name).replace(/%2F/g, "~1")}` }]),
        ),
        pick: { enum: values },
        either: {
          oneOf: hostile.slice(0, 3).map((tag) => ({
            type: "object",
            properties: { [hostile[0]!]: { const: tag }, [hostile[4]!]: { type: "integer" } },
            required: [hostile[0]!, hostile[4]!],
          })),
        },
        labels: { type: "object", additionalProperties: { enum: values } },
      },
    };
    const compiled = compileCodec(schema, { name: "t" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const source = render(generateDecoder(compiled.value.bundle.plan).code);
    expect(source).not.toContain("\u2028");
    expect(source).not.toContain("</script>");
    const value = {
      ...Object.fromEntries(hostile.map((name, i) => [name, { [hostile[i]!]: name }])),
      pick: "__proto__",
      either: { [hostile[0]!]: hostile[1], [hostile[4]!]: 2 },
      labels: Object.fromEntries(values.map((name) => [name, name])),
    };
    const wire = compiled.value.encode(value as never);
    if (!wire.ok) throw new Error(wire.error.message);
    const decoded = compiled.value.decode(JSON.stringify(wire.value));
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(decoded.ok && canonical(decoded.value)).toBe(canonical(value));
    const decode = compileDecoder(compiled.value.bundle.plan);
    expect(decode(JSON.parse(JSON.stringify(wire.value)), state())).not.toBe(FAIL);
    expect(Object.prototype).not.toHaveProperty("pwned");
  });
});
