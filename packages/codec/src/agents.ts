/**
 * `strictTool` for the OpenAI Agents SDK, from a schema or a codec: the
 * compile side of dispatch/agents.ts, which holds the tool itself and
 * imports nothing of the compiler.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type CompileOptions, compileCodec } from "./compile.js";
import { type AgentToolOptions, agentTool, type StrictFunctionTool } from "./dispatch/agents.js";
import type { Result } from "./errors.js";
import { Codec } from "./public-codec.js";

export type {
  AgentCallDetails,
  AgentGuardrailOutput,
  AgentInputGuardrail,
  AgentInputGuardrailData,
  AgentOutputGuardrail,
  AgentOutputGuardrailData,
  AgentToolCall,
  StrictFunctionTool,
} from "./dispatch/agents.js";

export interface StrictToolOptions<S, T> extends AgentToolOptions<T> {
  /** A Zod 4 schema, any Standard JSON Schema, a JSON Schema, or a compiled codec. */
  readonly parameters: S;
  /** Compile options besides name and description (target stays openai: the Agents SDK speaks the Responses API). */
  readonly compile?: Omit<CompileOptions, "name" | "description" | "target">;
}

export type OutputOf<S> =
  S extends Codec<infer T> ? T : S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown;

export function strictTool<S>(options: StrictToolOptions<S, OutputOf<S>>): Result<StrictFunctionTool<OutputOf<S>>> {
  type T = OutputOf<S>;
  const compiled =
    options.parameters instanceof Codec
      ? { ok: true as const, value: options.parameters as Codec<T> }
      : compileCodec<T>(options.parameters, {
          ...options.compile,
          name: options.name,
          description: options.description,
          target: "openai",
        });
  if (!compiled.ok) return compiled;
  return agentTool(compiled.value, options);
}
