/**
 * Vercel AI SDK (v6) `generateText` with tools, offline: the SDK's own OpenAI
 * provider (@ai-sdk/openai, Chat Completions) talks to a local server that
 * answers with a recorded turn of five parallel tool calls. Each tool is
 * `aiSdkTool(codec, ...)`: strict on (the server refuses a tool sent without
 * it, as OpenAI would let it through unconstrained), the SDK sends the wire
 * schema, and `execute` receives the decoded original value. The model is
 * wrapped in `aiSdkMiddleware(codecs)`, so each call's raw text is decoded
 * (a call that repeats a member name is refused, where the SDK's own
 * JSON.parse would run it with the last value). Calls that break the
 * contract, and the unknown tool, go back to the model as the SDK's tool
 * errors, carrying strictwire's feedback.
 *
 *   pnpm --filter @strictwire/examples ai-sdk
 */
import { createOpenAI } from "@ai-sdk/openai";
import { aiSdkMiddleware, aiSdkTool, aiSdkWireMessages } from "@strictwire/codec";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";
import { readRecording, startReplay } from "./replay-server.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("ai-sdk"));
try {
  const codecs = toolSet("openai");
  // The middleware hands each call's raw text to its codec: decode's checks, not the SDK's JSON.parse.
  const model = wrapLanguageModel({
    model: createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "sk-offline-example" }).chat("gpt-4.1"),
    middleware: aiSdkMiddleware(codecs),
  });
  const { get_weather, update_contact } = codecs;
  const tools = {
    get_weather: aiSdkTool(get_weather, {
      execute: async (args, { toolCallId }) => handlers.get_weather(args, { id: toolCallId, name: "get_weather" }),
    }),
    update_contact: aiSdkTool(update_contact, {
      execute: async (args, { toolCallId }) =>
        handlers.update_contact(args, { id: toolCallId, name: "update_contact" }),
    }),
  };

  console.log(`ai sdk: ${server.origin}/v1/chat/completions, ${Object.keys(tools).length} strict tools`);
  const result = await generateText({
    model,
    tools,
    prompt: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email.",
    stopWhen: stepCountIs(3),
    // The SDK keeps decoded values as the calls' inputs; show the model the wire form it wrote.
    prepareStep: ({ messages }) => ({ messages: aiSdkWireMessages(messages, codecs) }),
  });

  const [first] = result.steps;
  console.log(`model called ${first?.toolCalls.length ?? 0} tools in one turn:`);
  for (const part of first?.content ?? []) {
    if (part.type === "tool-result") {
      console.log(
        `  ok            ${part.toolName.padEnd(15)} ${part.toolCallId}\n      -> ${JSON.stringify(part.output)}`,
      );
    } else if (part.type === "tool-error") {
      console.log(`  tool-error    ${part.toolName.padEnd(15)} ${part.toolCallId}\n      -> ${String(part.error)}`);
    }
  }
  console.log(`steps: ${result.steps.length}`);
  // What the second request showed the model as its own earlier calls.
  const history = server.requests[1] as {
    messages?: { role: string; tool_calls?: { function: { name: string; arguments: string } }[] }[];
  };
  const replayed = history.messages?.find((m) => m.role === "assistant")?.tool_calls ?? [];
  // In the wire form: the tool's codec reads it as its wire (a value the contract then refuses still was).
  const codecOf = (name: string) =>
    name === "get_weather" ? get_weather : name === "update_contact" ? update_contact : undefined;
  const ours = replayed.filter((c) => codecOf(c.function.name) !== undefined);
  const wireForm = ours.filter((c) => {
    const decoded = codecOf(c.function.name)?.decode(c.function.arguments);
    return decoded !== undefined && (decoded.ok || decoded.error.code === "contract-violation");
  }).length;
  console.log(`history replays ${wireForm} of ${ours.length} calls of its tools in the wire form`);
  console.log(`answer: ${result.text}`);
} finally {
  await server.close();
}
