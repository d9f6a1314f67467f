import { describe, expect, it } from "vitest";
import {
  applyPatch,
  BUILTIN_ARMS,
  judge,
  quantile,
  redundantWrites,
  type Scenario,
  schedule,
  wilson,
} from "../src/index.js";

const scenario: Scenario = {
  id: "s",
  workflow: "w",
  category: "null",
  instruction: "Clear the time zone.",
  state: { timezone: "Europe/Paris", theme: "dark", labels: { env: "prod" } },
};

describe("applying a patch under the policy", () => {
  it("absent keeps, null clears, objects merge, anything else replaces", () => {
    expect(applyPatch(scenario.state, { timezone: null, labels: { team: "x", env: null }, theme: "light" })).toEqual({
      theme: "light",
      labels: { team: "x" },
    });
  });

  it("a write of the stored value, or a clear of nothing, is redundant", () => {
    expect(
      redundantWrites(scenario.state, { theme: "dark", timezone: "UTC", labels: { env: "prod", gone: null } }),
    ).toEqual(["/theme", "/labels/env", "/labels/gone"]);
  });
});

const tool = { name: "t", parameters: {} };

describe("which writes are redundant", () => {
  const labelled = { resource_id: "vm-42", labels: { env: "prod", team: "payments" } };
  const schema = {
    type: "object",
    properties: {
      resource_id: { type: "string" },
      labels: { type: "object", additionalProperties: { type: ["string", "null"] } },
      channel: { $ref: "#/$defs/channel" },
    },
    required: ["resource_id"],
    $defs: {
      channel: {
        oneOf: [
          {
            type: "object",
            properties: { type: { const: "email" }, address: { type: "string" } },
            required: ["type", "address"],
          },
        ],
      },
    },
  };
  it("a member the contract requires is never redundant: it names the resource", () => {
    const patch = { resource_id: "vm-42", labels: { owner: "alice" } };
    expect(redundantWrites(labelled, patch)).toEqual(["/resource_id"]);
    expect(redundantWrites(labelled, patch, { schema })).toEqual([]);
  });
  it("a member the oracle's answer writes was asked for, whatever was stored", () => {
    const patch = { resource_id: "vm-42", labels: { env: "prod", team: "checkout" } };
    expect(redundantWrites(labelled, patch, { schema })).toEqual(["/labels/env"]);
    expect(redundantWrites(labelled, patch, { schema, needed: { labels: { env: "prod" } } })).toEqual([]);
  });
  it("requirement is read through a local $ref and a union's branches", () => {
    const state = { resource_id: "vm-42", channel: { type: "email", address: "a@example.com" } };
    const patch = { resource_id: "vm-42", channel: { type: "email", address: "b@example.com" } };
    expect(redundantWrites(state, patch)).toEqual(["/resource_id", "/channel/type"]);
    expect(redundantWrites(state, patch, { schema })).toEqual([]);
  });
  it("a malformed $ref names nothing and does not throw", () => {
    const broken = { type: "object", properties: { x: { $ref: "#/%E0%A4%A" } } };
    expect(redundantWrites({ x: { a: 1 } }, { x: { a: 1 } }, { schema: broken })).toEqual(["/x/a"]);
  });
});

describe("judging one attempt", () => {
  const clear = { action: "update" as const, arguments: { timezone: null } };
  it("exact arguments, presence included, are correct", () => {
    expect(
      judge(scenario, tool, clear, { calls: 1, toolName: "t", decoded: { ok: true, value: { timezone: null } } }),
    ).toMatchObject({
      correct: true,
      finalStateRight: true,
    });
  });
  it("a clear written as an omission is wrong, and so is the final state", () => {
    expect(judge(scenario, tool, clear, { calls: 1, toolName: "t", decoded: { ok: true, value: {} } })).toMatchObject({
      actionRight: true,
      argsExact: false,
      finalStateRight: false,
      correct: false,
    });
  });
  it("a clarification counts only with a non-empty question", () => {
    const ask = { action: "clarify" as const };
    const seen = (text: string) => ({ calls: 1, toolName: "ask_clarification", argumentsText: text });
    expect(judge(scenario, tool, ask, seen('{"question":"Which one?"}')).correct).toBe(true);
    expect(judge(scenario, tool, ask, seen('{"question":"  "}')).correct).toBe(false);
    expect(judge(scenario, tool, ask, seen('{"question":"a","question":"b"}')).correct).toBe(false);
  });
  it("an undecodable update is not correct and leaves the state wrong", () => {
    expect(
      judge(scenario, tool, clear, {
        calls: 1,
        toolName: "t",
        decoded: { ok: false, code: "wire-violation", message: "" },
      }),
    ).toMatchObject({
      action: "update",
      correct: false,
      finalStateRight: false,
    });
  });
});

describe("statistics and schedule", () => {
  it("the Wilson interval matches the textbook value", () => {
    const { low, high } = wilson(9, 10);
    expect(low).toBeCloseTo(0.5958, 4);
    expect(high).toBeCloseTo(0.9821, 4);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
  it("quantiles are nearest-rank", () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBeUndefined();
  });
  it("the same seed gives the same interleaved schedule; each repetition is one full round", () => {
    const scenarios = ["a", "b", "c", "d"].map((id) => ({ ...scenario, id }));
    const arms = BUILTIN_ARMS.slice(0, 3);
    const one = schedule(arms, scenarios, 2, 42).map((p) => p.key);
    expect(schedule(arms, scenarios, 2, 42).map((p) => p.key)).toEqual(one);
    expect(schedule(arms, scenarios, 2, 43).map((p) => p.key)).not.toEqual(one);
    expect(new Set(one).size).toBe(24);
    expect(one.slice(0, 12).every((k) => k.endsWith("|0"))).toBe(true);
    // Interleaved: the first round does not run one arm's trials back to back.
    expect(new Set(one.slice(0, 4).map((k) => k.split("|")[0])).size).toBeGreaterThan(1);
  });
});
