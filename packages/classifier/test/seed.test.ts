/**
 * Every case of the seed's two test files (Python and JavaScript), ported.
 * The Python cases assert the TypeScript wording where the two languages
 * differ: "string" for str, "integer" for int, "boolean" for bool, "array"
 * for list, and JSON quoting ("gbp") for Python's repr ('gbp').
 */
import { describe, expect, test } from "vitest";
import {
  classify,
  declaredTools,
  functionCalls,
  parseArguments,
  repairLines,
  schemaViolations,
  type ToolCall,
  wasTruncated,
} from "../src/index.js";

const CHARGE = {
  type: "object",
  additionalProperties: false,
  required: ["account_id", "amount_cents", "currency"],
  properties: {
    account_id: { type: "string" },
    amount_cents: { type: "integer" },
    currency: { type: "string", enum: ["usd", "eur"] },
  },
};

interface Options {
  name?: string;
  strict?: boolean;
  status?: string;
}

function response(args: unknown, { name = "charge", strict = true, status = "completed" }: Options = {}) {
  return {
    id: "resp_t",
    status,
    incomplete_details: undefined as unknown,
    tools: [{ type: "function", name: "charge", parameters: CHARGE, strict }],
    output: [{ type: "function_call", name, call_id: "call_1", arguments: args }],
  };
}

function firstCall(stored: unknown): ToolCall {
  const call = functionCalls(stored)[0];
  if (!call) throw new Error("the fixture has no call");
  return call;
}

const BAD_CHARGE = '{"account_id": "acct_9", "amount_cents": "1200", "currency": "gbp", "idempotency_key": "k1"}';
const GOOD_CHARGE = '{"account_id": "acct_9", "amount_cents": 1200, "currency": "usd"}';

const LEGACY = {
  choices: [
    {
      finish_reason: "tool_calls",
      message: { tool_calls: [{ id: "call_9", type: "function", function: { name: "ping", arguments: "" } }] },
    },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "ping",
        strict: true,
        parameters: { type: "object", additionalProperties: false, properties: {}, required: [] },
      },
    },
  ],
};

const ROWS_SCHEMA = {
  type: "object",
  properties: { rows: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } } },
};

describe("seed, Python test file", () => {
  test("arguments that parse and still break the contract", () => {
    // The centre of the note: the parser is perfectly happy; the handler is
    // not, and no amount of care around the parse would have caught it.
    const stored = response(BAD_CHARGE);
    const call = firstCall(stored);
    const parsed = parseArguments(call.arguments);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && typeof parsed.value).toBe("object");

    const { state, detail } = classify(call, declaredTools(stored));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toContain("amount_cents: expected integer, got string");
    expect(detail).toContain('currency: "gbp" is not one of the 2 declared value(s)');
    expect(detail).toContain("idempotency_key: not declared");
    expect(repairLines(state)[0]).toContain("feed the validation error back to the model");
  });

  test("a missing required argument is found before the handler is called", () => {
    const stored = response('{"account_id": "acct_9", "currency": "usd"}');
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toContain("arguments.amount_cents: required and missing");
  });

  test("a cut argument string belongs to the truncation note", () => {
    const stored = response('{"account_id": "acct_9", "amount_cent', { status: "incomplete" });
    stored.incomplete_details = { reason: "max_output_tokens" };
    expect(wasTruncated(stored)).toBe(true);
    const { state, detail } = classify(firstCall(stored), declaredTools(stored), wasTruncated(stored));
    expect(state).toBe("arguments-truncated");
    expect(detail).toContain("cut mid-write rather than written wrongly");
    expect(repairLines(state)[0]).toContain("Not a schema problem");
  });

  test("a broken string on a completed response is the model's own work", () => {
    const stored = response('{{"account_id": "acct_9"}}');
    expect(wasTruncated(stored)).toBe(false);
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("arguments-unparseable");
    expect(detail).toContain("nothing was constraining the grammar");
  });

  test("an unknown tool name is a lookup error, not a parse error", () => {
    const stored = response('{"account_id": "acct_9"}', { name: "charge_v2" });
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("unknown-tool");
    expect(detail).toContain("indexes a handler map by name raises here");
    expect(repairLines(state)[1]).toContain("renamed on one side only");
  });

  test("a valid call is dispatchable and an unstrict one is flagged anyway", () => {
    const stored = response(GOOD_CHARGE);
    expect(classify(firstCall(stored), declaredTools(stored)).state).toBe("dispatchable");

    const loose = response(GOOD_CHARGE, { strict: false });
    const { state, detail } = classify(firstCall(loose), declaredTools(loose));
    expect(state).toBe("dispatchable-unconstrained");
    expect(detail).toContain("nothing guaranteed that it would");
  });

  test("the Chat Completions shape and the empty argument string", () => {
    const call = firstCall(LEGACY);
    expect(call.name === "ping" && call.callId === "call_9").toBe(true);
    // A tool that takes nothing is legally called with an empty string, and a
    // bare JSON.parse throws on it.
    expect(parseArguments("")).toEqual({ ok: true, value: {} });
    expect(classify(call, declaredTools(LEGACY)).state).toBe("dispatchable");
  });

  test("the walker and the readers survive junk", () => {
    const absent = parseArguments(null);
    expect(absent.ok || absent.error.message).toBe("the arguments field is absent");
    const list = parseArguments("[1, 2]");
    expect(list.ok || list.error.message).toBe("arguments parsed to array, not an object");
    expect(schemaViolations({ a: 1 }, null)).toEqual([]);
    expect(schemaViolations({ a: 1 }, {})).toEqual([]);
    expect(schemaViolations(true, { type: "integer" })).toEqual(["arguments: expected integer, got boolean"]);
    expect(schemaViolations({ rows: [{ sku: 1 }] }, ROWS_SCHEMA)).toEqual([
      "arguments.rows[0].sku: expected string, got integer",
    ]);
    expect(functionCalls(null)).toEqual([]);
    expect(declaredTools(null)).toEqual(new Map());
    expect(wasTruncated(null)).toBe(false);
  });
});

