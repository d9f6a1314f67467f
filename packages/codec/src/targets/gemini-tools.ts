/**
 * Gemini's strict mode lives in the request, not in the declaration: function
 * calls are held to the declared schema by constrained decoding only when
 * `toolConfig.functionCallingConfig.mode` is "VALIDATED" (googleapis
 * `google/ai/generativelanguage/v1beta/content.proto`,
 * `FunctionCallingConfig.Mode.VALIDATED`: "will validate function calls with
 * constrained decoding"); the default, AUTO, promises nothing. So the
 * declarations never travel without it: this gives both, ready to spread into
 * a `generateContent` request.
 *
 * Declarations carry the wire under `parametersJsonSchema` (never
 * `parameters`: the two are mutually exclusive). The Live API takes neither
 * `parametersJsonSchema` nor `additionalProperties` nor `$schema`: these
 * definitions are for `generateContent` / `streamGenerateContent` only.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { type CompiledTool, type GeminiFunctionDeclaration, toolDefinition } from "./tools.js";

export interface GeminiToolConfig {
  readonly functionCallingConfig: {
    /** "AUTO" only when a tool of the set was compiled to go non-strict (`strict: "auto"` over a limit). */
    readonly mode: "VALIDATED" | "AUTO";
    /** The model may call only these (all of them when absent). */
    readonly allowedFunctionNames?: string[];
  };
}

/** `{ tools, toolConfig }`: spread it into a `generateContent` request body or `config`. */
// Mutable arrays: the SDKs' request types (e.g. @google/genai's `config.tools`) take no readonly ones.
export interface GeminiTools {
  readonly tools: [{ readonly functionDeclarations: GeminiFunctionDeclaration[] }];
  readonly toolConfig: GeminiToolConfig;
  /** The tools compiled to go non-strict; when any is, the whole request is (Gemini's mode is per request). */
  readonly nonStrict: string[];
}

export interface GeminiToolsOptions {
  /** Limit the calls the model may make to these tools (each must be in the set). */
  readonly allowedFunctionNames?: readonly string[];
}

/** The strict request configuration on its own, for a request whose declarations are built elsewhere. */
export function geminiToolConfig(allowedFunctionNames?: readonly string[]): GeminiToolConfig {
  return {
    functionCallingConfig:
      allowedFunctionNames === undefined
        ? { mode: "VALIDATED" }
        : { mode: "VALIDATED", allowedFunctionNames: [...allowedFunctionNames] },
  };
}

/**
 * Every bundle as a function declaration, in order, with the toolConfig that
 * turns strict mode on. Refuses (`invalid-options`) a bundle compiled for
 * another target, two tools of one name, and an allowed name the set lacks.
 */
export function geminiTools(bundles: readonly CompiledTool[], options: GeminiToolsOptions = {}): Result<GeminiTools> {
  const functionDeclarations: GeminiFunctionDeclaration[] = [];
  const names = new Set<string>();
  const nonStrict: string[] = [];
  for (const bundle of bundles) {
    const declaration = toolDefinition(bundle, "gemini");
    if (!declaration.ok) return declaration;
    if (names.has(bundle.name)) return fail("invalid-options", "", `two tools are named ${bundle.name}`);
    names.add(bundle.name);
    if (bundle.nonStrict !== undefined) nonStrict.push(bundle.name);
    functionDeclarations.push(declaration.value);
  }
  const allowed = options.allowedFunctionNames;
  const missing = allowed?.find((name) => !names.has(name));
  if (missing !== undefined) {
    return fail("invalid-options", "", `allowedFunctionNames names ${missing}, which is not in the tool set`);
  }
  const toolConfig = geminiToolConfig(allowed);
  // VALIDATED would hold every tool of the request to a schema one of them is known to break Gemini's
  // limits with; the way out chosen at compile (and reported there) turns the request's strict mode off.
  if (nonStrict.length > 0) {
    return ok({
      tools: [{ functionDeclarations }],
      toolConfig: { functionCallingConfig: { ...toolConfig.functionCallingConfig, mode: "AUTO" } },
      nonStrict,
    });
  }
  return ok({ tools: [{ functionDeclarations }], toolConfig, nonStrict });
}
