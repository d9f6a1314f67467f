/**
 * Structured outputs with the `openai` SDK's Chat Completions, offline: the
 * request carries the strict wire as `response_format`, the answer is
 * decoded to the Zod contract's value (absent stays absent, null stays null,
 * the map is an object), and the streamed answer shows source-form partials
 * and a value only once the provider ended it.
 */
import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import OpenAI from "openai";
import { Triage } from "../answer-schema.js";
import { show, standIn, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "openai" });
if (!codec.ok) throw new Error(codec.error.message);
const format = outputFormat(codec.value, "openai-chat");
if (!format.ok) throw new Error(format.error.message);

const server = await standIn(codec.value);
try {
  const client = new OpenAI({ apiKey: "sk-offline-example", baseURL: `${server.origin}/v1`, maxRetries: 0 });
  const messages = [{ role: "user" as const, content: TICKET }];

  const completion = await client.chat.completions.create({ model: "gpt-4.1", messages, ...format.value });
  const answer = decodeOutput(codec.value, "openai-chat", completion);
  if (!answer.ok) throw new Error(answer.error.feedback);
  show("whole: decoded", answer.value);

  const stream = await client.chat.completions.create({ model: "gpt-4.1", messages, stream: true, ...format.value });
  const streamed = streamOutput(codec.value, "openai-chat");
  let partials = 0;
  for await (const chunk of stream) {
    for (const update of streamed.event(chunk)) {
      if (update.kind === "partial" && ++partials === 10) show("streamed: partial", update.value);
      if (update.kind === "decoded" && update.result.ok) show("streamed: decoded", update.result.value);
    }
  }
  for (const update of streamed.finish()) show(`streamed: ${update.kind}`, "error" in update ? update.error.code : "");
  console.log(`streamed: ${partials} partials`);
} finally {
  await server.close();
}
