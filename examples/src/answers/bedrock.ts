/**
 * Structured outputs on Amazon Bedrock Converse with
 * `@aws-sdk/client-bedrock-runtime`, offline: the wire (compiled for the
 * anthropic target) as `outputConfig.textFormat`, the answer decoded, and the
 * ConverseStream answer decoded at `messageStop`.
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type OutputConfig,
} from "@aws-sdk/client-bedrock-runtime";
import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import { Triage } from "../answer-schema.js";
import { startBedrockStandIn } from "./bedrock-stand-in.js";
import { SCRIPTED, show, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "anthropic" });
if (!codec.ok) throw new Error(codec.error.message);
const format = outputFormat(codec.value, "bedrock-converse");
if (!format.ok) throw new Error(format.error.message);

// Offline: the stand-in answers with what a strict model writes (the wire form).
const wire = codec.value.encode(SCRIPTED);
if (!wire.ok) throw new Error(wire.error.message);
const text = JSON.stringify(wire.value);
const server = await startBedrockStandIn(text, text.match(/.{1,12}/g) ?? []);
const client = new BedrockRuntimeClient({
  region: "us-east-1",
  endpoint: server.endpoint, // against the real service: drop endpoint and credentials
  credentials: { accessKeyId: "AKIDOFFLINEEXAMPLE", secretAccessKey: "offline-example" },
  maxAttempts: 1,
});
try {
  const request = {
    modelId: "anthropic.claude-sonnet-5-5",
    messages: [{ role: "user" as const, content: [{ text: TICKET }] }],
    outputConfig: format.value.outputConfig as OutputConfig,
  };

  const response = await client.send(new ConverseCommand(request));
  const answer = decodeOutput(codec.value, "bedrock-converse", response);
  if (!answer.ok) throw new Error(answer.error.feedback);
  show("whole: decoded", answer.value);

  const streamed = streamOutput(codec.value, "bedrock-converse");
  let partials = 0;
  const out = await client.send(new ConverseStreamCommand(request));
  for await (const event of out.stream ?? []) {
    for (const update of streamed.event(event)) {
      if (update.kind === "partial" && ++partials === 10) show("streamed: partial", update.value);
      if (update.kind === "decoded" && update.result.ok) show("streamed: decoded", update.result.value);
    }
  }
  for (const update of streamed.finish()) show(`streamed: ${update.kind}`, "error" in update ? update.error.code : "");
  console.log(`streamed: ${partials} partials`);
} finally {
  client.destroy();
  await server.close();
}
