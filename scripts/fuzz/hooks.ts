/**
 * The hooks target: what the adapters hand a caller's code agrees with
 * decode, for valid and mutated wire texts of the pool's codecs.
 * - AI SDK: `aiSdkMiddleware` seals a call's text so the SDK's own parse gives
 *   it back whole, and the tool's schema (`aiSdkInputSchema`) then accepts
 *   exactly what `codec.decode(text)` accepts, with the same value.
 * - Agents SDK: a tool's `invoke` runs `execute` only with decode's value (and
 *   answers with decode's feedback otherwise); its `needsApproval` calls the
 *   caller's policy only with the decoded value, and asks for approval when
 *   the arguments do not decode.
 */
import { aiSdkInputSchema, aiSdkMiddleware, type Codec, type Result } from "@strictwire/codec";
import fc from "fast-check";
import { agentTool } from "../../packages/codec/src/dispatch/agents.js";
import { canonical } from "../../packages/codec/testkit/same.js";
import { repro, thrownSignature } from "./findings.js";
import { Dice, mutateText } from "./mutate.js";
import type { PoolEntry } from "./pool.js";
import type { Runnable, TargetContext } from "./targets.js";

type HookCase = { entry: number; wire: number; rolls: number[]; count: number };

const arbitrary = fc.record({
  entry: fc.nat(),
  wire: fc.nat(),
  rolls: fc.array(fc.nat(), { minLength: 6, maxLength: 16 }),
  // 0: the valid wire as it is.
  count: fc.integer({ min: 0, max: 3 }),
});

const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

function outcomeOf(r: Result<unknown>): string {
  return r.ok ? `ok ${canonical(r.value).slice(0, 80)}` : `${r.error.code} at ${r.error.path}`;
}

async function middlewareProblems(codec: Codec, text: string, decoded: Result<unknown>): Promise<string[]> {
  const middleware = aiSdkMiddleware({ t: codec });
  const call = { type: "tool-call", toolCallId: "c", toolName: "t", input: text };
  // biome-ignore lint/suspicious/noExplicitAny: a minimal doGenerate result, as the SDK's model hands it
  const result = await middleware.wrapGenerate!({ doGenerate: async () => ({ content: [call] }) } as any);
  const sealed = (result as { content: { input: unknown }[] }).content[0]!.input;
  // An empty text is left to the SDK (it reads it as {}): nothing to check.
  if (text.trim() === "") return [];
  if (typeof sealed !== "string") return [`sealed input is a ${typeof sealed}`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(sealed);
  } catch {
    return ["the sealed input is not JSON"];
  }
  if (parsed !== text) return ["the SDK's parse of the sealed input is not the model's text"];
  const validated = await aiSdkInputSchema(codec)["~standard"].validate(parsed);
  const accepted = validated.issues === undefined;
  if (accepted !== decoded.ok)
    return [`the AI SDK tool ${accepted ? "accepts" : "refuses"} what decode ${outcomeOf(decoded)}`];
  if (accepted && decoded.ok && !same((validated as { value: unknown }).value, decoded.value)) {
    return ["the AI SDK tool's value differs from decode's"];
  }
  return [];
}

async function agentProblems(codec: Codec, text: string, decoded: Result<unknown>): Promise<string[]> {
  const out: string[] = [];
  const executed: unknown[] = [];
  const asked: unknown[] = [];
  const tool = agentTool(codec, {
    name: "t",
    description: "fuzzed",
    execute: async (input: unknown) => {
      executed.push(input);
      return "done";
    },
    needsApproval: async (_ctx: unknown, input: unknown) => {
      asked.push(input);
      return false;
    },
  });
  if (!tool.ok) return [`agentTool refused: ${tool.error.message}`];
  const answer = await tool.value.invoke({}, text);
  if (decoded.ok) {
    if (executed.length !== 1 || !same(executed[0], decoded.value))
      out.push("invoke did not run execute with decode's value");
    if (answer !== "done") out.push("invoke did not answer with execute's result");
  } else {
    if (executed.length !== 0) out.push(`execute ran on a text decode refuses (${outcomeOf(decoded)})`);
    if (answer !== decoded.error.feedback) out.push("invoke did not answer with decode's feedback");
  }
  // needsApproval gets the SDK's JSON.parse of the text (the text itself when it is not JSON).
  let sdkInput: unknown = text;
  try {
    sdkInput = JSON.parse(text);
  } catch {
    // The SDK hands the text on as it is.
  }
  const fromParsed = codec.decode(sdkInput);
  const approval = await tool.value.needsApproval({}, sdkInput, "c");
  if (fromParsed.ok) {
    if (asked.length !== 1 || !same(asked[0], fromParsed.value))
      out.push("needsApproval's policy did not get the decoded value");
    if (approval !== false) out.push("needsApproval did not return the policy's answer");
  } else {
    if (asked.length !== 0) out.push("needsApproval's policy was called with arguments that do not decode");
    if (approval !== true) out.push("needsApproval skipped approval for arguments that do not decode");
  }
  return out;
}

export const hooks: Runnable = {
  name: "hooks",
  description:
    "valid and mutated wires through the AI SDK middleware and tool, and the Agents SDK's invoke and needsApproval: hooks see decode's value or nothing",
  weight: 4,
  property(ctx: TargetContext, onCase: (ms: number, input: unknown) => void) {
    return fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, async (raw) => {
      const input = raw as HookCase;
      const start = performance.now();
      const entry: PoolEntry = ctx.pool[input.entry % ctx.pool.length]!;
      const valid = entry.wires[input.wire % Math.max(1, entry.wires.length)];
      if (valid !== undefined) {
        const text = input.count === 0 ? valid : mutateText(valid, new Dice(input.rolls), input.count);
        const context = { schema: entry.id, text };
        try {
          const decoded = entry.codec.decode(text);
          const found = [
            ...(await middlewareProblems(entry.codec, text, decoded)),
            ...(await agentProblems(entry.codec, text, decoded)),
          ];
          for (const problem of found) {
            ctx.findings.record({ target: "hooks", signature: problem, detail: problem, repro: repro(context) });
          }
        } catch (error) {
          ctx.findings.record({
            target: "hooks",
            signature: thrownSignature("adapter hook", error),
            detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
            repro: repro(context),
          });
        }
      }
      onCase(performance.now() - start, input);
      return true;
    });
  },
};
