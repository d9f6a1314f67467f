/**
 * A compiled tool as the provider's tool definition: the wire schema under the
 * key and in the envelope each API expects, strict mode on where the API has
 * it. A tool compiled for another target is refused: its wire may use what
 * this provider does not accept.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import type { JsonObject } from "../json.js";
import type { TargetName } from "./profile.js";

/**
 * What the targets read of a compiled tool. A bundle is one (the bundle format
 * sits above the targets and is not imported here): pass a bundle.
 */
export interface CompiledTool {
  readonly name: string;
  readonly description?: string;
  /** The strict schema the model is given. */
  readonly wire: JsonObject;
  readonly options: { readonly target: TargetName };
  /** Present when the tool is sent with strict mode off (`bundle.nonStrict`). */
  readonly nonStrict?: { readonly limit: string; readonly reason: string };
}

export type ToolApi = "openai-responses" | "openai-chat" | "anthropic" | "gemini";

export interface OpenAIResponsesTool {
  readonly type: "function";
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonObject;
  /** false only for a bundle compiled with `strict: "auto"` over the target's limits (`bundle.nonStrict`). */
  readonly strict: boolean;
}

export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: JsonObject;
    readonly strict: boolean;
  };
}

export interface AnthropicTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: JsonObject;
  readonly strict: boolean;
}

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parametersJsonSchema: JsonObject;
}

export interface ToolDefinitions {
  readonly "openai-responses": OpenAIResponsesTool;
  readonly "openai-chat": OpenAIChatTool;
  readonly anthropic: AnthropicTool;
  readonly gemini: GeminiFunctionDeclaration;
}

const TARGET_OF: Readonly<Record<ToolApi, TargetName>> = {
  "openai-responses": "openai",
  "openai-chat": "openai",
  anthropic: "anthropic",
  gemini: "gemini",
};

export function toolDefinition<A extends ToolApi>(bundle: CompiledTool, api: A): Result<ToolDefinitions[A]> {
  const want = TARGET_OF[api];
  // A fine-tuned model's wire is sent through the same APIs.
  const target = bundle.options.target === "openai-finetuned" ? "openai" : bundle.options.target;
  if (target !== want) {
    return fail(
      "invalid-options",
      "",
      `tool ${bundle.name} was compiled for the ${bundle.options.target} target; compile it with target "${want}" for ${api}`,
    );
  }
  return ok(BUILDERS[api](bundle) as ToolDefinitions[A]);
}

const BUILDERS: { readonly [A in ToolApi]: (b: CompiledTool) => ToolDefinitions[A] } = {
  "openai-responses": (b) => ({ type: "function", ...named(b), parameters: b.wire, strict: isStrict(b) }),
  "openai-chat": (b) => ({ type: "function", function: { ...named(b), parameters: b.wire, strict: isStrict(b) } }),
  anthropic: (b) => ({ ...named(b), input_schema: b.wire, strict: isStrict(b) }),
  gemini: (b) => ({ ...named(b), parametersJsonSchema: b.wire }),
};

/** A bundle over the target's limits, compiled with `strict: "auto"`, is sent with strict mode off. */
function isStrict(b: CompiledTool): boolean {
  return b.nonStrict === undefined;
}

function named(b: CompiledTool): { name: string; description?: string } {
  return b.description !== undefined ? { name: b.name, description: b.description } : { name: b.name };
}
