/**
 * Which of decode's promises hold on the mcp-proxy path (docs/targets.md, "Which promises hold on which
 * path"): the proxy decodes each call's arguments as the downstream transport's JSON.parse left them,
 * written back as text, so a lone surrogate and the depth, node and byte limits are refused as decode
 * refuses them, and the upstream is never called. (A repeated member name is merged by that JSON.parse
 * before the proxy sees the message: docs/security.md says so.)
 */
import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tooDeepToStringify } from "./support/depth.js";
import { connectProxy, HOSTILE_SERVER } from "./support/proxy.js";

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

const nested = (depth: number): unknown => (depth === 0 ? "x" : [nested(depth - 1)]);

describe("mcp-proxy keeps decode's promises on the arguments it is sent", () => {
  it.each([
    ["a lone surrogate", { text: "\ud800", times: { state: "absent" } }, "invalid-utf8"],
    ["the depth limit", { text: nested(80), times: { state: "absent" } }, "too-deep"],
    ["the node limit", { text: Array(25_000).fill(1), times: { state: "absent" } }, "too-many-nodes"],
    ["the byte limit", { text: "x".repeat(1_100_000), times: { state: "absent" } }, "input-too-large"],
  ])(
    "refuses %s with decode's code, never calling the upstream",
    async (_, args, code) => {
      const proxy = await connectProxy([], [process.execPath, HOSTILE_SERVER, "wide", "2"]);
      try {
        await proxy.client.listTools();
        const result = await proxy.client.callTool({ name: "echo", arguments: args as Record<string, unknown> });
        expect(result.isError, JSON.stringify(result).slice(0, 300)).toBe(true);
        expect(textOf(result)).toContain(`(${code}`);
        expect(result.structuredContent).toBeUndefined();
      } finally {
        await proxy.client.close();
      }
    },
    60_000,
  );

  it("refuses the depth limit on arguments nested too deep for JSON.stringify, never calling the upstream", async () => {
    const proxy = await connectProxy([], [process.execPath, HOSTILE_SERVER, "wide", "2"]);
    try {
      await proxy.client.listTools();
      // The SDK's client writes with JSON.stringify, which stops some thousands deep: this call is written by hand.
      const marker = "__deep__";
      // Deeper than the proxy's JSON.stringify goes, however large this Node's stack.
      const depth = tooDeepToStringify();
      const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const stdin = (proxy.transport as unknown as { _process: ChildProcess })._process.stdin;
      const send = proxy.transport.send.bind(proxy.transport);
      proxy.transport.send = async (message) => {
        const text = JSON.stringify(message);
        if (!text.includes(marker)) return send(message);
        stdin?.write(`${text.replace(JSON.stringify(marker), deep)}\n`);
      };
      const result = await proxy.client.callTool({
        name: "echo",
        arguments: { text: marker, times: { state: "absent" } },
      });
      expect(result.isError, JSON.stringify(result).slice(0, 300)).toBe(true);
      expect(textOf(result)).toContain("(too-deep");
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await proxy.client.close();
    }
  }, 120_000);
});
