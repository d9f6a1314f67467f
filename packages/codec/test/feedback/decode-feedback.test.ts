/**
 * Decode feedback names the cause: the alternative the model meant, the
 * member in the original value's terms, the rule with its bound, the value.
 * Each test states facts, never a whole string.
 */
import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { CHANNEL } from "./support.js";

const schema = {
  type: "object",
  properties: {
    title: { type: "string" },
    milestone: { type: "integer", minimum: 1 },
    priority: { type: "string", enum: ["low", "medium", "high"] },
    channel: CHANNEL,
  },
  required: ["title", "channel"],
  additionalProperties: false,
};

function refuse(args: Record<string, unknown>) {
  const compiled = compileCodec(schema);
  if (!compiled.ok) throw new Error(compiled.error.message);
  const result = compiled.value.decode(JSON.stringify(args));
  if (result.ok) throw new Error("expected a refusal");
  return result.error;
}

const good = {
  title: "t",
  milestone: { state: "present", value: 3 },
  priority: { state: "absent" },
  channel: { type: "sms", to: "+351912345678" },
};

describe("decode feedback", () => {
  it("diagnoses the value of a present tag, not the absent form", () => {
    const e = refuse({ ...good, milestone: { state: "present", value: 0 } });
    expect(e.code).toBe("wire-violation");
    expect(e.path).toBe("/milestone");
    expect(e.feedback).toContain(">= 1");
    expect(e.feedback).toContain("got 0");
    expect(e.feedback).not.toContain('must be "absent"');
    expect(e.feedback).not.toContain("/arguments");
  });

  it("echoes a malformed tag's state and shows both forms", () => {
    const e = refuse({ ...good, milestone: { state: "missing" } });
    expect(e.feedback).toContain('"missing"');
    expect(e.feedback).toContain('{"state":"absent"}');
    expect(e.feedback).toContain('{"state":"present","value":');
    expect(e.issues?.[0]?.path).toBe("/milestone");
  });

  it("says a presence tag is due where a bare value was sent, with the value wrapped", () => {
    const e = refuse({ ...good, milestone: 3 });
    expect(e.feedback).toContain('{"state":"present","value":3}');
    expect(e.feedback).toContain('{"state":"absent"}');
  });

  it("names the enum's values and the value written inside a present tag", () => {
    const e = refuse({ ...good, priority: { state: "present", value: "critical" } });
    expect(e.feedback).toContain('"critical"');
    for (const v of ["low", "medium", "high"]) expect(e.feedback).toContain(v);
    expect(e.issues?.[0]?.path).toBe("/priority");
  });

  it("diagnoses the union branch whose discriminator the model wrote", () => {
    const e = refuse({ ...good, channel: { type: "sms", to: "(415) 555-0123" } });
    expect(e.issues?.map((i) => i.path)).toEqual(["/channel/to"]);
    expect(e.feedback).toContain("^\\+[0-9]{7,15}$");
    expect(e.feedback).toContain("(415) 555-0123");
    expect(e.feedback).not.toContain("email");
  });

  it("lists every branch's discriminator value when the model wrote none of them", () => {
    const e = refuse({ ...good, channel: { type: "slack", to: "#ops" } });
    expect(e.issues?.map((i) => i.path)).toEqual(["/channel/type"]);
    for (const v of ['"slack"', '"email"', '"sms"']) expect(e.feedback).toContain(v);
  });

  it("names an undeclared member by its original path and lists the declared ones", () => {
    const e = refuse({ ...good, severity: "high" });
    expect(e.issues?.[0]?.path).toBe("/severity");
    expect(e.feedback).toContain("milestone");
    expect(e.feedback).toContain("priority");
  });

  it("says how to leave out an optional member that was left out", () => {
    const { priority: _left, ...rest } = good;
    const e = refuse(rest);
    expect(e.issues?.[0]?.path).toBe("/priority");
    expect(e.feedback).toContain('{"state":"absent"}');
  });

  it("names a parse error's member in the original value's terms in the feedback", () => {
    const compiled = compileCodec(schema);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const text = '{"title":"t","milestone":{"state":"present","value":3},"priority":{"state":"present","value":"lo';
    const result = compiled.value.decode(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.feedback).toContain("/priority)");
    expect(result.error.feedback).not.toContain("/arguments");
  });

  it("keeps the feedback within 700 characters and says how many issues are left out", () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra_member_number_${i}`, i]));
    const e = refuse({ ...good, ...many });
    expect(e.feedback.length).toBeLessThanOrEqual(700);
    expect(e.feedback).toMatch(/and \d+ more/);
    expect(e.issues?.length).toBe(40);
  });

  it("says which tag the rest of the value fits when only the tag is wrong", () => {
    const e = refuse({ ...good, channel: { type: "email", to: "+351912345678" } });
    expect(e.feedback).toContain('"type":"sms"');
    expect(e.issues?.some((i) => i.path === "/channel/type")).toBe(true);
  });

  it("names an undeclared member inside a union branch by its own path", () => {
    const e = refuse({ ...good, channel: { type: "sms", to: "+351912345678", body: "hi" } });
    expect(e.issues?.map((i) => i.path)).toEqual(["/channel/body"]);
    expect(e.feedback).toContain("type, to");
  });
});

describe("map feedback", () => {
  const mapSchema = {
    type: "object",
    properties: {
      metadata: {
        type: "object",
        propertyNames: { maxLength: 8, pattern: "^[a-z]+$" },
        additionalProperties: { type: "string" },
      },
    },
    required: ["metadata"],
    additionalProperties: false,
  };

  function refuseMap(text: string) {
    const compiled = compileCodec(mapSchema);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const result = compiled.value.decode(text);
    if (result.ok) throw new Error("expected a refusal");
    return result.error;
  }

  it("names the key a key rule rejects", () => {
    const e = refuseMap('{"metadata":[{"key":"waytoolongkey","value":"x"}]}');
    expect(e.feedback).toContain("waytoolongkey");
    expect(e.feedback).toContain("more than 8");
    expect(e.feedback).not.toContain("property name must be valid");
  });

  it("shows the entries form to a map written as a plain object", () => {
    const e = refuseMap('{"metadata":{"crm":"x"}}');
    expect(e.issues?.[0]?.path).toBe("/metadata");
    expect(e.feedback).toContain('"key"');
    expect(e.feedback).toContain('"value"');
  });
});
