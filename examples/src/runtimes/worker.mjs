/**
 * A Cloudflare Worker with the AI SDK and precompiled tools. Nothing is
 * compiled here: the tools were compiled at build time (`build.mjs`,
 * `strictwire compile --emit module`), so the Worker needs no code generation
 * in `fetch` and no `nodejs_compat`. POST {"prompt": "..."}; the model is
 * reached at env.OPENAI_BASE_URL (Chat Completions).
 *
 * With wrangler: `main = "worker.mjs"` in wrangler.toml, after build.mjs.
 * examples/test/runtimes.test.ts calls this `fetch` in Node against a local
 * recorded server.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { aiSdkMiddleware, aiSdkTool } from "@strictwire/codec/runtime";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";
import * as getWeather from "./tools/get_weather.tool.mjs";
import * as updateContact from "./tools/update_contact.tool.mjs";

// At start-up, once per isolate: the codecs, from code compiled at build time.
const weather = getWeather.load();
const contact = updateContact.load();
if (!weather.ok || !contact.ok) throw new Error("the precompiled tools do not load: rebuild them");

const WEATHER = { Oslo: { c: 4, sky: "cloudy" }, Lima: { c: 19, sky: "overcast" } };

const tools = {
  // `execute` gets the original value: `unit` absent when the model left it out.
  get_weather: aiSdkTool(weather.value, {
    execute: async ({ city, unit }) => {
      const w = WEATHER[city];
      if (w === undefined) return { city, error: "unknown city" };
      return { city, temperature: unit === "fahrenheit" ? (w.c * 9) / 5 + 32 : w.c, sky: w.sky };
    },
  }),
  update_contact: aiSdkTool(contact.value, {
    // null clears a member, absent keeps it.
    execute: async (args) => ({ id: args.id, changed: Object.keys(args).filter((k) => k !== "id") }),
  }),
};

export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response('POST {"prompt": ...}', { status: 405 });
    const { prompt } = await request.json();
    // The middleware hands each call's raw text to its codec: decode's checks (a repeated member name
    // refused), not the SDK's JSON.parse.
    const model = wrapLanguageModel({
      model: createOpenAI({ baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY }).chat("gpt-4.1"),
      middleware: aiSdkMiddleware({ get_weather: weather.value, update_contact: contact.value }),
    });
    const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(3) });
    const calls = (result.steps[0]?.content ?? [])
      .filter((part) => part.type === "tool-result" || part.type === "tool-error")
      .map((part) =>
        part.type === "tool-result"
          ? { tool: part.toolName, output: part.output }
          : { tool: part.toolName, error: String(part.error) },
      );
    return Response.json({ calls, text: result.text });
  },
};
