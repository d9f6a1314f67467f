/**
 * aiSdkSourceInput's rewriting, part by part (the real SDK run is
 * examples/test/stream-ai-sdk.test.ts): the rewritten deltas of a call
 * concatenate to the JSON text of its partial source value, its last
 * containers open, closed at tool-input-end; one character at a time.
 */
import { type AiSdkRefusal, type AiSdkStreamPart, aiSdkSourceInput, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

function codecOf(schema: Record<string, unknown>) {
  const compiled = compileCodec(schema);
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

/** The parts a provider streams for one call whose input text is `text`, one delta per UTF-16 unit. */
function callParts(text: string, toolName = "tool"): AiSdkStreamPart[] {
  const parts: AiSdkStreamPart[] = [
    { type: "start-step" },
    { type: "tool-input-start", id: "c1", toolName },
    ...text.split("").map((delta) => ({ type: "tool-input-delta", id: "c1", delta })),
    { type: "tool-input-end", id: "c1" },
  ];
  // A part the transform does not read passes whole: its other fields too.
  const toolCall = { type: "tool-call", toolCallId: "c1", toolName, input: { decoded: true } };
  return [...parts, toolCall];
}

async function run(
  parts: AiSdkStreamPart[],
  transform: ReturnType<typeof aiSdkSourceInput>,
): Promise<AiSdkStreamPart[]> {
  const out: AiSdkStreamPart[] = [];
  const source = new ReadableStream<AiSdkStreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const reader = source.pipeThrough(transform({ stopStream: () => undefined })).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
  return out;
}

const deltas = (parts: AiSdkStreamPart[]) =>
  parts.flatMap((p) => (p.type === "tool-input-delta" && "delta" in p ? [p.delta] : []));

describe("aiSdkSourceInput", () => {
  it("keeps a map's members in the order written, integer-like names too (JSON.stringify would move them)", async () => {
    const codec = codecOf({ type: "object", additionalProperties: { type: "string" } });
    const value = { b: "first", "1": "second" };
    // The model wrote "b" first.
    const wire = '{"arguments":[{"key":"b","value":"first"},{"key":"1","value":"second"}]}';
    expect(codec.decode(wire)).toEqual({ ok: true, value });
    const out = await run(callParts(wire), aiSdkSourceInput({ tool: codec }));
    const text = deltas(out).join("");
    expect(text).toBe('{"b":"first","1":"second"}');
    expect(JSON.parse(text)).toEqual(value);
    // Each delta extends the last: the entry's value is shown as it is written.
    expect(deltas(out)).toEqual(["{", '"b":"', ..."first", '","1":"', ..."second", '"}']);
  });

  it("refuses a map key given twice at its key, and sends nothing more for that call", async () => {
    const codec = codecOf({ type: "object", additionalProperties: { type: "string" } });
    const wire = '{"arguments":[{"key":"a","value":"x"},{"key":"a","value":"yz"}]}';
    const refusals: AiSdkRefusal[] = [];
    const out = await run(callParts(wire), aiSdkSourceInput({ tool: codec }, { onRefusal: (r) => refusals.push(r) }));
    // The first entry's value stays shown; the second entry's key ends the call's deltas.
    expect(deltas(out).join("")).toBe('{"a":"x');
    expect(refusals).toEqual([
      { toolCallId: "c1", toolName: "tool", error: expect.objectContaining({ code: "duplicate-entry", path: "/a" }) },
    ]);
    expect(codec.decode(wire)).toMatchObject({ ok: false, error: { code: "duplicate-entry", path: "/a" } });
    // The tool-call part still passes: the SDK's tool error comes from decode there.
    expect(out.at(-1)).toMatchObject({ type: "tool-call", toolCallId: "c1" });
  });

  it("writes nested values as they grow: each partial's text extends the last, and the whole is the value", async () => {
    const codec = codecOf({
      type: "object",
      properties: {
        notes: {
          type: "array",
          items: {
            type: "object",
            properties: { title: { type: "string" }, lines: { type: "array", items: { type: "string" } } },
            required: ["title", "lines"],
            additionalProperties: false,
          },
        },
        n: { type: "number" },
      },
      required: ["notes", "n"],
      additionalProperties: false,
    });
    const value = {
      notes: [
        { title: 'a "b"', lines: ["x\ny", "", "zz"] },
        { title: "c", lines: [] },
      ],
      n: 12.5,
    };
    const wire = codec.encode(value);
    if (!wire.ok) throw new Error(wire.error.message);
    const out = await run(callParts(JSON.stringify(wire.value)), aiSdkSourceInput({ tool: codec }));
    expect(JSON.parse(deltas(out).join(""))).toEqual(value);
    expect(deltas(out).length).toBeGreaterThan(20);
  });

  it("never sends half a surrogate pair", async () => {
    const codec = codecOf({ type: "object", properties: { s: { type: "string" } }, required: ["s"] });
    // Written raw, the pair arrives in two deltas; written escaped, in two escapes.
    for (const text of ['{"s":"a😀b"}', '{"s":"a\\ud83d\\ude00b"}']) {
      const out = await run(callParts(text), aiSdkSourceInput({ tool: codec }));
      expect(deltas(out).join("")).toBe('{"s":"a😀b"}');
      expect(deltas(out).some((d) => /\\u/.test(d))).toBe(false);
    }
  });

  it("shows an absent member as absent and a present one by its value", async () => {
    const codec = codecOf({
      type: "object",
      properties: { to: { type: "string" }, cc: { type: "string" }, note: { type: "string" } },
      required: ["to"],
      additionalProperties: false,
    });
    const wire = codec.encode({ to: "ada", note: "hi" });
    if (!wire.ok) throw new Error(wire.error.message);
    const text = JSON.stringify(wire.value);
    expect(text).toContain('"state"');
    const out = await run(callParts(text), aiSdkSourceInput({ tool: codec }));
    expect(deltas(out).join("")).toBe('{"to":"ada","note":"hi"}');
    // Other parts pass as they are, the tool-call's input included.
    expect(out.filter((p) => p.type !== "tool-input-delta")).toEqual(
      callParts(text).filter((p) => p.type !== "tool-input-delta"),
    );
  });

  it("stops sending deltas at an early refusal, reported once", async () => {
    const codec = codecOf({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const refusals: AiSdkRefusal[] = [];
    const text = '{"a":"x" "b" ... more text';
    const out = await run(callParts(text), aiSdkSourceInput({ tool: codec }, { onRefusal: (r) => refusals.push(r) }));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ toolCallId: "c1", toolName: "tool" });
    const final = codec.decode(text);
    if (final.ok) throw new Error("the text decodes");
    expect(refusals[0]?.error.code).toBe(final.error.code);
    // What was sent is the value before the break, and nothing closes it afterwards.
    expect(deltas(out).join("")).toBe('{"a":"x');
  });

  it("leaves a text-encoded call and a tool with no codec as they are", async () => {
    const codec = codecOf({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const parts = callParts('{"a":"x"}', "other");
    expect(await run(parts, aiSdkSourceInput({ tool: codec }))).toEqual(parts);
    const textCall = callParts('{"a":"x"}').map((p) =>
      p.type === "tool-input-start" ? { ...p, inputEncoding: "text" as const } : p,
    );
    expect(await run(textCall, aiSdkSourceInput({ tool: codec }))).toEqual(textCall);
  });
});
