/**
 * OpenAI Agents SDK, offline: an Agent with one tool defined in Zod
 * (`.optional()` members included), given to the model in strictwire's strict
 * wire form through `strictTool`. The SDK's OpenAI client talks to a local
 * server that answers with a recorded turn of three calls: strictwire decodes
 * each from the raw arguments text, runs `execute` for the valid one, and
 * returns its feedback as the tool result for the two it refuses.
 *
 *   pnpm --filter @strictwire/examples agents
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import { strictTool } from "@strictwire/codec";
import { z } from "zod";
import { readRecording, startReplay } from "./replay-server.js";

const UpdateContact = z.object({
  id: z
    .string()
    .min(1)
    .refine((id) => id === id.toLowerCase(), "contact ids are lower case")
    .describe("The contact's id"),
  email: z.email().optional().describe("Leave out to keep the email as it is"),
  phone: z.string().nullable().optional().describe("null clears the phone number; leave out to keep it"),
});

const updateContact = strictTool({
  name: "update_contact",
  description: "Update a contact. Members left out stay unchanged; null clears a member.",
  parameters: UpdateContact,
  execute: (args) => {
    // args is z.output<typeof UpdateContact>: `email` absent means "keep", `phone: null` means "clear".
    console.log(`execute update_contact received ${JSON.stringify(args)}`);
    return { ok: true, updated: Object.keys(args).filter((k) => k !== "id") };
  },
});
if (!updateContact.ok) throw new Error(updateContact.error.message);

const server = await startReplay(readRecording("agents"));
try {
  setTracingDisabled(true);
  const modelProvider = new OpenAIProvider({
    apiKey: "sk-offline-example",
    baseURL: `${server.origin}/v1`,
    useResponses: true,
  });
  const agent = new Agent({
    name: "contacts",
    instructions: "You keep the user's address book up to date.",
    model: "gpt-5",
    tools: [updateContact.value],
  });
  console.log(`agents sdk: ${server.origin}/v1/responses, tool update_contact strict=${updateContact.value.strict}`);
  const result = await new Runner({ modelProvider }).run(agent, "Clear Ada's phone number but keep her email.");
  for (const item of result.newItems) {
    if (item.type !== "tool_call_output_item") continue;
    const raw = item.rawItem as { callId?: string };
    console.log(
      `  tool result ${raw.callId}\n      -> ${typeof item.output === "string" ? item.output : JSON.stringify(item.output)}`,
    );
  }
  console.log(`answer: ${result.finalOutput}`);
} finally {
  await server.close();
}
