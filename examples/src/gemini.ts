/**
 * Gemini generateContent with the official `@google/genai` SDK, offline: the
 * client talks to a local server that answers with a recorded turn of five
 * functionCall parts. `dispatcher.geminiTools()` gives the declarations
 * (under `parametersJsonSchema`) together with the toolConfig that makes
 * Gemini hold calls to them (`mode: "VALIDATED"`; the server refuses a
 * request without it). strictwire decodes each call, runs the valid ones, and
 * answers with one user turn of functionResponse parts (`output`, or `error`
 * on the failures).
 *
 *   pnpm --filter @strictwire/examples gemini
 */
import { type Content, GoogleGenAI, type ToolConfig } from "@google/genai";
import { createDispatcher } from "@strictwire/codec";
import { readRecording, startReplay } from "./replay-server.js";
import { printCalls } from "./report.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("gemini"));
try {
  const ai = new GoogleGenAI({
    apiKey: "offline-example-key",
    httpOptions: { baseUrl: server.origin, apiVersion: "v1beta" },
  });
  // Compiled for Gemini: an optional member is simply left out.
  const dispatcher = createDispatcher(toolSet("gemini"), handlers);
  const gemini = dispatcher.geminiTools();
  if (!gemini.ok) throw new Error(gemini.error.message);
  // The SDK types the mode as its own enum, whose values are these very strings.
  const config = { tools: gemini.value.tools, toolConfig: gemini.value.toolConfig as ToolConfig };
  const contents: Content[] = [
    {
      role: "user",
      parts: [{ text: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email." }],
    },
  ];
  const model = "gemini-2.5-flash";

  const declared = gemini.value.tools[0].functionDeclarations.length;
  console.log(
    `gemini: ${server.origin}/v1beta/models/${model}:generateContent, ${declared} tools, mode ${gemini.value.toolConfig.functionCallingConfig.mode}`,
  );
  const first = await ai.models.generateContent({ model, contents, config });
  const turn = await dispatcher.gemini(first);
  console.log(`model called ${turn.calls.length} tools in one turn:`);
  printCalls(turn.calls);

  const reply = first.candidates?.[0]?.content;
  if (reply !== undefined) contents.push(reply);
  contents.push(...turn.messages);
  const second = await ai.models.generateContent({ model, contents, config });
  const parts = turn.messages[0]?.parts ?? [];
  const errors = parts.filter((p) => "error" in p.functionResponse.response).length;
  console.log(`sent ${parts.length} functionResponse parts back, ${errors} with error`);
  console.log(`answer: ${second.text}`);
} finally {
  await server.close();
}
