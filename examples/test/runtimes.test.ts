/**
 * The runtime examples (src/runtimes/), run in Node: their build step as a
 * child process (the CLI's `compile --emit module`, esbuild for the page),
 * the Worker's `fetch` with the AI SDK against the local recorded server, the
 * Edge route's handler, and the page's streamed partial values. Running them
 * on workerd, edge-runtime and a browser is the CI runtime matrix's part.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording, startReplay } from "../src/replay-server.js";

const RUNTIMES = fileURLToPath(new URL("../src/runtimes/", import.meta.url));

/** The examples are plain JavaScript, as a Worker or a page ships them: imported by URL, typed here. */
const example = (path: string): Promise<Record<string, unknown>> =>
  import(/* @vite-ignore */ new URL(`../src/runtimes/${path}`, import.meta.url).href);

beforeAll(() => {
  execFileSync(process.execPath, [`${RUNTIMES}build.mjs`], { stdio: "pipe" });
}, 120_000);

describe("runtime examples", { timeout: 60_000 }, () => {
  it("the Worker: the AI SDK with precompiled tools, decoded values to execute, feedback for the rest", async () => {
    const worker = (await example("worker.mjs")).default as {
      fetch: (request: Request, env: Record<string, string>) => Promise<Response>;
    };
    const server = await startReplay(readRecording("ai-sdk"));
    try {
      const response = await worker.fetch(
        new Request("http://worker.example/", { method: "POST", body: JSON.stringify({ prompt: "Weather?" }) }),
        { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: "sk-offline-example" },
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { calls: Record<string, unknown>[]; text: string };
      // In the order the SDK reports them: each decoded call executed, the others answered as tool errors.
      expect(body.calls).toContainEqual({
        tool: "get_weather",
        output: { city: "Oslo", temperature: 4, sky: "cloudy" },
      });
      expect(body.calls).toContainEqual({
        tool: "get_weather",
        output: { city: "Lima", temperature: 19, sky: "overcast" },
      });
      // Null stays null, absent members stay absent: only phone changes.
      expect(body.calls).toContainEqual({ tool: "update_contact", output: { id: "ada", changed: ["phone"] } });
      const errors = body.calls.filter((c) => "error" in c);
      // The empty city, the unknown tool, and the call that repeats "id" (the middleware refuses it,
      // never run as the last "id").
      expect(errors.map((c) => c.tool).sort()).toEqual(["get_weather", "send_sms", "update_contact"]);
      expect(String(errors.find((c) => c.tool === "get_weather")?.error)).toContain("/city");
      expect(body.calls.length).toBe(6);
      expect(String(errors.find((c) => c.tool === "update_contact")?.error)).toContain("duplicate-key");
      expect(body.calls.filter((c) => JSON.stringify(c.output ?? null).includes("grace"))).toEqual([]);
      expect(body.text).toContain("Oslo is 4 °C and cloudy; Lima is 19 °C and overcast.");
      // The server saw the wire schemas, strict.
      const first = server.requests[0] as { tools: { function: { strict?: boolean } }[] };
      expect(first.tools.every((t) => t.function.strict === true)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("the Edge route: a POSTed call decoded, a contract violation answered with feedback", async () => {
    const handler = (await example("edge.mjs")).default as (request: Request) => Promise<Response>;
    const post = (body: unknown) =>
      handler(new Request("http://edge.example/api/call", { method: "POST", body: JSON.stringify(body) }));
    const ok = await post({ name: "get_weather", arguments: '{"city":"Lima","unit":{"state":"absent"}}' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ arguments: { city: "Lima" } });
    const refused = await post({ name: "get_weather", arguments: '{"city":"","unit":{"state":"absent"}}' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      error: "contract-violation",
      feedback: expect.stringContaining("/city"),
    });
  });

  it("the browser page: each delta's partial value in the source form, bundled for the browser", async () => {
    const page = (await example("page/page.mjs")) as unknown as {
      RECORDED_DELTAS: string[];
      streamedPartials: (deltas: string[]) => { partials: string[]; final: unknown };
    };
    const { partials, final } = page.streamedPartials(page.RECORDED_DELTAS);
    expect(partials.length).toBe(page.RECORDED_DELTAS.length);
    // The source form: no presence tag ever shows, and the city grows as it is written.
    expect(partials.some((p) => p.includes('"state"'))).toBe(false);
    expect(partials).toContain('{"city":"Li"}');
    expect(partials.at(-1)).toBe('{"city":"Lima","unit":"fahrenheit"}');
    expect(final).toEqual({ city: "Lima", unit: "fahrenheit" });
    // The page's script bundled for the browser, with no Node built-in and no compiler in it.
    const app = readFileSync(`${RUNTIMES}page/app.js`, "utf8");
    expect(app).not.toMatch(/["']node:/);
    expect(app).not.toContain("new Function");
    // The page's policy allows scripts from itself only: no 'unsafe-eval'.
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(
      readFileSync(`${RUNTIMES}page/index.html`, "utf8"),
    );
    expect(csp?.[1]).toContain("script-src 'self'");
    expect(csp?.[1]).not.toContain("unsafe-eval");
  });
});
