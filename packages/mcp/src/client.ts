/**
 * For TypeScript clients that call a model themselves: the tools of a
 * connected MCP client as strict tool definitions for one provider API, and a
 * codec dispatcher whose handlers call the MCP server with the decoded
 * arguments. Nothing here speaks MCP beyond the SDK client's own methods.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type Codec,
  type CodecError,
  createDispatcher,
  type Dispatcher,
  type DispatchOptions,
  type GeminiToolConfig,
  geminiToolConfig,
  type ProviderApi,
  type ToolCodecs,
  type ToolDefinitions,
  type ToolHandler,
  toolDefinition,
} from "@strictwire/codec";
import { providerModule } from "@strictwire/codec/providers";
import { DEFAULT_COMPILE_BUDGET } from "./compile-pool.js";
import { type ListError, type ListLimits, listAllTools } from "./listing.js";
import { type CompiledTool, compileTool, type StrictOptions } from "./tools.js";

export interface StrictMcpToolsOptions<A extends ProviderApi> {
  /** The provider API the definitions are for; it fixes the target. */
  readonly api: A;
  readonly presence?: StrictOptions["presence"];
  /** Passed to the dispatcher: parse limits, the text for a failing handler. */
  readonly dispatch?: DispatchOptions;
  /** Limits on reading the server's tool list (defaults: DEFAULT_LIST_LIMITS). */
  readonly list?: Partial<ListLimits>;
  /** A tool whose input schema is more UTF-8 bytes of JSON than this is skipped, not compiled (default 1,048,576). */
  readonly maxSchemaBytes?: number;
}

export interface StrictMcpTools<A extends ProviderApi> {
  /** The strict definitions to send with the request, in the server's order. */
  readonly tools: ToolDefinitions[A][];
  /**
   * Gemini only: the request's `toolConfig` ("VALIDATED"), without which
   * Gemini does not hold calls to the declarations; send it with them.
   */
  readonly toolConfig?: GeminiToolConfig;
  /** Decodes each call and calls the MCP tool; `dispatcher.responses(...)`, `.chat(...)`, `.anthropic(...)`. */
  readonly dispatcher: Dispatcher<ToolCodecs>;
  /** The MCP tool name behind each definition name (they differ when the MCP name has characters providers refuse). */
  readonly mcpNames: ReadonlyMap<string, string>;
  /** Tools left out, with the reason: their schema does not compile, or their name collides once made provider-safe. */
  readonly skipped: readonly { readonly name: string; readonly reason: CodecError }[];
  /** Set when the server's tool list was cut short by a limit or a failure: the tools above are those read before. */
  readonly stopped?: ListError;
}

export async function strictMcpTools<A extends ProviderApi>(
  client: Client,
  options: StrictMcpToolsOptions<A>,
): Promise<StrictMcpTools<A>> {
  const strict: StrictOptions = {
    target: providerModule(options.api).target,
    ...(options.presence !== undefined ? { presence: options.presence } : {}),
  };
  const byKey = new Map<string, CompiledTool & { kind: "strict" }>();
  const skipped: { name: string; reason: CodecError }[] = [];
  const listing = await listAllTools(client, options.list ?? {});
  const maxSchemaBytes = options.maxSchemaBytes ?? DEFAULT_COMPILE_BUDGET.maxSchemaBytes;
  for (const tool of listing.tools) {
    // The codecs live on this thread (the dispatcher calls them), so compiles run here; between tools the loop turns.
    await new Promise<void>((next) => setImmediate(next));
    const bytes = Buffer.byteLength(JSON.stringify(tool.inputSchema));
    if (bytes > maxSchemaBytes) {
      const message = `its input schema is ${bytes} bytes of JSON, over the limit of ${maxSchemaBytes}`;
      skipped.push({ name: tool.name, reason: { code: "schema-too-large", path: "", message, feedback: message } });
      continue;
    }
    const compiled = compileTool(tool, strict);
    const key = compiled.kind === "strict" ? compiled.codec.name : tool.name;
    const taken = byKey.get(key);
    if (compiled.kind === "pass-through") skipped.push({ name: tool.name, reason: compiled.reason });
    else if (taken !== undefined) {
      const message = `its provider-safe name ${key} is already taken by ${taken.tool.name}`;
      skipped.push({ name: tool.name, reason: { code: "invalid-options", path: "", message, feedback: message } });
    } else byKey.set(key, compiled);
  }

  const codecs: Record<string, Codec<unknown>> = {};
  const handlers: Record<string, ToolHandler<unknown>> = {};
  const tools: ToolDefinitions[A][] = [];
  const mcpNames = new Map<string, string>();
  for (const [key, { tool, codec }] of byKey) {
    const definition = toolDefinition(codec.bundle, options.api);
    // The codec was compiled for this API's target, so a definition always exists.
    if (!definition.ok) throw new Error(definition.error.message);
    tools.push(definition.value);
    Object.defineProperty(codecs, key, { value: codec, enumerable: true });
    Object.defineProperty(handlers, key, {
      value: async (value: unknown) => resultText(await callTool(client, tool.name, value)),
      enumerable: true,
    });
    mcpNames.set(key, tool.name);
  }
  const dispatcher: Dispatcher<ToolCodecs> = createDispatcher(codecs as ToolCodecs, handlers, options.dispatch);
  return {
    tools,
    ...(options.api === "gemini" ? { toolConfig: geminiToolConfig() } : {}),
    dispatcher,
    mcpNames,
    skipped,
    ...(listing.stopped !== undefined ? { stopped: listing.stopped } : {}),
  };
}

async function callTool(client: Client, name: string, value: unknown): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: value as Record<string, unknown> })) as CallToolResult;
}

/**
 * A tool result as the text the model reads: its text parts, then any other
 * part as JSON; structured content alone when there is no content. A tool
 * error (isError) is the server's message for the model, so it is returned
 * the same way, marked.
 */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map((part) => (part.type === "text" ? part.text : JSON.stringify(part)));
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n");
  return result.isError === true ? `The tool reported an error: ${text}` : text;
}
