/**
 * The explicit way out for a tool over a provider's limits as written:
 * `strict: "auto"` compiles it to be sent with strict mode off, says so in the
 * bundle (`nonStrict`), the tool definition (`strict: false`) and the tool-set
 * check, and decode still holds every call to the original schema.
 */
import { checkToolSet, compile, compileCodec, loadBundle, toolDefinition, toolSetAdvisories } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { canonical } from "../../testkit/same.js";

/** Objects nested `levels` deep, each with a leaf string: past OpenAI's 10 levels at 11. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = {
    type: "object",
    properties: { leaf: { type: "string", minLength: 2 } },
    required: ["leaf"],
    additionalProperties: false,
  };
  for (let i = 1; i < levels; i++) {
    schema = { type: "object", properties: { down: schema }, required: ["down"], additionalProperties: false };
  }
  return schema;
}

function nestedValue(levels: number, leaf: string): unknown {
  let value: unknown = { leaf };
  for (let i = 1; i < levels; i++) value = { down: value };
  return value;
}

describe('strict: "auto"', () => {
  it("is off by default: a tool over a limit is refused", () => {
    const r = compile(nested(11), { name: "deep" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("target-limit");
  });

  it("sends a tool over a limit with strict mode off, and decode still holds calls to the original schema", () => {
    const compiled = compileCodec(nested(11), { name: "deep", strict: "auto" });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const codec = compiled.value;
    const bundle = codec.bundle;
    expect(bundle.nonStrict?.limit).toBe("maxNesting");
    expect(bundle.nonStrict?.reason).toMatch(/levels of object nesting/);
    const def = toolDefinition(bundle, "openai-responses");
    expect(def.ok && def.value.strict).toBe(false);
    const chat = toolDefinition(bundle, "openai-chat");
    expect(chat.ok && chat.value.function.strict).toBe(false);

    const value = nestedValue(11, "ok");
    const encoded = codec.encode(value);
    if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
    const decoded = codec.decode(JSON.stringify(encoded.value));
    expect(decoded.ok && canonical(decoded.value)).toBe(canonical(value));
    const refused = codec.decode(JSON.stringify(nestedValue(11, "x")));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe("contract-violation");

    // The bundle carries it through a file: digest and shape hold.
    const loaded = loadBundle(JSON.stringify(bundle));
    expect(loaded.ok && loaded.value.bundle.nonStrict).toEqual(bundle.nonStrict);
    const tampered = loadBundle(JSON.stringify({ ...bundle, nonStrict: undefined }));
    expect(tampered.ok).toBe(false);
  });

  it("changes nothing for a tool within the limits", () => {
    const a = compile(nested(3), { name: "shallow", strict: "auto" });
    const b = compile(nested(3), { name: "shallow" });
    if (!a.ok || !b.ok) throw new Error("compile");
    expect(a.value.nonStrict).toBeUndefined();
    expect(a.value).toEqual(b.value);
    const def = toolDefinition(a.value, "anthropic");
    expect(def.ok).toBe(false); // compiled for openai
    const anthropic = compile(nested(3), { name: "shallow", target: "anthropic", strict: "auto" });
    if (!anthropic.ok) throw new Error("compile");
    const tool = toolDefinition(anthropic.value, "anthropic");
    expect(tool.ok && tool.value.strict).toBe(true);
  });

  it("is reported by the tool-set check, which holds only strict tools to the strict limits", () => {
    const deep = compile(nested(11), { name: "deep", strict: "auto" });
    const shallow = compile(nested(3), { name: "shallow" });
    if (!deep.ok || !shallow.ok) throw new Error("compile");
    expect(checkToolSet([deep.value, shallow.value], "openai")).toEqual([]);
    const advice = toolSetAdvisories([deep.value, shallow.value], "openai");
    expect(advice.map((a) => a.kind)).toEqual(["nonStrict"]);
    expect(advice[0]!.message).toMatch(/^deep is sent with strict mode OFF/);
  });

  it("refuses an unknown policy as invalid options", () => {
    const r = compile(nested(2), { strict: "sometimes" as never });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("invalid-options");
  });
});
