/**
 * Structured outputs with `@google/genai`, offline: the wire as
 * `responseJsonSchema` (the SDK's `config` takes generationConfig's members),
 * the answer decoded, and the streamed answer decoded at the chunk whose
 * finishReason is STOP.
 */
import { GoogleGenAI } from "@google/genai";
import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import { Triage } from "../answer-schema.js";
import { show, standIn, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "gemini" });
if (!codec.ok) throw new Error(codec.error.message);
const format = outputFormat(codec.value, "gemini");
if (!format.ok) throw new Error(format.error.message);

const server = await standIn(codec.value);
try {
  const ai = new GoogleGenAI({
    apiKey: "offline-example-key",
    httpOptions: { baseUrl: server.origin, apiVersion: "v1beta" },
  });
  const request = { model: "gemini-2.5-flash", contents: TICKET, config: { ...format.value.generationConfig } };

  const response = await ai.models.generateContent(request);
  const answer = decodeOutput(codec.value, "gemini", response);
  if (!answer.ok) throw new Error(answer.error.feedback);
  show("whole: decoded", answer.value);

  const streamed = streamOutput(codec.value, "gemini");
  let partials = 0;
  for await (const chunk of await ai.models.generateContentStream(request)) {
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
