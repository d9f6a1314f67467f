/**
 * Prototype safety: decoding hostile input never touches Object.prototype or
 * any decoded object's prototype chain, and keys such as __proto__ round-trip
 * as own data members.
 */
import { compileCodec, parseJson } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { plainJsonProblem, prototypesIntact } from "../../../../scripts/fuzz/oracle.js";
import { canonical } from "../../testkit/same.js";
import { allHostileCases, codecFor, rawInput } from "./support.js";

const NASTY_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
];

/** Every object in a value: its prototype is Object.prototype and each key an own data member. */
function expectPlain(value: unknown): void {
  expect(plainJsonProblem(value)).toBeUndefined();
}

describe("after decoding the whole hostile corpus", () => {
  it("Object.prototype and the other built-in prototypes are exactly as they were", { timeout: 120_000 }, () => {
    const probe: Record<string, unknown> = {};
    for (const { schema, options, case: c } of allHostileCases()) codecFor(schema, options).decode(rawInput(c));
    expect(prototypesIntact()).toBe(true);
    expect(probe.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  });
});

describe("hostile keys accepted as data", () => {
  const schema = JSON.parse(`{
    "type": "object",
    "properties": {
      "constructor": { "type": "integer" },
      "prototype": { "type": "object", "properties": { "toString": { "type": "string" } }, "required": ["toString"] },
      "labels": { "type": "object", "additionalProperties": { "type": ["string", "null"] } },
      "payload": {},
      "open": { "type": "object", "properties": { "a": { "type": "string" } } }
    },
    "required": ["constructor"]
  }`) as unknown;

  const value = JSON.parse(`{
    "constructor": 3,
    "prototype": { "toString": "not a function" },
    "labels": { "__proto__": "p", "constructor": "c", "prototype": null, "toString": "t", "valueOf": "v", "hasOwnProperty": "h", "__defineGetter__": "g" },
    "payload": { "__proto__": { "__proto__": [ { "constructor": { "prototype": { "polluted": true } } } ] }, "isAdmin": false },
    "open": { "a": "x", "__proto__": { "isAdmin": true } }
  }`) as Record<string, unknown>;

  for (const openObjects of ["close", "preserve"] as const) {
    it(`round-trip as own members, never as prototypes (openObjects ${openObjects})`, () => {
      const compiled = compileCodec(schema, { openObjects });
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
      const codec = compiled.value;
      const input: Record<string, unknown> = JSON.parse(JSON.stringify(value));
      // Under "close" an undeclared member cannot travel; only "preserve" carries `open`'s extra member.
      if (openObjects === "close") delete input.open;
      const encoded = codec.encode(input);
      if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
      const decoded = codec.decode(JSON.stringify(encoded.value));
      if (!decoded.ok) throw new Error(JSON.stringify(decoded.error));
      const out = decoded.value as Record<string, Record<string, unknown>>;
      expect(canonical(out)).toBe(canonical(input));
      expectPlain(out);
      for (const k of NASTY_KEYS) expect(Object.hasOwn(out.labels!, k), k).toBe(true);
      expect(Object.getPrototypeOf(out.labels)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(out.labels, "__proto__")?.value).toBe("p");
      expect(typeof out.labels!.toString).toBe("string");
      expect(Object.hasOwn(out.payload!, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(out.payload)).toBe(Object.prototype);
      expect((out.payload as Record<string, unknown>).isAdmin).toBe(false);
      if (openObjects === "preserve") {
        expect(Object.hasOwn(out.open!, "__proto__")).toBe(true);
        expect((out.open as Record<string, unknown>).isAdmin).toBeUndefined();
      }
      expect(prototypesIntact()).toBe(true);
    });
  }

  it("the parser keeps __proto__ an own member, at every depth, -0 normalised without touching prototypes", () => {
    const parsed = parseJson('{"__proto__":{"a":-0,"__proto__":{"polluted":true}},"b":[{"__proto__":null}]}');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expectPlain(parsed.value);
    const root = parsed.value as Record<string, Record<string, unknown>>;
    expect(Object.hasOwn(root, "__proto__")).toBe(true);
    const inner = Object.getOwnPropertyDescriptor(root, "__proto__")?.value as Record<string, unknown>;
    expect(Object.is(inner.a, 0)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypesIntact()).toBe(true);
  });

  it("a value whose members are inherited, or whose prototype is not Object.prototype, does not travel", () => {
    const compiled = compileCodec(schema);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const inherited = Object.create({ constructor: 1 }) as Record<string, unknown>;
    expect(compiled.value.encode(inherited).ok).toBe(false);
    class Args {
      constructor() {
        Object.defineProperty(this, "constructor", { value: 1, enumerable: true });
      }
    }
    expect(compiled.value.encode(new Args()).ok).toBe(false);
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: 1 });
    // A null prototype is plain data: accepted, and decoded back as an ordinary object.
    const encoded = compiled.value.encode(nullProto);
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
    const back = compiled.value.decode(JSON.stringify(encoded.value));
    expect(back.ok && Object.getPrototypeOf(back.value)).toBe(Object.prototype);
  });

  it("an already parsed value with an own __proto__ member decodes like its text", () => {
    const compiled = compileCodec(schema);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const text =
      '{"constructor":1,"prototype":{"state":"absent"},"labels":{"state":"present","value":[{"key":"__proto__","value":"x"}]},"payload":{"state":"absent"},"open":{"state":"absent"}}';
    const fromText = compiled.value.decode(text);
    const fromValue = compiled.value.decode(JSON.parse(text));
    expect(fromText.ok).toBe(true);
    expect(fromValue.ok).toBe(true);
    if (fromText.ok && fromValue.ok) expect(canonical(fromValue.value)).toBe(canonical(fromText.value));
  });
});
