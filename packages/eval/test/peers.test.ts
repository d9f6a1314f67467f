import { checkToolSet, compile } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { BUNDLED_SUITE, loadPeerArms, loadSuite, type Workflow } from "../src/index.js";

async function workflows(): Promise<Map<string, Workflow>> {
  const suite = await loadSuite(BUNDLED_SUITE);
  if (!suite.ok) expect.unreachable(suite.error.message);
  return new Map(suite.value.workflows);
}

describe("the peer converter arms (installed here as dev dependencies)", () => {
  it("load, run only against OpenAI APIs, and send strict: true with their own conversion", async () => {
    const arms = await loadPeerArms();
    expect(arms.map((a) => a.name)).toEqual(["agents", "mastra"]);
    const flat = (await workflows()).get("flat") as Workflow;
    for (const arm of arms) {
      expect(arm.unavailable("chat")).toBeUndefined();
      expect(arm.unavailable("anthropic")).toMatch(/OpenAI/);
      const prepared = arm.prepare(flat.tool, "chat");
      if (!prepared.ok) expect.unreachable(prepared.error.message);
      expect(prepared.value.tool.strict).toBe(true);
      expect(prepared.value.tool.parameters).not.toEqual(flat.tool.parameters);
      // Every property required, as OpenAI strict mode demands.
      const p = prepared.value.tool.parameters as { properties: object; required: string[] };
      expect([...p.required].sort()).toEqual(Object.keys(p.properties).sort());
    }
  });

  it("the agents conversion fits the OpenAI strict profile for the flat tool", async () => {
    const [agents] = await loadPeerArms();
    const flat = (await workflows()).get("flat") as Workflow;
    const prepared = agents?.prepare(flat.tool, "chat");
    const bundle = compile(flat.tool.parameters, { name: flat.tool.name });
    if (!prepared?.ok || !bundle.ok) expect.unreachable();
    expect(checkToolSet([{ ...bundle.value, wire: prepared.value.tool.parameters }], "openai")).toEqual([]);
  });

  it("decode is the converter's normaliser, then the original contract", async () => {
    const quota = (await workflows()).get("quota") as Workflow;
    for (const arm of await loadPeerArms()) {
      const prepared = arm.prepare(quota.tool, "chat");
      if (!prepared.ok) expect.unreachable(prepared.error.message);
      expect(await prepared.value.decode('{"user_id":"u-17","quota":350}')).toEqual({
        ok: true,
        value: { user_id: "u-17", quota: 350 },
      });
      const over = await prepared.value.decode('{"user_id":"u-17","quota":5000}');
      expect(over.ok, arm.name).toBe(false);
      expect(await prepared.value.decode('{"user_id":"u-17","user_id":"x","quota":1}')).toMatchObject({
        ok: false,
        error: { code: "duplicate-key" },
      });
    }
  });
});
