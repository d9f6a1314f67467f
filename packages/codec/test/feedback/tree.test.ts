/**
 * A refused call's issues: a tree whose failed unions keep every branch,
 * paths as steps in the original value's terms, and a parse error placed
 * at the member it happened in. The failing texts are the codec's own
 * encoding of a valid value with one edit, so they follow the wire as it is.
 */
import { compileCodec, errorJson, type Issue } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { CHANNEL } from "./support.js";

const schema = {
  type: "object",
  properties: {
    channel: CHANNEL,
    rows: {
      type: "array",
      items: { type: "object", properties: { qty: { type: "integer", minimum: 1 } }, required: ["qty"] },
    },
    meta: { type: "object", additionalProperties: { type: "integer", minimum: 0 } },
  },
  required: ["channel"],
  additionalProperties: false,
};

const compiled = compileCodec(schema, { name: "notify" });
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;

/** The arguments object inside a wire value, wrapped or not. */
function argsOf(wire: unknown): Record<string, unknown> {
  const w = wire as Record<string, unknown>;
  const keys = Object.keys(w);
  return keys.length === 1 && keys[0] === "arguments" ? (w.arguments as Record<string, unknown>) : w;
}

/** Encode a valid value, edit its wire form, decode the text: the refusal. */
function refusedAfter(value: Record<string, unknown>, edit: (args: Record<string, unknown>) => void) {
  const encoded = codec.encode(value);
  if (!encoded.ok) throw new Error(encoded.error.message);
  const wire = structuredClone(encoded.value) as unknown;
  edit(argsOf(wire));
  const decoded = codec.decode(JSON.stringify(wire));
  if (decoded.ok) throw new Error("expected a refusal");
  return decoded.error;
}

function refusedText(value: Record<string, unknown>, rewrite: (text: string) => string) {
  const encoded = codec.encode(value);
  if (!encoded.ok) throw new Error(encoded.error.message);
  const decoded = codec.decode(rewrite(JSON.stringify(encoded.value)));
  if (decoded.ok) throw new Error("expected a refusal");
  return decoded.error;
}

function unions(tree: readonly Issue[]): Issue[] {
  return tree.flatMap((i) => [...(i.branches ? [i] : []), ...(i.branches ?? []).flatMap((b) => unions(b))]);
}

/** Whatever wraps the phone number on the wire (a presence tag or none), set it. */
function setTo(channel: unknown, to: string): void {
  const c = channel as Record<string, unknown>;
  if ("to" in c) c.to = to;
  else setTo(c.value, to);
}

describe("the issue tree", () => {
  it("a failed union keeps each branch's issues and marks the branch the model meant", () => {
    const error = refusedAfter({ channel: { type: "sms", to: "+15550100" } }, (a) =>
      setTo(a.channel, "(415) 555-0123"),
    );
    const union = unions(error.tree ?? []).find((u) => u.path === "/channel");
    expect(union?.branches?.length).toBe(2);
    expect(union?.chosen).toBe(1);
    const meant = union?.branches?.[1] ?? [];
    expect(meant.some((i) => i.path === "/channel/to" && i.keyword === "pattern")).toBe(true);
    // The shown issues are the meant branch's, not the email branch's.
    expect(error.issues?.[0]?.path).toBe("/channel/to");
    expect(error.feedback).toContain("^\\+[0-9]{7,15}$");
  });

  it('paths are steps: an array index is a number, a map key "0" a string', () => {
    const atIndex = refusedAfter({ channel: { type: "sms", to: "+15550100" }, rows: [{ qty: 2 }] }, (a) => {
      const text = JSON.stringify(a.rows).replace('"qty":2', '"qty":0');
      a.rows = JSON.parse(text);
    });
    expect(atIndex.issues?.[0]?.at).toEqual(["rows", 0, "qty"]);
    const atKey = refusedAfter({ channel: { type: "sms", to: "+15550100" }, meta: { "0": 3 } }, (a) => {
      const text = JSON.stringify(a.meta).replace(":3", ":-3");
      a.meta = JSON.parse(text);
    });
    expect(atKey.issues?.[0]?.at).toEqual(["meta", "0"]);
    expect(atKey.issues?.[0]?.path).toBe("/meta/0");
  });

  it("--json prints the tree for a validator's findings and no issues for a parse error", () => {
    const error = refusedAfter({ channel: { type: "sms", to: "+15550100" } }, (a) => setTo(a.channel, "x"));
    const json = errorJson(error);
    expect(json.issues?.some((i) => i.branches !== undefined && i.chosen === 1)).toBe(true);
    const parse = codec.decode("{");
    expect(parse.ok).toBe(false);
    if (!parse.ok) expect(errorJson(parse.error)).not.toHaveProperty("issues");
  });
});

describe("a parse error in the original value's terms", () => {
  it("a duplicate key inside an array item of an optional member is placed at the member", () => {
    const error = refusedText({ channel: { type: "sms", to: "+15550100" }, rows: [{ qty: 2 }] }, (t) =>
      t.replace('"qty":2', '"qty":2,"qty":3'),
    );
    expect(error.code).toBe("duplicate-key");
    expect(error.path).toBe("/rows/0/qty");
    expect(error.tree?.[0]?.at).toEqual(["rows", 0, "qty"]);
    expect(error.feedback).toContain("/rows/0/qty");
    expect(error.feedback).not.toContain("/value");
  });
});

describe("a refusal of the walk itself (the wire schema cannot see it)", () => {
  // A map of arrays of maps: a repeated key deep inside is a duplicate entry the wire schema allows.
  const nested = compileCodec(
    {
      type: "object",
      properties: {
        m: {
          type: "object",
          additionalProperties: { type: "array", items: { type: "object", additionalProperties: { type: "integer" } } },
        },
      },
      required: ["m"],
    },
    { name: "nested" },
  );
  if (!nested.ok) throw new Error(nested.error.message);
  const codec = nested.value;

  it('carries its path as steps: a map key "0" stays a string, an array index is a number', () => {
    const wire = codec.encode({ m: { "0": [{ a: 1 }, { "0": 1, b: 2 }] } });
    if (!wire.ok) throw new Error(wire.error.message);
    // Repeat the inner map's entry "0" (the second element of the array under key "0").
    const text = JSON.stringify(wire.value).replace(
      '{"key":"0","value":1}',
      '{"key":"0","value":1},{"key":"0","value":3}',
    );
    expect(text).toContain('{"key":"0","value":3}');
    const generated = codec.decode(text);
    if (generated.ok) throw new Error("a repeated entry was accepted");
    expect(generated.error.code).toBe("duplicate-entry");
    expect(generated.error.path).toBe("/m/0/1/0");
    expect(generated.error.issues?.[0]?.at).toStrictEqual(["m", "0", 1, "0"]);
    expect(generated.error.tree?.[0]?.at).toStrictEqual(["m", "0", 1, "0"]);
    // The reference walk words the same refusal.
    expect(codec.decode(text, { interpreted: true })).toStrictEqual(generated);
  });

  it("an encode refusal carries the same issues, with steps", () => {
    const refused = codec.encode({ m: { "0": [{ a: "x" }] } });
    if (refused.ok) throw new Error("a value breaking the schema was encoded");
    expect(refused.error.code).toBe("invalid-value");
    expect(refused.error.issues?.[0]?.at).toStrictEqual(["m", "0", 0, "a"]);
    expect(refused.error.tree?.length).toBeGreaterThan(0);
  });
});
