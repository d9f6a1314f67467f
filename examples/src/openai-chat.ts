/**
 * OpenAI Chat Completions with the official `openai` SDK, offline: the client
 * talks to a local server that answers with a recorded turn of five parallel
 * tool calls. strictwire decodes each, runs the valid ones, and sends the
 * results back as tool messages.
 *
 *   pnpm --filter @strictwire/examples openai:chat
 */
import { createDispatcher } from "@strictwire/codec";
import OpenAI from "openai";
import { readRecording, startReplay } from "./replay-server.js";
import { printCalls } from "./report.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("openai-chat"));
try {
  const client = new OpenAI({ apiKey: "sk-offline-example", baseURL: `${server.origin}/v1`, maxRetries: 0 });
  const dispatcher = createDispatcher(toolSet("openai"), handlers);
  const tools = dispatcher.tools("openai-chat");
  if (!tools.ok) throw new Error(tools.error.message);
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    {
      role: "user",
      content: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email.",
    },
  ];

  console.log(`openai chat: ${server.origin}/v1/chat/completions, ${tools.value.length} strict tools`);
  const first = await client.chat.completions.create({ model: "gpt-4.1", messages, tools: tools.value });
  const turn = await dispatcher.chat(first);
  console.log(`model called ${turn.calls.length} tools in one turn:`);
  printCalls(turn.calls);

  const assistant = first.choices[0]?.message;
  if (assistant === undefined) throw new Error("the recorded completion has no choice");
  messages.push(assistant, ...turn.messages);
  const second = await client.chat.completions.create({ model: "gpt-4.1", messages, tools: tools.value });
  console.log(`sent ${turn.messages.length} tool messages back`);
  console.log(`answer: ${second.choices[0]?.message.content}`);
} finally {
  await server.close();
}
