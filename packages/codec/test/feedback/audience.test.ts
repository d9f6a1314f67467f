/**
 * Each error's feedback is worded for whoever must act on it: a refused
 * call for the model, a refused schema for its author, a bad option, value
 * or bundle for the calling program. Facts, never whole strings.
 */
import { compile, compileCodec, loadBundle } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { toIssue } from "../../src/input/library-validation.js";

const MODEL_WORDS = /tool call|call the tool|correct the arguments/i;

function refusal(schema: unknown, options: Parameters<typeof compile>[1] = {}) {
  const compiled = compile(schema, options);
  if (compiled.ok) throw new Error("expected a compile refusal");
  return compiled.error;
}

describe("compile errors speak to the schema's author", () => {
  it("a remote $ref says where in the schema and that the document goes in resources", () => {
    const error = refusal({
      type: "object",
      properties: { owner: { $ref: "https://example.test/user.json" } },
    });
    expect(error.code).toBe("remote-ref");
    expect(error.feedback).not.toMatch(MODEL_WORDS);
    expect(error.feedback).toContain("The schema cannot be compiled");
    expect(error.feedback).toContain("/properties/owner in the schema");
    expect(error.feedback).toContain("resources");
  });

  it("an unsafe pattern says to rewrite it in linear-time syntax", () => {
    const error = refusal({ type: "object", properties: { a: { type: "string", pattern: "^(a)\\1$" } } });
    expect(error.code).toBe("unsafe-pattern");
    expect(error.feedback).not.toMatch(MODEL_WORDS);
    expect(error.feedback).toContain("/properties/a");
    expect(error.feedback).toMatch(/backreferences/);
  });

  it("a schema that is not a schema is refused at its root, for its author", () => {
    const error = refusal(42);
    expect(error.code).toBe("invalid-schema");
    expect(error.feedback).not.toMatch(MODEL_WORDS);
    expect(error.feedback).toContain("root of the schema");
  });

  it("a target limit points into the wire schema, not the source", () => {
    let inner: Record<string, unknown> = { type: "string" };
    for (let k = 0; k < 12; k++) {
      inner = { type: "object", properties: { n: inner }, required: ["n"], additionalProperties: false };
    }
    const error = refusal(inner, { target: "openai" });
    expect(error.code).toBe("target-limit");
    expect(error.feedback).toContain("in the wire schema");
    expect(error.feedback).not.toMatch(MODEL_WORDS);
  });
});

describe("the calling program's own mistakes speak to it", () => {
  it("an unknown option names the option, never the model", () => {
    const error = refusal({ type: "object" }, { target: "nowhere" as never });
    expect(error.code).toBe("invalid-options");
    expect(error.feedback).toContain('"nowhere"');
    expect(error.feedback).not.toMatch(MODEL_WORDS);
  });

  it("a bundle that is not a bundle says to compile again", () => {
    const loaded = loadBundle("[]");
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.code).toBe("invalid-bundle");
    expect(loaded.error.feedback).toMatch(/compile the schema again/i);
  });
});

describe("a refused call still speaks to the model", () => {
  it("a parse error says what to send", () => {
    const codec = compileCodec({ type: "object", properties: { a: { type: "string" } } });
    if (!codec.ok) throw new Error(codec.error.message);
    const decoded = codec.value.decode("{not json");
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.error.code).toBe("invalid-json");
    expect(decoded.error.feedback).toMatch(/arguments were rejected/);
  });
});

describe("issue paths are steps, not re-parsed strings", () => {
  it('a library issue at an array index and one at a member named "0" stay apart', () => {
    const index = toIssue({ message: "bad", path: ["rows", 0, "sku"] });
    const member = toIssue({ message: "bad", path: ["rows", "0", "sku"] });
    expect(index.path).toBe(member.path);
    expect(index.at).toEqual(["rows", 0, "sku"]);
    expect(member.at).toEqual(["rows", "0", "sku"]);
  });
});
