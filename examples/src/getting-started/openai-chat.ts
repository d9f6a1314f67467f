import { createDispatcher } from "@strictwire/codec";
import OpenAI from "openai";
import { startStandIn } from "./stand-in.js";
import { updateProfile, updateProfileCodec } from "./tool.js";

const server = await startStandIn("openai-chat"); // offline; against the real API: new OpenAI()
const client = new OpenAI({ apiKey: "offline", baseURL: `${server.origin}/v1`, maxRetries: 0 });

const dispatcher = createDispatcher(
  { update_profile: updateProfileCodec("openai") },
  { update_profile: updateProfile },
);
const tools = dispatcher.tools("openai-chat"); // [{ type: "function", function: { name, parameters, strict: true } }]
if (!tools.ok) throw new Error(tools.error.message);

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: "user", content: "Clear the bio of u1, keep the name." },
];
const completion = await client.chat.completions.create({ model: "gpt-5", messages, tools: tools.value });
const turn = await dispatcher.chat(completion);
for (const call of turn.calls) console.log(`${call.id} ${call.kind}: ${call.output}`);

const reply = completion.choices[0]?.message;
if (reply !== undefined) messages.push(reply, ...turn.messages); // one tool message per call
const next = await client.chat.completions.create({ model: "gpt-5", messages, tools: tools.value });
console.log(next.choices[0]?.message.content);
await server.close();
