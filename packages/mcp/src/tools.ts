/**
 * MCP tools as strictwire codecs: each upstream tool's input schema compiled
 * for one target, or the reason it could not be. One place decides how a
 * tool is listed strictly and how its call arguments are decoded, for both
 * the proxy and the client helper.
 */

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  type AbsenceSpelling,
  type Codec,
  type CodecError,
  compileCodec,
  type Result,
  type TargetName,
} from "@strictwire/codec";

export interface StrictOptions {
  /** The provider whose strict mode the wire schemas are for (default "openai"). */
  readonly target?: TargetName;
  /** How optional members travel (default "tagged"). */
  readonly presence?: AbsenceSpelling;
}

/** One upstream tool: compiled, or passed through with the reason. */
export type CompiledTool =
  | { readonly kind: "strict"; readonly tool: Tool; readonly codec: Codec<unknown> }
  | { readonly kind: "pass-through"; readonly tool: Tool; readonly reason: CodecError };

/** Characters a codec name may hold; MCP names may hold more (dots, slashes), which only messages show. */
const NAME_CHARS = /[^A-Za-z0-9_-]/g;

export function codecName(toolName: string): string {
  const name = toolName.replace(NAME_CHARS, "_").slice(0, 64);
  return name === "" ? "tool" : name;
}

export function compileTool(tool: Tool, options: StrictOptions = {}): CompiledTool {
  const compiled = compileCodec(tool.inputSchema, {
    name: codecName(tool.name),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    target: options.target ?? "openai",
    presence: options.presence ?? "tagged",
  });
  return compiled.ok
    ? { kind: "strict", tool, codec: compiled.value }
    : { kind: "pass-through", tool, reason: compiled.error };
}

/** The tool as listed to a strict client: the wire schema as its input schema, everything else as it was. */
export function listedTool(compiled: CompiledTool): Tool {
  if (compiled.kind === "pass-through") return compiled.tool;
  return { ...compiled.tool, inputSchema: compiled.codec.wire as Tool["inputSchema"] };
}

/**
 * Decode the arguments of a tools/call given as a parsed value: it is written
 * back to JSON text and decoded as text, so the tool's parse limits (bytes
 * included, which a parsed value skips) apply exactly as they do to a
 * provider's arguments text, and the refusals are the same. Duplicate keys
 * were already merged by whoever parsed it; nothing after that can see them.
 */
export function decodeArguments(codec: Codec<unknown>, args: unknown): Result<Record<string, unknown>> {
  return decodeArgumentsText(codec, JSON.stringify(args ?? {}));
}

/** Decode the arguments of a tools/call from their JSON text. */
export function decodeArgumentsText(codec: Codec<unknown>, text: string): Result<Record<string, unknown>> {
  const decoded = codec.decode(text);
  if (!decoded.ok) return decoded;
  const value = decoded.value;
  // MCP arguments are an object; a contract whose root is not one cannot be forwarded.
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const message = "the tool's arguments are not a JSON object, which MCP requires";
    return { ok: false, error: { code: "invalid-value", path: "", message, feedback: message } };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Why a tool passes through unchanged, as one stderr line. */
export function describePassThrough(compiled: CompiledTool & { kind: "pass-through" }): string {
  const { code, path, message } = compiled.reason;
  return `tool ${JSON.stringify(compiled.tool.name)} passes through unchanged: ${code}${path === "" ? "" : ` at ${path}`}: ${message}`;
}
