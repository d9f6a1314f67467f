import { createDispatcher } from "@strictwire/codec";
import OpenAI from "openai";
import { startStandIn } from "./stand-in.js";
import { updateProfile, updateProfileCodec } from "./tool.js";

const server = await startStandIn("openai-responses"); // offline; against the real API: new OpenAI()
const client = new OpenAI({ apiKey: "offline", baseURL: `${server.origin}/v1`, maxRetries: 0 });

const dispatcher = createDispatcher(
  { update_profile: updateProfileCodec("openai") },
  { update_profile: updateProfile },
);
const tools = dispatcher.tools("openai-responses"); // [{ type: "function", name, parameters: wire, strict: true }]
if (!tools.ok) throw new Error(tools.error.message);

const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Clear the bio of u1, keep the name." }];
const response = await client.responses.create({ model: "gpt-5", input, tools: tools.value });
const turn = await dispatcher.responses(response); // every call decoded; only valid ones reach the handler
for (const call of turn.calls) console.log(`${call.id} ${call.kind}: ${call.output}`);

input.push(...response.output, ...turn.messages); // one function_call_output per call, ids matched
const next = await client.responses.create({ model: "gpt-5", input, tools: tools.value });
console.log(next.output_text);
await server.close();
