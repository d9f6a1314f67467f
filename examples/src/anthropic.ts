/**
 * Anthropic Messages with the official `@anthropic-ai/sdk`, offline: the
 * client talks to a local server that answers with a recorded turn of five
 * tool_use blocks. strictwire decodes each, runs the valid ones, and sends the
 * results back in one user message of tool_result blocks (is_error on the
 * failures).
 *
 *   pnpm --filter @strictwire/examples anthropic
 */
import Anthropic from "@anthropic-ai/sdk";
import { createDispatcher } from "@strictwire/codec";
import { readRecording, startReplay } from "./replay-server.js";
import { printCalls } from "./report.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("anthropic"));
try {
  const client = new Anthropic({ apiKey: "sk-ant-offline-example", baseURL: server.origin, maxRetries: 0 });
  // Compiled for Anthropic's strict mode: there an optional member is simply left out.
  const dispatcher = createDispatcher(toolSet("anthropic"), handlers);
  const definitions = dispatcher.tools("anthropic");
  if (!definitions.ok) throw new Error(definitions.error.message);
  // The SDK's type wants input_schema.type spelled as the literal "object"; the wire root always is one.
  const tools = definitions.value.map((t) => ({ ...t, input_schema: { ...t.input_schema, type: "object" as const } }));
  const messages: Anthropic.MessageParam[] = [
    {
      role: "user",
      content: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email.",
    },
  ];
  const model = "claude-sonnet-4-6";

  console.log(`anthropic: ${server.origin}/v1/messages, ${tools.length} strict tools`);
  const first = await client.messages.create({ model, max_tokens: 1024, messages, tools });
  const turn = await dispatcher.anthropic(first);
  console.log(`model called ${turn.calls.length} tools in one turn:`);
  printCalls(turn.calls);

  messages.push({ role: "assistant", content: first.content }, ...turn.messages);
  const second = await client.messages.create({ model, max_tokens: 1024, messages, tools });
  const blocks = turn.messages[0]?.content ?? [];
  console.log(
    `sent ${blocks.length} tool_result blocks back, ${blocks.filter((b) => b.is_error).length} with is_error`,
  );
  const answer = second.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
  console.log(`answer: ${answer}`);
} finally {
  await server.close();
}
