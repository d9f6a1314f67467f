/**
 * Where code generation is forbidden. ajv compiles a schema to code with
 * `new Function`; the Edge runtime, a page whose Content Security Policy lacks
 * 'unsafe-eval', Node with --disallow-code-generation-from-strings and
 * Cloudflare's workerd inside a request refuse it with an EvalError. That is
 * the runtime's rule, not the schema's fault: compile reports it as its own
 * code, and no validator instance that saw the refusal is kept (ajv keeps a
 * half-compiled schema, and the next compile would blame the schema).
 */
import type { Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { forgetMetaValidators } from "./ajv.js";

/** Whether an error is the runtime refusing to generate code from strings. */
export function isCodeGenerationRefused(error: unknown): boolean {
  if (error instanceof EvalError) return true;
  // Another realm's EvalError (a vm context, a worker) is no instance of this one's.
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "EvalError" &&
    /code generation|unsafe-eval|content security policy/i.test(String((error as { message?: unknown }).message))
  );
}

/** What compile says instead: what happened, and the two ways that work. */
export const CODE_GENERATION_UNAVAILABLE =
  "this runtime forbids generating code at run time (new Function), which compiling a schema's validators needs; " +
  "the schema is not at fault. Compile at build time instead: `strictwire compile --emit module` writes a module " +
  "that @strictwire/codec/runtime loads with no code generation. On Cloudflare Workers, code may be generated " +
  "only at start-up: compile at the top level of the Worker, not inside a request";

/**
 * Runs a compile (or a JSON bundle's load): where the runtime forbids code
 * generation, a typed error that says so and what to do, never the EvalError,
 * never the schema blamed.
 */
export function whereCodeMayBeGenerated<T>(run: () => Result<T>): Result<T> {
  try {
    return run();
  } catch (error) {
    if (!isCodeGenerationRefused(error)) throw error;
    forgetMetaValidators();
    return fail("code-generation-unavailable", "", CODE_GENERATION_UNAVAILABLE);
  }
}
