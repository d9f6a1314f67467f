/**
 * OpenAI Responses API with the official `openai` SDK, offline: the client
 * talks to a local server that answers with a recorded turn of five parallel
 * function calls. strictwire decodes each, runs the valid ones, and sends the
 * results back as function_call_output items.
 *
 *   pnpm --filter @strictwire/examples openai
 */
import { createDispatcher } from "@strictwire/codec";
import OpenAI from "openai";
import { readRecording, startReplay } from "./replay-server.js";
import { printCalls } from "./report.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("openai-responses"));
try {
  const client = new OpenAI({ apiKey: "sk-offline-example", baseURL: `${server.origin}/v1`, maxRetries: 0 });
  const dispatcher = createDispatcher(toolSet("openai"), handlers);
  const tools = dispatcher.tools("openai-responses");
  if (!tools.ok) throw new Error(tools.error.message);
  const input: OpenAI.Responses.ResponseInput = [
    {
      role: "user",
      content: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email.",
    },
  ];

  console.log(`openai responses: ${server.origin}/v1/responses, ${tools.value.length} strict tools`);
  const first = await client.responses.create({ model: "gpt-5", input, tools: tools.value });
  const turn = await dispatcher.responses(first);
  console.log(`model called ${turn.calls.length} tools in one turn:`);
  printCalls(turn.calls);

  // Stateless follow-up: the model's items, then one function_call_output per call.
  input.push(...first.output, ...turn.messages);
  const second = await client.responses.create({ model: "gpt-5", input, tools: tools.value });
  console.log(`sent ${turn.messages.length} function_call_output items back`);
  console.log(`answer: ${second.output_text}`);
} finally {
  await server.close();
}
