/** Optional members in each of their three forms, through the object construct that carries them. */
import { describe, expect, test } from "vitest";
import { wireOf } from "../../src/constructs/compile/registry.js";
import { childrenOf, isIdentity } from "../../src/constructs/registry.js";
import type { ObjectNode } from "../../src/ir/nodes.js";
import { decode, encode, int, optional, required, roundTrip, str, wire, wireContext } from "./support.js";

const object = (...fields: ObjectNode["fields"]): ObjectNode => ({ kind: "object", fields, schema: {} });

describe("presence: absent and present are two different wire values", () => {
  test("tagged: {state: absent} | {state: present, value}", () => {
    const node = object(optional("n", int, "tagged"));
    expect(roundTrip(node, {})).toEqual({ wire: { n: { state: "absent" } }, back: { ok: true, value: {} } });
    expect(roundTrip(node, { n: 1 })).toEqual({
      wire: { n: { state: "present", value: 1 } },
      back: { ok: true, value: { n: 1 } },
    });
    const wctx = wireContext();
    const shape = wireOf(node, wctx);
    expect(shape).toMatchObject({ required: ["n"], additionalProperties: false });
    expect(Object.keys(wctx.extraDefs)).toEqual(["strictwire_absent"]);
  });

  test("compact: null means absent", () => {
    const node = object(optional("s", str, "compact"));
    expect(roundTrip(node, {})).toEqual({ wire: { s: null }, back: { ok: true, value: {} } });
    expect(roundTrip(node, { s: "x" })).toEqual({ wire: { s: "x" }, back: { ok: true, value: { s: "x" } } });
    expect(wire(node)).toMatchObject({ properties: { s: { anyOf: [{ type: "string" }, { type: "null" }] } } });
  });

  test("native: the member is left out", () => {
    const node = object(optional("s", str, "native"));
    expect(roundTrip(node, {})).toEqual({ wire: {}, back: { ok: true, value: {} } });
    expect(wire(node)).toMatchObject({ required: [] });
  });

  test("a tag that lies, or a missing member, is a wire-violation at the member", () => {
    const node = object(optional("n", int, "tagged"), required("r", str));
    expect(decode(node, { n: { state: "present" }, r: "x" })).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/n" },
    });
    expect(decode(node, { n: { state: "absent" } })).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/r", message: "required and missing" },
    });
    expect(encode(node, {})).toMatchObject({ ok: false, error: { code: "invalid-value", path: "/r" } });
  });
});

describe("presence without an extra level: inline tags, and the minimal spelling", () => {
  const settings = object(required("tz", str), optional("theme", str, "tagged"));

  test("inline: a closed object's tag sits among its own members", () => {
    const node = object(optional("s", settings, "inline"));
    expect(roundTrip(node, {})).toEqual({ wire: { s: { state: "absent" } }, back: { ok: true, value: {} } });
    expect(roundTrip(node, { s: { tz: "UTC" } })).toEqual({
      wire: { s: { state: "present", tz: "UTC", theme: { state: "absent" } } },
      back: { ok: true, value: { s: { tz: "UTC" } } },
    });
    const present = (wire(node).properties as Record<string, { anyOf: Record<string, unknown>[] }>).s?.anyOf[1];
    // The present form is the object itself with `state` first: one object level, not two.
    expect(present).toMatchObject({ type: "object", required: ["state", "tz", "theme"], additionalProperties: false });
    expect(Object.keys(present?.properties as object)).toEqual(["state", "tz", "theme"]);
  });

  test("inline: an absent tag with members, or a present one missing a member, is a wire-violation at the member", () => {
    const node = object(optional("s", settings, "inline"));
    for (const bad of [
      { state: "absent", tz: "UTC" },
      { state: "present" },
      { tz: "UTC", theme: { state: "absent" } },
    ]) {
      expect(decode(node, { s: bad }), JSON.stringify(bad)).toMatchObject({
        ok: false,
        error: { code: "wire-violation" },
      });
    }
  });

  test("inline keeps __proto__ among the members as data", () => {
    const proto = object(required("__proto__", str));
    const node = object(optional("s", proto, "inline"));
    const given = JSON.parse('{"s":{"state":"present","__proto__":"x"}}');
    const out = decode(node, given);
    expect(out.ok && Object.hasOwn((out.value as { s: object }).s, "__proto__")).toBe(true);
  });

  test("minimal: {} for absent, {value} for present, and the object itself inline", () => {
    const tagged = object({ ...optional("n", int, "tagged"), tags: "minimal" });
    expect(roundTrip(tagged, {})).toEqual({ wire: { n: {} }, back: { ok: true, value: {} } });
    expect(roundTrip(tagged, { n: 1 })).toEqual({ wire: { n: { value: 1 } }, back: { ok: true, value: { n: 1 } } });
    expect(decode(tagged, { n: { value: 1, state: "present" } })).toMatchObject({ ok: false });
    const inline = object({ ...optional("s", settings, "inline"), tags: "minimal" });
    expect(roundTrip(inline, {})).toEqual({ wire: { s: {} }, back: { ok: true, value: {} } });
    expect(roundTrip(inline, { s: { tz: "UTC", theme: "dark" } })).toEqual({
      wire: { s: { tz: "UTC", theme: { state: "present", value: "dark" } } },
      back: { ok: true, value: { s: { tz: "UTC", theme: "dark" } } },
    });
    const wctx = wireContext();
    wireOf(tagged, wctx);
    expect(Object.keys(wctx.extraDefs)).toEqual(["strictwire_empty"]);
  });
});

describe("object: only declared members travel", () => {
  const node = object(required("a", str), optional("b", int));

  test("an undeclared member is refused both ways", () => {
    expect(encode(node, { a: "x", z: 1 })).toMatchObject({
      ok: false,
      error: { code: "undeclared-member", path: "/z" },
    });
    expect(decode(node, { a: "x", b: { state: "absent" }, z: 1 })).toMatchObject({
      ok: false,
      error: { code: "wire-violation", path: "/z" },
    });
  });

  test("members are its children, each with its field; identity only with every member required and identity", () => {
    expect(childrenOf(node).map((c) => [c.at, c.field?.name, c.node])).toEqual([
      ["a", "a", str],
      ["b", "b", int],
    ]);
    expect(isIdentity(node, {})).toBe(false);
    expect(isIdentity(object(required("a", str)), {})).toBe(true);
  });
});
