import { describe, expect, test } from "vitest";
import { classify, declaredTools, functionCalls, parseArguments, repairLines, type ToolCall } from "../src/index.js";

const TRANSFER = {
  type: "object",
  additionalProperties: false,
  required: ["amount", "currency"],
  properties: { amount: { type: "integer" }, currency: { type: "string" } },
};

const stored = (args: string, truncated = false) => ({
  id: "resp_dup",
  status: truncated ? "incomplete" : "completed",
  incomplete_details: truncated ? { reason: "max_output_tokens" } : null,
  tools: [{ type: "function", name: "transfer", parameters: TRANSFER, strict: true }],
  output: [{ type: "function_call", name: "transfer", call_id: "call_1", arguments: args }],
});

function judge(response: { readonly status: string }, limits = {}) {
  const call = functionCalls(response)[0] as ToolCall;
  return classify(call, declaredTools(response), response.status === "incomplete", { limits });
}

describe("parseArguments", () => {
  test("an already parsed object is accepted as it is", () => {
    const value = { a: 1 };
    const parsed = parseArguments(value);
    expect(parsed.ok && parsed.value).toBe(value);
  });

  test("blank strings are the empty object", () => {
    expect(parseArguments("   \n")).toEqual({ ok: true, value: {} });
  });

  test("a number, an array or a string literal is not an object", () => {
    expect(parseArguments("42")).toMatchObject({ ok: false, error: { code: "not-an-object" } });
    expect(parseArguments(7)).toMatchObject({
      ok: false,
      error: { message: "arguments parsed to integer, not an object" },
    });
    expect(parseArguments('"text"')).toMatchObject({
      ok: false,
      error: { message: "arguments parsed to string, not an object" },
    });
  });

  test("a duplicate key is refused, with the key's path", () => {
    const parsed = parseArguments('{"amount": 5, "amount": 5000}');
    expect(parsed).toMatchObject({ ok: false, error: { code: "duplicate-key", path: "/amount" } });
  });
});

describe("bounded parse faults are findings with their own detail", () => {
  test("a duplicate key is arguments-unparseable, naming the key, not a silent last-one-wins", () => {
    const { state, detail, cause } = judge(stored('{"amount": 5, "currency": "usd", "amount": 5000}'));
    expect(state).toBe("arguments-unparseable");
    expect(cause).toBe("duplicate-key");
    expect(detail).toContain("duplicate-key at arguments.amount");
    expect(detail).toContain("JSON.parse keeps the last copy");
    expect(repairLines(state, "transfer", cause).at(-1)).toContain("rejects duplicate keys");
  });

  test("a duplicate key in a nested object is named by its full path", () => {
    const schema = { type: "object", properties: { meta: { type: "object" } } };
    const response = {
      ...stored('{"meta": {"k": 1, "k": 2}}'),
      tools: [{ type: "function", name: "transfer", parameters: schema }],
    };
    expect(judge(response).detail).toContain("duplicate-key at arguments.meta.k");
  });

  test("a duplicate key is still a finding on a truncated response: it parsed as far as it went", () => {
    expect(judge(stored('{"amount": 5, "amount": 6, "curr', true)).state).toBe("arguments-unparseable");
  });

  test("invalid JSON on a truncated response is still the truncation note", () => {
    expect(judge(stored('{"amount": 5, "curr', true)).state).toBe("arguments-truncated");
  });

  test("an argument string over the byte limit is refused", () => {
    const big = JSON.stringify({ amount: 1, currency: "x".repeat(2000) });
    const { state, detail, cause } = judge(stored(big), { maxBytes: 1000 });
    expect(state).toBe("arguments-unparseable");
    expect(cause).toBe("input-too-large");
    expect(detail).toContain("beyond the parser's limits (input-too-large");
    expect(repairLines(state, "transfer", cause).at(-1)).toContain("raise the limits on purpose");
  });

  test("nesting deeper than the limit is refused", () => {
    const deep = `{"amount": 1, "currency": "usd", "x": ${"[".repeat(10)}${"]".repeat(10)}}`;
    expect(judge(stored(deep), { maxDepth: 5 }).cause).toBe("too-deep");
  });

  test("a number beyond the safe integer range is refused rather than rounded", () => {
    const { state, detail } = judge(stored('{"amount": 12345678901234567890, "currency": "usd"}'));
    expect(state).toBe("arguments-unparseable");
    expect(detail).toContain("unsafe-number at arguments.amount");
  });
});