describe("seed, JavaScript test file", () => {
  test("arguments that parse and still break the contract", () => {
    const stored = response(BAD_CHARGE);
    const call = firstCall(stored);
    const parsed = parseArguments(call.arguments);
    expect(parsed.ok ? null : parsed.error).toBeNull();
    expect(parsed.ok && typeof parsed.value).toBe("object");

    const { state, detail } = classify(call, declaredTools(stored));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toMatch(/amount_cents: expected integer, got string/);
    expect(detail).toMatch(/currency: "gbp" is not one of the 2 declared value\(s\)/);
    expect(detail).toMatch(/idempotency_key: not declared/);
    expect(repairLines(state)[0]).toMatch(/feed the validation error back to the model/);
  });

  test("a missing required argument is found before the handler is called", () => {
    const stored = response('{"account_id": "acct_9", "currency": "usd"}');
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toMatch(/arguments\.amount_cents: required and missing/);
  });

  test("a cut argument string belongs to the truncation note", () => {
    const stored = response('{"account_id": "acct_9", "amount_cent', { status: "incomplete" });
    stored.incomplete_details = { reason: "max_output_tokens" };
    expect(wasTruncated(stored)).toBe(true);
    const { state, detail } = classify(firstCall(stored), declaredTools(stored), wasTruncated(stored));
    expect(state).toBe("arguments-truncated");
    expect(detail).toMatch(/cut mid-write rather than written wrongly/);
    expect(repairLines(state)[0]).toMatch(/Not a schema problem/);
  });

  test("a broken string on a completed response is the model own work", () => {
    const stored = response('{{"account_id": "acct_9"}}');
    expect(wasTruncated(stored)).toBe(false);
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("arguments-unparseable");
    expect(detail).toMatch(/nothing was constraining the grammar/);
  });

  test("an unknown tool name is a lookup error not a parse error", () => {
    const stored = response('{"account_id": "acct_9"}', { name: "charge_v2" });
    const { state, detail } = classify(firstCall(stored), declaredTools(stored));
    expect(state).toBe("unknown-tool");
    expect(detail).toMatch(/indexes a handler map by name raises here/);
    expect(repairLines(state)[1]).toMatch(/renamed on one side only/);
  });

  test("a valid call is dispatchable and an unstrict one is flagged anyway", () => {
    const stored = response(GOOD_CHARGE);
    expect(classify(firstCall(stored), declaredTools(stored)).state).toBe("dispatchable");

    const loose = response(GOOD_CHARGE, { strict: false });
    const { state, detail } = classify(firstCall(loose), declaredTools(loose));
    expect(state).toBe("dispatchable-unconstrained");
    expect(detail).toMatch(/nothing guaranteed that it would/);
  });

  test("the chat completions shape and the empty argument string", () => {
    const call = firstCall(LEGACY);
    expect(call.name).toBe("ping");
    expect(call.callId).toBe("call_9");
    expect(parseArguments("")).toEqual({ ok: true, value: {} });
    expect(classify(call, declaredTools(LEGACY)).state).toBe("dispatchable");
  });

  test("the walker and the readers survive junk", () => {
    const absent = parseArguments(null);
    expect(absent.ok ? undefined : absent.error.message).toBe("the arguments field is absent");
    const list = parseArguments("[1, 2]");
    expect(list.ok ? undefined : list.error.message).toBe("arguments parsed to array, not an object");
    expect(schemaViolations({ a: 1 }, null)).toEqual([]);
    expect(schemaViolations({ a: 1 }, {})).toEqual([]);
    expect(schemaViolations(true, { type: "integer" })).toEqual(["arguments: expected integer, got boolean"]);
    expect(schemaViolations({ rows: [{ sku: 1 }] }, ROWS_SCHEMA)).toEqual([
      "arguments.rows[0].sku: expected string, got integer",
    ]);
    expect(functionCalls(null)).toEqual([]);
    expect(declaredTools(null).size).toBe(0);
    expect(wasTruncated(null)).toBe(false);
  });
});
