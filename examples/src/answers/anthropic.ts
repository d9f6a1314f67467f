/**
 * Structured outputs with `@anthropic-ai/sdk`, offline: the wire as
 * `output_config.format` (no strict switch: Anthropic always holds an
 * answer format), the answer decoded, and the streamed answer decoded at
 * `message_stop` under a stop reason that did not cut it.
 */
import Anthropic from "@anthropic-ai/sdk";
import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import { Triage } from "../answer-schema.js";
import { show, standIn, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "anthropic" });
if (!codec.ok) throw new Error(codec.error.message);
const format = outputFormat(codec.value, "anthropic");
if (!format.ok) throw new Error(format.error.message);

const server = await standIn(codec.value);
try {
  const client = new Anthropic({ apiKey: "sk-ant-offline-example", baseURL: server.origin, maxRetries: 0 });
  const request = {
    model: "claude-sonnet-5-5",
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: TICKET }],
  };

  const message = await client.messages.create({ ...request, ...format.value });
  const answer = decodeOutput(codec.value, "anthropic", message);
  if (!answer.ok) throw new Error(answer.error.feedback);
  show("whole: decoded", answer.value);

  const stream = await client.messages.create({ ...request, stream: true, ...format.value });
  const streamed = streamOutput(codec.value, "anthropic");
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
