/**
 * Every example runs as a user would run it (a child process, tsx, source
 * conditions) against its local recorded server, and must exit 0 having sent
 * the right tool results back; the server itself refuses a follow-up request
 * that leaves a call unanswered.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { geminiTools } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { declarationsOf, generatedPath } from "../src/generate-types.js";
import { readRecording, startReplay } from "../src/replay-server.js";
import { TOOL_NAMES, toolSet } from "../src/tools.js";

const run = promisify(execFile);
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const examples = fileURLToPath(new URL("..", import.meta.url));

async function example(file: string): Promise<string> {
  const { stdout } = await run(process.execPath, [tsx, "--conditions=strictwire-source", `src/${file}`], {
    cwd: examples,
    timeout: 90_000,
    // The examples must not reach the network: no proxy may redirect them, and no real key is given.
    env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", HTTPS_PROXY: "", HTTP_PROXY: "" },
  });
  return stdout;
}

const ANSWER = "answer: Oslo is 4 °C and cloudy; Lima is 19 °C and overcast.";

/** What every provider example shows: originals reach handlers, the rest goes back as feedback. */
function expectDispatch(out: string, sent: string): void {
  expect(out).toContain('handler get_weather received {"city":"Oslo","unit":"celsius"}');
  // Absent stays absent: no unit key at all.
  expect(out).toContain('handler get_weather received {"city":"Lima"}\n');
  // Null stays null and absent members stay absent.
  expect(out).toContain('handler update_contact received {"id":"ada","phone":null}\n');
  expect(out).toContain("contact ada updated (email: kept, phone: cleared, labels: kept)");
  expect(out).toMatch(
    /rejected +get_weather .*\n +-> The arguments for get_weather are well-formed but not acceptable: \/city/,
  );
  expect(out).toMatch(/unknown-tool +send_sms .*\n +-> There is no tool named "send_sms"/);
  expect(out).not.toContain('received {"to"');
  expect(out).toContain(sent);
  expect(out).toContain(ANSWER);
}

// One at a time, with room: each starts tsx and an SDK, a few seconds of CPU on a small machine.
describe("examples", { timeout: 120_000 }, () => {
  it("openai (Responses API)", async () => {
    const out = await example("openai-responses.ts");
    expectDispatch(out, "sent 5 function_call_output items back");
  });

  it("openai:chat (Chat Completions)", async () => {
    const out = await example("openai-chat.ts");
    expectDispatch(out, "sent 5 tool messages back");
  });

  it("anthropic (Messages API)", async () => {
    const out = await example("anthropic.ts");
    expectDispatch(out, "sent 5 tool_result blocks back, 2 with is_error");
  });

  it("gemini (generateContent with @google/genai, VALIDATED)", async () => {
    const out = await example("gemini.ts");
    expect(out).toContain("2 tools, mode VALIDATED");
    expectDispatch(out, "sent 5 functionResponse parts back, 2 with error");
  });

  it("the gemini stand-in refuses declarations sent without VALIDATED, as Gemini would not hold calls to them", async () => {
    const server = await startReplay(readRecording("gemini"));
    try {
      const tools = geminiTools([toolSet("gemini").get_weather.bundle]);
      if (!tools.ok) throw new Error(tools.error.message);
      const post = (body: unknown) =>
        fetch(`${server.origin}${readRecording("gemini").path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-goog-api-key": "k" },
          body: JSON.stringify(body),
        });
      const contents = [{ role: "user", parts: [{ text: "weather" }] }];
      const bare = await post({ contents, tools: tools.value.tools });
      expect(bare.status).toBe(400);
      expect(await bare.text()).toContain("not VALIDATED");
      expect((await post({ contents, ...tools.value })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("ai-sdk (generateText)", async () => {
    const out = await example("ai-sdk.ts");
    expect(out).toContain('handler get_weather received {"city":"Lima"}\n');
    expect(out).toContain('handler update_contact received {"id":"ada","phone":null}\n');
    expect(out).toMatch(
      /tool-error +get_weather .*\n +-> Invalid input for tool get_weather:.*\n.*well-formed but not acceptable: \/city/,
    );
    expect(out).toMatch(/tool-error +send_sms /);
    // aiSdkMiddleware: the call that repeats "id" is refused with decode's feedback, never run as the last "id".
    expect(out).toMatch(/tool-error +update_contact +call_Pq2Rs3Tu4Vw5Xy6Za7Bc8De9\n.*\n.*duplicate-key at \/id\)/);
    expect(out).not.toContain('received {"id":"grace"');
    expect(out).toContain("history replays 5 of 5 calls of its tools in the wire form");
    expect(out).toContain(ANSWER);
  });
  it("agents (OpenAI Agents SDK, Zod tool through strictTool)", async () => {
    const out = await example("agents.ts");
    expect(out).toContain("tool update_contact strict=true");
    // .optional() email left out stays absent; .nullable() phone arrives as null.
    expect(out).toContain('execute update_contact received {"id":"ada","phone":null}\n');
    expect(out).toMatch(/call_Ag2XcV5bN7mQ1wE3rT9yU4iO\n +-> The arguments were rejected \(duplicate-key at \/id\)/);
    expect(out).toMatch(/call_Ag3PlK8jH6gF4dS2aZ0xC7vB\n +-> .*not acceptable: \/id: contact ids are lower case/);
    expect(out).not.toContain('received {"id":"Grace"');
    expect(out).toContain("answer: I cleared Ada's phone number");
  });
});

describe("generated handler types", () => {
  it.each(TOOL_NAMES)("src/generated/%s.d.ts matches its schema (pnpm --filter @strictwire/examples types)", (name) => {
    expect(readFileSync(generatedPath(name), "utf8")).toBe(declarationsOf(name));
  });
});
