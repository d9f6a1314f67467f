/**
 * A minimal AI SDK language model (specification v3) that speaks the OpenAI
 * Chat Completions HTTP API with fetch: enough for generateText with tools
 * against an OpenAI-compatible endpoint. `ai` ships no such provider itself
 * (that is @ai-sdk/openai or @ai-sdk/openai-compatible); this keeps the
 * example on the packages it has. Not streamed: doStream is refused.
 */
import type { LanguageModel } from "ai";

type ModelV3 = Extract<LanguageModel, { readonly specificationVersion: "v3" }>;
type CallOptions = Parameters<ModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<ModelV3["doGenerate"]>>;
type Message = CallOptions["prompt"][number];
type ToolResultOutput = Extract<
  Extract<Message, { role: "tool" }>["content"][number],
  { type: "tool-result" }
>["output"];

export interface ChatCompletionsSettings {
  /** e.g. http://127.0.0.1:8080/v1 */
  readonly baseURL: string;
  readonly apiKey: string;
  readonly modelId: string;
}

export function chatCompletionsModel(settings: ChatCompletionsSettings): ModelV3 {
  return {
    specificationVersion: "v3",
    provider: "openai-compatible.chat",
    modelId: settings.modelId,
    supportedUrls: {},
    doGenerate: (options) => generate(settings, options),
    doStream: () => Promise.reject(new Error("this example model does not stream")),
  };
}

async function generate(settings: ChatCompletionsSettings, options: CallOptions): Promise<GenerateResult> {
  const body = {
    model: settings.modelId,
    messages: options.prompt.flatMap(toChatMessages),
    ...(options.maxOutputTokens !== undefined ? { max_completion_tokens: options.maxOutputTokens } : {}),
    ...(options.tools !== undefined && options.tools.length > 0
      ? {
          tools: options.tools.flatMap((t) =>
            t.type === "function"
              ? [
                  {
                    type: "function",
                    function: {
                      name: t.name,
                      ...(t.description !== undefined ? { description: t.description } : {}),
                      parameters: t.inputSchema,
                      // strictwire's wire schemas are written for strict mode.
                      strict: true,
                    },
                  },
                ]
              : [],
          ),
        }
      : {}),
  };
  const response = await fetch(`${settings.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${settings.apiKey}` },
    body: JSON.stringify(body),
    ...(options.abortSignal !== undefined ? { signal: options.abortSignal } : {}),
  });
  const json = (await response.json()) as ChatCompletion;
  if (!response.ok) throw new Error(`chat completions ${response.status}: ${JSON.stringify(json)}`);
  const choice = json.choices?.[0];
  const content: GenerateResult["content"] = [];
  if (typeof choice?.message?.content === "string" && choice.message.content.length > 0) {
    content.push({ type: "text", text: choice.message.content });
  }
  for (const call of choice?.message?.tool_calls ?? []) {
    // The arguments stay text: the SDK parses them and validates with the tool's inputSchema.
    content.push({
      type: "tool-call",
      toolCallId: call.id,
      toolName: call.function.name,
      input: call.function.arguments,
    });
  }
  return {
    content,
    finishReason: { unified: finishReason(choice?.finish_reason), raw: choice?.finish_reason ?? undefined },
    usage: {
      inputTokens: {
        total: json.usage?.prompt_tokens,
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: json.usage?.completion_tokens, text: undefined, reasoning: undefined },
    },
    warnings: [],
    request: { body },
    response: {
      ...(json.id !== undefined ? { id: json.id } : {}),
      modelId: json.model ?? settings.modelId,
      body: json,
    },
  };
}

interface ChatCompletion {
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly {
    readonly finish_reason?: string | null;
    readonly message?: {
      readonly content?: string | null;
      readonly tool_calls?: readonly { readonly id: string; readonly function: { name: string; arguments: string } }[];
    };
  }[];
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number };
}

function finishReason(raw: string | null | undefined): GenerateResult["finishReason"]["unified"] {
  switch (raw) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    default:
      return "other";
  }
}

function toChatMessages(message: Message): unknown[] {
  switch (message.role) {
    case "system":
      return [{ role: "system", content: message.content }];
    case "user":
      return [{ role: "user", content: message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("") }];
    case "assistant": {
      const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
      const calls = message.content.flatMap((p) =>
        p.type === "tool-call"
          ? [{ id: p.toolCallId, type: "function", function: { name: p.toolName, arguments: JSON.stringify(p.input) } }]
          : [],
      );
      return [
        {
          role: "assistant",
          content: text.length > 0 ? text : null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
      ];
    }
    case "tool":
      return message.content.flatMap((p) =>
        p.type === "tool-result" ? [{ role: "tool", tool_call_id: p.toolCallId, content: outputText(p.output) }] : [],
      );
  }
}

function outputText(output: ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "The tool call was denied.";
    case "content":
      return output.value.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  }
}
