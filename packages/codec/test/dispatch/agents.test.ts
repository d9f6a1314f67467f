/** strictTool without the SDK: the FunctionTool shape, decoding the raw text, feedback on refusal. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileCodec, strictTool } from "../../src/index.js";

describe("strictTool", () => {
  const received: unknown[] = [];
  const made = strictTool({
    name: "set_alarm",
    description: "Set an alarm",
    parameters: z.object({ at: z.string(), label: z.string().optional() }),
    execute: (args) => {
      received.push(args);
      return "set";
    },
  });

  it("gives the wire schema with strict: true", () => {
    if (!made.ok) throw new Error(made.error.message);
    expect(made.value.strict).toBe(true);
    expect(made.value.parameters).toStrictEqual(made.value.codec.wire);
    // An object root is the wire value itself: the tool's own members, every one required.
    expect(made.value.parameters.required).toEqual(["at", "label"]);
  });

  it("runs execute with the decoded value, an absent .optional() member staying absent", async () => {
    if (!made.ok) throw new Error(made.error.message);
    const out = await made.value.invoke({}, '{"at":"07:00","label":{"state":"absent"}}');
    expect(out).toBe("set");
    expect(received.at(-1)).toStrictEqual({ at: "07:00" });
  });

  it("answers a refused call with the feedback and never runs execute", async () => {
    if (!made.ok) throw new Error(made.error.message);
    const before = received.length;
    const out = await made.value.invoke({}, '{"at":"07:00","at":"08:00","label":{"state":"absent"}}');
    expect(out).toMatch(/duplicate-key at \/at\)/);
    expect(received.length).toBe(before);
  });

  it("refuses a codec compiled for another target, as a value", () => {
    const codec = compileCodec({ type: "object" }, { target: "anthropic" });
    if (!codec.ok) throw new Error(codec.error.message);
    const made = strictTool({ name: "t", description: "d", parameters: codec.value, execute: () => "x" });
    expect(made.ok === false && made.error.code).toBe("invalid-options");
  });
});
