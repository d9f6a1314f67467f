/**
 * The peer converters as arms: @openai/agents-core's strict conversion and
 * @mastra/schema-compat's OpenAI path, each with its own normaliser, then the
 * same contract check as control. They are dev dependencies of this package
 * only, loaded through a computed specifier, so the published CLI does not
 * depend on them: where they are not installed the arm says so and is skipped.
 * The calls follow bench/src/converters.ts.
 */
import { compileCodec, parseJson, type Result } from "@strictwire/codec";
import type { Arm, ArmDecodeError, ArmTool } from "./arms.js";
import type { Json, JsonObject, Tool } from "./suite.js";

interface AgentsCore {
  tool(options: Record<string, unknown>): { parameters: unknown };
}
interface AgentsInternal {
  prepareFunctionToolInput(
    tool: unknown,
    input: string,
  ): { result: { success: true; value: unknown } | { success: false; error: unknown } } | undefined;
}
interface StandardLike {
  "~standard": { validate(value: unknown): unknown; jsonSchema: { input(options: { target: string }): unknown } };
}
interface Mastra {
  OpenAISchemaCompatLayer: new (model: unknown) => { processToCompatSchema(schema: unknown): unknown };
  toStandardSchema(schema: unknown): unknown;
}

const load = (specifier: string): Promise<unknown> => import(specifier);
const text = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").slice(0, 200);
const refused = (message: string): { ok: false; error: ArmDecodeError } => ({
  ok: false,
  error: { code: "converter-rejected", message, feedback: message },
});

type Normalise = (wireValue: unknown) => Promise<Result<unknown, ArmDecodeError>>;

/** Bounded parse, the converter's normaliser, then the original contract: the guard every arm gets. */
function guarded(tool: Tool, wire: unknown, normalise: Normalise): Result<ArmTool, ArmDecodeError> {
  const codec = compileCodec(tool.parameters, { name: tool.name });
  if (!codec.ok) return refused(codec.error.message);
  return {
    ok: true,
    value: {
      tool: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: wire as JsonObject,
        strict: true,
      },
      decode: async (argumentsText) => {
        const parsed = parseJson(argumentsText);
        if (!parsed.ok) return { ok: false, error: parsed.error };
        const normalised = await normalise(parsed.value);
        if (!normalised.ok) return normalised;
        const valid = codec.value.validate(normalised.value);
        return valid.ok ? { ok: true, value: valid.value as Json } : { ok: false, error: valid.error };
      },
    },
  };
}

async function standardResult(result: unknown): Promise<Result<unknown, ArmDecodeError>> {
  const r = (await result) as { value?: unknown; issues?: { message: string }[] };
  return r.issues !== undefined
    ? refused(`normaliser rejected it: ${r.issues[0]?.message ?? "invalid"}`)
    : { ok: true, value: r.value };
}

const openaiOnly = (reason: string | undefined) => (api: string) =>
  reason ??
  (api === "anthropic" ? "this converter targets OpenAI strict mode; use --api chat or responses" : undefined);

/** The peer arms; each reports itself unavailable when its package is not installed. */
export async function loadPeerArms(): Promise<Arm[]> {
  let agents: { core: AgentsCore; internal: AgentsInternal } | undefined;
  let mastra: Mastra | undefined;
  try {
    agents = {
      core: (await load("@openai/agents-core")) as AgentsCore,
      internal: (await load("@openai/agents-core/utils/internal")) as AgentsInternal,
    };
  } catch {
    agents = undefined;
  }
  try {
    mastra = (await load("@mastra/schema-compat")) as Mastra;
  } catch {
    mastra = undefined;
  }
  const agentsArm: Arm = {
    name: "agents",
    summary: "@openai/agents-core tool({ strict: true }) conversion and its input parser",
    unavailable: openaiOnly(agents === undefined ? "@openai/agents-core is not installed" : undefined),
    prepare(tool) {
      if (agents === undefined) return refused("@openai/agents-core is not installed");
      try {
        const t = agents.core.tool({
          name: tool.name,
          description: tool.description ?? "",
          parameters: structuredClone(tool.parameters),
          strict: true,
          execute: async () => "",
        });
        const internal = agents.internal;
        return guarded(tool, t.parameters, async (wireValue) => {
          const prepared = internal.prepareFunctionToolInput(t, JSON.stringify(wireValue));
          if (prepared === undefined) return refused("no input parser registered");
          const r = prepared.result;
          return r.success ? { ok: true, value: r.value } : refused(`normaliser rejected it: ${text(r.error)}`);
        });
      } catch (error) {
        return refused(`conversion refused the schema: ${text(error)}`);
      }
    },
  };
  const mastraArm: Arm = {
    name: "mastra",
    summary: "@mastra/schema-compat OpenAISchemaCompatLayer and its validate()",
    unavailable: openaiOnly(mastra === undefined ? "@mastra/schema-compat is not installed" : undefined),
    prepare(tool) {
      if (mastra === undefined) return refused("@mastra/schema-compat is not installed");
      try {
        const layer = new mastra.OpenAISchemaCompatLayer({
          provider: "openai.responses",
          modelId: "gpt-4.1",
          supportsStructuredOutputs: true,
        });
        const compat = layer.processToCompatSchema(
          mastra.toStandardSchema(structuredClone(tool.parameters)),
        ) as StandardLike;
        const wire = compat["~standard"].jsonSchema.input({ target: "draft-07" });
        return guarded(tool, wire, (wireValue) =>
          standardResult(compat["~standard"].validate(structuredClone(wireValue))),
        );
      } catch (error) {
        return refused(`conversion refused the schema: ${text(error)}`);
      }
    },
  };
  return [agentsArm, mastraArm];
}
