/**
 * Structured outputs with the `openai` SDK's Responses API, offline: the
 * strict wire as `text.format`, the answer decoded, and the streamed answer
 * decoded at `response.completed`.
 */
import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import OpenAI from "openai";
import { Triage } from "../answer-schema.js";
import { show, standIn, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "openai" });
if (!codec.ok) throw new Error(codec.error.message);
const format = outputFormat(codec.value, "openai-responses");
if (!format.ok) throw new Error(format.error.message);

const server = await standIn(codec.value);
try {
  const client = new OpenAI({ apiKey: "sk-offline-example", baseURL: `${server.origin}/v1`, maxRetries: 0 });

  const response = await client.responses.create({ model: "gpt-4.1", input: TICKET, ...format.value });
  const answer = decodeOutput(codec.value, "openai-responses", response);
  if (!answer.ok) throw new Error(answer.error.feedback);
  show("whole: decoded", answer.value);

  const stream = await client.responses.create({ model: "gpt-4.1", input: TICKET, stream: true, ...format.value });
  const streamed = streamOutput(codec.value, "openai-responses");
  let partials = 0;
  for await (const event of stream) {
    for (const update of streamed.event(event)) {
      if (update.kind === "partial" && ++partials === 10) show("streamed: partial", update.value);
      if (update.kind === "decoded" && update.result.ok) show("streamed: decoded", update.result.value);
    }
  }
  for (const update of streamed.finish()) show(`streamed: ${update.kind}`, "error" in update ? update.error.code : "");
  console.log(`streamed: ${partials} partials`);
} finally {
  await server.close();
}
