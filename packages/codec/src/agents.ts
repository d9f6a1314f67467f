/**
 * `strictTool` for the OpenAI Agents SDK, from a schema or a codec: the
 * compile side of dispatch/agents.ts, which holds the tool itself and
 * imports nothing of the compiler.
 */
import { Codec } from "./codec.js";
import { compileCodec } from "./compile.js";
import { agentTool, type OutputOf, type StrictFunctionTool, type StrictToolOptions } from "./dispatch/agents.js";
import type { Result } from "./errors.js";

export type { StrictFunctionTool, StrictToolOptions } from "./dispatch/agents.js";

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
