/**
 * Gemini generateContent over its REST API with plain fetch (no SDK),
 * offline: the request goes to a local server that answers with a recorded
 * turn of five functionCall parts. `dispatcher.geminiTools()` gives the
 * declarations (under `parametersJsonSchema`) together with the toolConfig
 * that makes Gemini hold calls to them (`mode: "VALIDATED"`; the server
 * refuses a request without it). strictwire decodes each call, runs the valid
 * ones, and answers with one user turn of functionResponse parts (`output`,
 * or `error` on the failures).
 *
 *   pnpm --filter @strictwire/examples gemini
 */
import { createDispatcher } from "@strictwire/codec";
import { readRecording, startReplay } from "./replay-server.js";
import { printCalls } from "./report.js";
import { handlers, toolSet } from "./tools.js";

const server = await startReplay(readRecording("gemini"));
try {
  const model = "gemini-2.5-flash";
  const url = `${server.origin}/v1beta/models/${model}:generateContent`;
  const headers = { "content-type": "application/json", "x-goog-api-key": "offline-example-key" };
  // Compiled for Gemini: an optional member is simply left out.
  const dispatcher = createDispatcher(toolSet("gemini"), handlers);
  const tools = dispatcher.geminiTools();
  if (!tools.ok) throw new Error(tools.error.message);
  const contents: unknown[] = [
    {
      role: "user",
      parts: [{ text: "What's the weather in Oslo and in Lima? And clear Ada's phone number, but keep her email." }],
    },
  ];
  const generate = async () => {
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ contents, ...tools.value }) });
    const body = (await res.json()) as { candidates?: { content?: unknown }[]; error?: { message?: string } };
    if (!res.ok) throw new Error(`Gemini answered ${res.status}: ${body.error?.message}`);
    return body;
  };

  const declared = tools.value.tools[0].functionDeclarations.length;
  console.log(`gemini: ${url}, ${declared} tools, mode ${tools.value.toolConfig.functionCallingConfig.mode}`);
  const first = await generate();
  const turn = await dispatcher.gemini(first);
  console.log(`model called ${turn.calls.length} tools in one turn:`);
  printCalls(turn.calls);

  contents.push(first.candidates?.[0]?.content, ...turn.messages);
  const second = await generate();
  const parts = turn.messages[0]?.parts ?? [];
  const errors = parts.filter((p) => "error" in p.functionResponse.response).length;
  console.log(`sent ${parts.length} functionResponse parts back, ${errors} with error`);
  const answer = (second.candidates?.[0]?.content as { parts?: { text?: string }[] } | undefined)?.parts
    ?.map((p) => p.text ?? "")
    .join("");
  console.log(`answer: ${answer}`);
} finally {
  await server.close();
}
