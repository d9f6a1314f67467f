import { checkToolSet, compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { BUILTIN_ARMS, describePresence, PRESENCE_NOTE } from "../src/index.js";

const tool = {
  name: "update_settings",
  parameters: {
    type: "object",
    properties: {
      name: { type: ["string", "null"], description: "Display name." },
      nested: { type: "object", properties: { tz: { type: ["string", "null"] } }, additionalProperties: false },
      count: { type: "integer" },
    },
    additionalProperties: false,
  },
};

const arm = (name: string) => BUILTIN_ARMS.find((a) => a.name === name) ?? expect.unreachable(name);

/** The schema with every description removed. */
function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== "description")
      .map(([k, x]) => [k, withoutDescriptions(x)]),
  );
}

describe("the described-presence arm", () => {
  it("adds descriptions to the presence choices and nothing else", () => {
    const tagged = arm("tagged").prepare(tool, "chat");
    const described = arm("tagged-described").prepare(tool, "chat");
    if (!tagged.ok || !described.ok) expect.unreachable();
    expect(described.value.tool.parameters).not.toEqual(tagged.value.tool.parameters);
    expect(withoutDescriptions(described.value.tool.parameters)).toEqual(
      withoutDescriptions(tagged.value.tool.parameters),
    );
    const notes: string[] = [];
    JSON.stringify(described.value.tool.parameters, (k, v: unknown) => {
      if (k === "description" && typeof v === "string" && v.endsWith(PRESENCE_NOTE)) notes.push(v);
      return v;
    });
    expect(notes).toHaveLength(4); // name, nested, nested.tz, count: every optional member
  });

  it("decodes exactly as the tagged arm does, accepted and refused alike", () => {
    const tagged = arm("tagged").prepare(tool, "chat");
    const described = arm("tagged-described").prepare(tool, "chat");
    const codec = compileCodec(tool.parameters, { name: tool.name });
    if (!tagged.ok || !described.ok || !codec.ok) expect.unreachable();
    const values = [{}, { name: null }, { name: "x", nested: { tz: null } }, { count: 3, nested: {} }];
    const texts = [
      ...values.map((v) =>
        JSON.stringify(codec.value.encode(v).ok ? (codec.value.encode(v) as { value: unknown }).value : null),
      ),
      '{"name":null}',
      '{"arguments":',
      '{"arguments":{},"arguments":{}}',
    ];
    for (const text of texts) expect(described.value.decode(text)).toEqual(tagged.value.decode(text));
    expect(values.map((_, i) => described.value.decode(texts[i] as string))).toEqual(
      values.map((v) => ({ ok: true, value: v })),
    );
  });

  it("still fits the OpenAI strict profile", () => {
    const described = arm("tagged-described").prepare(tool, "chat");
    const bundle = compile(tool.parameters, { name: tool.name });
    if (!described.ok || !bundle.ok) expect.unreachable();
    expect(describePresence(bundle.value.wire as never)).toEqual(described.value.tool.parameters);
  });
});

describe("the control arm", () => {
  it("sends the original schema with strict off and checks the contract with the bounded parser", () => {
    const control = arm("control").prepare(tool, "chat");
    if (!control.ok) expect.unreachable();
    expect(control.value.tool).toMatchObject({ parameters: tool.parameters, strict: false });
    expect(control.value.decode('{"name":null}')).toEqual({ ok: true, value: { name: null } });
    expect(control.value.decode('{"name":"a","name":"b"}')).toMatchObject({
      ok: false,
      error: { code: "duplicate-key" },
    });
    expect(control.value.decode('{"count":"3"}')).toMatchObject({ ok: false, error: { code: "contract-violation" } });
  });
});

describe("the native arm", () => {
  it("exists only for Anthropic, and keeps optional members optional there", () => {
    expect(arm("native").unavailable("chat")).toMatch(/anthropic/);
    const native = arm("native").prepare(tool, "anthropic");
    if (!native.ok) expect.unreachable();
    const args = (native.value.tool.parameters.properties as Record<string, { required?: unknown }>).arguments;
    expect(args?.required ?? []).toEqual([]);
    expect(native.value.decode('{"name":null}')).toEqual({ ok: true, value: { name: null } });
    const bundle = compile(tool.parameters, { name: tool.name, target: "anthropic" });
    if (!bundle.ok) expect.unreachable();
    expect(checkToolSet([{ ...bundle.value, wire: native.value.tool.parameters }], "anthropic")).toEqual([]);
  });
});
