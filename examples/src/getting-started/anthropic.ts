import Anthropic from "@anthropic-ai/sdk";
import { createDispatcher } from "@strictwire/codec";
import { startStandIn } from "./stand-in.js";
import { updateProfile, updateProfileCodec } from "./tool.js";

const server = await startStandIn("anthropic"); // offline; against the real API: new Anthropic()
const client = new Anthropic({ apiKey: "offline", baseURL: server.origin, maxRetries: 0 });

// Anthropic's strict mode keeps optional members native: compile for its target.
const dispatcher = createDispatcher(
  { update_profile: updateProfileCodec("anthropic") },
  { update_profile: updateProfile },
);
const definitions = dispatcher.tools("anthropic"); // [{ name, input_schema: wire, strict: true }]
if (!definitions.ok) throw new Error(definitions.error.message);
// The SDK's type wants input_schema.type spelled as the literal "object"; the wire root always is one.
const tools = definitions.value.map((t) => ({ ...t, input_schema: { ...t.input_schema, type: "object" as const } }));

const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Clear the bio of u1, keep the name." }];
const message = await client.messages.create({
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  messages,
  tools,
});
const turn = await dispatcher.anthropic(message);
for (const call of turn.calls) console.log(`${call.id} ${call.kind}: ${call.output}`);

messages.push({ role: "assistant", content: message.content }, ...turn.messages); // one user message of tool_result blocks
const next = await client.messages.create({
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  messages,
  tools,
});
console.log(next.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
await server.close();
