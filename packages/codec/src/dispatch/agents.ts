/**
 * OpenAI Agents SDK (`@openai/agents`) adapter, with no import of the SDK:
 * the object `strictTool` returns has the shape of the SDK's FunctionTool
 * (type, name, description, parameters, strict, invoke, needsApproval,
 * isEnabled), so the codec keeps no run-time dependency on the SDK and any
 * release with that shape takes it (checked against 0.20.0).
 *
 *   const agent = new Agent({ name, tools: [strictTool({ name, description, parameters: zodSchema, execute }).value] });
 *
 * The agent gets the strict wire schema with `strict: true`. The SDK hands
 * `invoke` the model's arguments TEXT, so strictwire's bounded parser sees it
 * (duplicate keys, unsafe numbers) before anything else; a refused call
 * answers with the codec's feedback as the tool result, for the model to
 * correct its next call, and `execute` never runs.
 */
import type { Codec } from "../codec.js";
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";

/** The parts of the SDK's FunctionTool strictwire fills in. */
export interface StrictFunctionTool<T> {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    type: "object";
    // biome-ignore lint/suspicious/noExplicitAny: the SDK types parameters as JsonObjectSchema<any>.
    properties: Record<string, any>;
    required: string[];
    additionalProperties: false;
  };
  readonly strict: true;
  invoke(runContext: unknown, input: string, details?: unknown): Promise<unknown>;
  needsApproval(runContext: unknown, input: unknown, callId?: string): Promise<boolean>;
  isEnabled(runContext: unknown, agent: unknown): Promise<boolean>;
  /** The codec behind the tool, for encoding or tests. */
  readonly codec: Codec<T>;
}

/** The tool's own options; `strictTool` (agents.ts) adds the schema and how to compile it. */
export interface AgentToolOptions<T> {
  readonly name: string;
  readonly description: string;
  /** Runs only with arguments strictwire decoded and validated (and the library's own validation passed). */
  readonly execute: (args: T, runContext: unknown, details?: unknown) => unknown;
}

/**
 * The tool over a codec already made (run time: nothing is compiled here).
 * `strictTool` (agents.ts, on the compile side) compiles a schema first.
 */
export function agentTool<T>(codec: Codec<T>, options: AgentToolOptions<T>): Result<StrictFunctionTool<T>> {
  if (codec.bundle.options.target !== "openai") {
    return fail(
      "invalid-options",
      "",
      `tool ${codec.name} was compiled for the ${codec.bundle.options.target} target; the Agents SDK needs "openai"`,
    );
  }
  return ok({
    type: "function",
    name: options.name,
    description: options.description,
    parameters: codec.wire as StrictFunctionTool<T>["parameters"],
    strict: true,
    codec,
    invoke: async (runContext, input, details) => {
      const decoded = codec.decode(input);
      if (!decoded.ok) return decoded.error.feedback;
      return options.execute(decoded.value, runContext, details);
    },
    needsApproval: async () => false,
    isEnabled: async () => true,
  });
}
