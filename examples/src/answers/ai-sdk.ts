/**
 * Structured outputs with the AI SDK (ai 6, @ai-sdk/openai), offline:
 * `output: aiSdkOutput(codec)` sends the wire as the response format;
 * `generateText`'s output is decode's value; `streamText`'s
 * partialOutputStream shows the source form, never a tag or an entry array.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { aiSdkOutput, compileCodec } from "@strictwire/codec";
import { generateText, streamText } from "ai";
import { Triage } from "../answer-schema.js";
import { show, standIn, TICKET } from "./stand-in.js";

const codec = compileCodec(Triage, { name: "triage", target: "openai" });
if (!codec.ok) throw new Error(codec.error.message);

const server = await standIn(codec.value);
try {
  const model = createOpenAI({ baseURL: `${server.origin}/v1`, apiKey: "sk-offline-example" }).chat("gpt-4.1");

  const { output } = await generateText({ model, prompt: TICKET, output: aiSdkOutput(codec.value) });
  show("whole: decoded", output);

  const result = streamText({ model, prompt: TICKET, output: aiSdkOutput(codec.value) });
  let partials = 0;
  for await (const partial of result.partialOutputStream) {
    if (++partials === 10) show("streamed: partial", partial);
  }
  show("streamed: decoded", await result.output);
  console.log(`streamed: ${partials} partials`);
} finally {
  await server.close();
}
