/**
 * Values that run code when read: an application's or an SDK's object may be a
 * Proxy (a framework's reactive state, one revoked) or have getters. decode of
 * an already parsed value, encode and validate refuse one that throws with a
 * typed error (never the exception), and read each member once: what they
 * check is what they return.
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

const compiled = compileCodec({
  type: "object",
  properties: { a: { type: "string" }, n: { type: "array", items: { type: "integer" } } },
  required: ["a"],
  additionalProperties: false,
});
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;

/** A Proxy each of whose traps throws. */
function throwingProxy(): object {
  const trap = () => {
    throw new Error("trapped");
  };
  return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({ a: "x" }, {});
  revoke();
  return proxy;
}

const throwingGetter = () =>
  Object.defineProperty({}, "a", {
    enumerable: true,
    get() {
      throw new Error("getter");
    },
  });

const cases: Record<string, () => unknown> = {
  "a Proxy whose traps throw": throwingProxy,
  "a revoked Proxy": revoked,
  "a getter that throws": throwingGetter,
  "one nested": () => ({ a: throwingGetter() }),
  "a nested array that is a revoked Proxy": () => ({ a: "x", n: revoked() }),
};

describe("a value that throws when read", () => {
  for (const [name, make] of Object.entries(cases)) {
    it(`decode and encode refuse ${name} with invalid-json, not the exception; validate refuses it`, () => {
      for (const result of [codec.decode(make() as never), codec.encode(make() as never)]) {
        expect(result.ok).toBe(false);
        if (result.ok) continue;
        expect(result.error.code).toBe("invalid-json");
        expect(result.error.message).toMatch(/threw when read/);
      }
      // validate reads what the contract asks for: a member it never reads (an object where a string is due) is
      // a contract violation, one it reads and that throws is refused as decode refuses it.
      const validated = codec.validate(make());
      expect(validated.ok).toBe(false);
      if (!validated.ok) expect(["invalid-json", "contract-violation"]).toContain(validated.error.code);
      if (!validated.ok && validated.error.code === "invalid-json")
        expect(validated.error.message).toMatch(/threw when read/);
    });
  }

  it("decode and encode refuse a Proxy that claims an array length it has not at the node limit, before any room is made", () => {
    const lying = new Proxy([], { get: (t, k) => (k === "length" ? 1e12 : Reflect.get(t, k)) });
    const wire = { a: "x", n: { state: "present", value: lying } };
    expect(codec.decode(wire as never)).toMatchObject({ ok: false, error: { code: "too-many-nodes" } });
    expect(codec.encode({ a: "x", n: lying } as never)).toMatchObject({
      ok: false,
      error: { code: "exceeds-decoder-limits" },
    });
  });

  it("reads each member once: a getter that answers differently each time gives decode and encode one value", () => {
    let reads = 0;
    const shifty = (n: unknown) =>
      Object.defineProperty({ n }, "a", {
        enumerable: true,
        get() {
          reads++;
          return reads % 2 === 1 ? "first" : 42;
        },
      });
    reads = 0;
    expect(codec.decode(shifty({ state: "present", value: [1] }) as never)).toEqual({
      ok: true,
      value: { a: "first", n: [1] },
    });
    expect(reads).toBe(1);
    reads = 0;
    const encoded = codec.encode(shifty([1]) as never);
    expect(encoded).toEqual({ ok: true, value: { a: "first", n: { state: "present", value: [1] } } });
    expect(reads).toBe(1);
  });

  it("a plain value and its text decode alike; a __proto__ member stays data", () => {
    const text = '{"n":{"state":"present","value":[1,2]},"a":"x"}';
    expect(codec.decode(JSON.parse(text))).toEqual(codec.decode(text));
    expect(codec.decode(JSON.parse(text))).toMatchObject({ ok: true });
    // A wire object with an own "__proto__" member (as JSON.parse makes it): read as data, refused as its text is.
    const hostile = '{"a":"x","__proto__":{"polluted":true}}';
    const fromValue = codec.decode(JSON.parse(hostile));
    expect(fromValue.ok).toBe(false);
    if (!fromValue.ok)
      expect(fromValue.error.code).toBe((codec.decode(hostile) as { error: { code: string } }).error.code);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
