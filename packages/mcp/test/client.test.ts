/**
 * The client helper against a real server: strict definitions for a provider
 * API from a connected SDK client, and a dispatcher that decodes a model's
 * calls and makes them on the MCP server.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_RULES } from "../../codec/testkit/strict-rules.js";
import { resultText, strictMcpTools } from "../src/index.js";
import { type Connected, connect, serverBin } from "./support/proxy.js";

const FILESYSTEM = serverBin("@modelcontextprotocol/server-filesystem");

describe("strictMcpTools over server-filesystem", () => {
  let dir: string;
  let server: Connected;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "strictwire-mcp-client-"));
    await writeFile(join(dir, "seed.txt"), "seed");
    server = await connect(process.execPath, [FILESYSTEM, dir]);
  });
  afterAll(async () => {
    await server?.client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("gives OpenAI Responses definitions within the strict rules, and runs a decoded call on the server", async () => {
    const { tools, dispatcher, skipped } = await strictMcpTools(server.client, { api: "openai-responses" });
    const listed = (await server.client.listTools()).tools;
    expect(skipped).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(listed.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.strict).toBe(true);
      expect(STRICT_RULES.openai(tool.parameters), tool.name).toEqual([]);
    }

    const path = join(dir, "from-model.txt");
    const codec = dispatcher.codecs.write_file;
    if (codec === undefined) throw new Error("no write_file codec");
    const encoded = codec.encode({ path, content: "hello" });
    if (!encoded.ok) throw new Error(encoded.error.message);
    const bad = join(dir, "bad.txt");
    const response = {
      output: [
        { type: "function_call", call_id: "c1", name: "write_file", arguments: JSON.stringify(encoded.value) },
        // Duplicate keys: refused by the decoder before anything is written.
        {
          type: "function_call",
          call_id: "c2",
          name: "write_file",
          arguments: `{"path":${JSON.stringify(bad)},"content":"a","content":"b"}`,
        },
      ],
    };
    const { messages, calls } = await dispatcher.responses(response);
    expect(calls.map((c) => c.kind)).toEqual(["ok", "rejected"]);
    expect(messages[0]).toEqual({
      type: "function_call_output",
      call_id: "c1",
      output: `Successfully wrote to ${path}`,
    });
    expect(messages[1]?.output).toMatch(/content/);
    expect(await readFile(path, "utf8")).toBe("hello");
    expect(existsSync(bad)).toBe(false);
  });

  it("gives Anthropic definitions within its strict rules, and answers with tool_result blocks", async () => {
    const { tools, dispatcher, mcpNames } = await strictMcpTools(server.client, { api: "anthropic" });
    for (const tool of tools) expect(STRICT_RULES.anthropic(tool.input_schema), tool.name).toEqual([]);
    expect(mcpNames.get("list_directory")).toBe("list_directory");

    const codec = dispatcher.codecs.list_directory;
    if (codec === undefined) throw new Error("no list_directory codec");
    const encoded = codec.encode({ path: dir });
    if (!encoded.ok) throw new Error(encoded.error.message);
    const { messages } = await dispatcher.anthropic({
      content: [{ type: "tool_use", id: "t1", name: "list_directory", input: encoded.value }],
    });
    const block = messages[0]?.content[0];
    expect(block?.tool_use_id).toBe("t1");
    expect(block?.is_error).toBeUndefined();
    expect(block?.content).toContain("[FILE] seed.txt");
  });

  it("gives Gemini declarations with the VALIDATED toolConfig, and answers with functionResponse parts", async () => {
    const { tools, toolConfig, dispatcher } = await strictMcpTools(server.client, { api: "gemini" });
    expect(toolConfig).toEqual({ functionCallingConfig: { mode: "VALIDATED" } });
    expect(tools.every((t) => t.parametersJsonSchema !== undefined && !("parameters" in t))).toBe(true);
    const { toolConfig: none } = await strictMcpTools(server.client, { api: "anthropic" });
    expect(none).toBeUndefined();

    const codec = dispatcher.codecs.list_directory;
    if (codec === undefined) throw new Error("no list_directory codec");
    const encoded = codec.encode({ path: dir });
    if (!encoded.ok) throw new Error(encoded.error.message);
    const { messages } = await dispatcher.gemini({
      candidates: [
        { content: { parts: [{ functionCall: { id: "g1", name: "list_directory", args: encoded.value } }] } },
      ],
    });
    const part = messages[0]?.parts[0]?.functionResponse;
    expect(part?.id).toBe("g1");
    expect(part?.response).toEqual({ output: expect.stringContaining("[FILE] seed.txt") });
  });

  it("marks a tool's own error result as an error in the text the model reads", () => {
    expect(resultText({ content: [{ type: "text", text: "denied" }], isError: true })).toBe(
      "The tool reported an error: denied",
    );
    expect(resultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });
});
