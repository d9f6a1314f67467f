/**
 * A real HTTP server on 127.0.0.1 that speaks Chat Completions, Responses and
 * Anthropic Messages with scripted answers. It records every request so tests
 * can look at exactly what was sent.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { compileCodec } from "@strictwire/codec";
import { type Api, BUILTIN_ARMS, type Workflow } from "../src/index.js";

export interface Seen {
  readonly api: Api;
  readonly headers: IncomingMessage["headers"];
  readonly text: string;
  readonly body: Record<string, unknown>;
}

export interface Call {
  readonly name: string;
  /** The arguments text (chat, responses); parsed for Anthropic, which takes an object. */
  readonly arguments: string;
}

export type Answer =
  | {
      readonly kind: "calls";
      readonly calls: readonly Call[];
      readonly delayMs?: number;
      /** The model name the response gives (every API's body has one). */
      readonly model?: string;
    }
  | {
      readonly kind: "status";
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: unknown;
    }
  | { readonly kind: "hang" };

export type Script = (seen: Seen, index: number) => Answer;

export interface Loopback {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

const API_OF: Record<string, Api> = {
  "/v1/chat/completions": "chat",
  "/v1/responses": "responses",
  "/v1/messages": "anthropic",
};

export function replyBody(api: Api, calls: readonly Call[]): unknown {
  if (api === "chat")
    return {
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: calls.map((c, i) => ({
              id: `call_${i}`,
              type: "function",
              function: { name: c.name, arguments: c.arguments },
            })),
          },
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    };
  if (api === "responses")
    return {
      output: calls.map((c, i) => ({
        type: "function_call",
        call_id: `call_${i}`,
        name: c.name,
        arguments: c.arguments,
      })),
      usage: { input_tokens: 100, output_tokens: 20 },
    };
  return {
    content: calls.map((c, i) => ({
      type: "tool_use",
      id: `toolu_${i}`,
      name: c.name,
      input: JSON.parse(c.arguments) as unknown,
    })),
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

export async function startLoopback(script: Script): Promise<Loopback> {
  const seen: Seen[] = [];
  const hanging = new Set<IncomingMessage>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const api = API_OF[req.url ?? ""];
      if (api === undefined) {
        res.writeHead(404).end("{}");
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      const entry: Seen = { api, headers: req.headers, text, body: JSON.parse(text) as Record<string, unknown> };
      seen.push(entry);
      const answer = script(entry, seen.length - 1);
      if (answer.kind === "hang") {
        hanging.add(req);
        return;
      }
      const status = answer.kind === "status" ? answer.status : 200;
      const body =
        answer.kind === "status"
          ? (answer.body ?? { error: { message: "scripted" } })
          : {
              ...(replyBody(api, answer.calls) as object),
              ...(answer.model !== undefined ? { model: answer.model } : {}),
            };
      res.writeHead(status, {
        "content-type": "application/json",
        ...(answer.kind === "status" ? answer.headers : {}),
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The tools a request offered, whatever the API's envelope: name, parameters, strict. */
export function offeredTools(seen: Seen): { name: string; parameters: unknown; strict: unknown }[] {
  const tools = seen.body.tools as Record<string, unknown>[];
  return tools.map((t) => {
    if (seen.api === "chat") {
      const f = t.function as Record<string, unknown>;
      return { name: f.name as string, parameters: f.parameters, strict: f.strict };
    }
    if (seen.api === "responses") return { name: t.name as string, parameters: t.parameters, strict: t.strict };
    return { name: t.name as string, parameters: t.input_schema, strict: t.strict };
  });
}

/** The user message text of the first turn (the instruction and state). */
export function userMessage(seen: Seen): string {
  const list = (seen.api === "responses" ? seen.body.input : seen.body.messages) as {
    role?: string;
    content?: unknown;
  }[];
  const first = list.find((m) => m.role === "user");
  return typeof first?.content === "string" ? first.content : "";
}

/** Prepared parameters → arm, per (API, tool): each arm compiles a tool once, not once per request. */
const armsByParameters = new Map<string, Map<string, string>>();

/** Which arm sent this request: the first arm whose prepared parameters match what was offered. */
export function armOf(seen: Seen, workflows: Iterable<Workflow>): string {
  const offered = offeredTools(seen)[0];
  const tool = [...workflows].map((w) => w.tool).find((t) => t.name === offered?.name);
  if (tool === undefined) return "unknown";
  const k = `${seen.api}|${JSON.stringify(tool)}`;
  let known = armsByParameters.get(k);
  if (known === undefined) {
    known = new Map();
    for (const arm of BUILTIN_ARMS) {
      if (arm.unavailable(seen.api) !== undefined) continue;
      const p = arm.prepare(tool, seen.api);
      const text = p.ok ? JSON.stringify(p.value.tool.parameters) : undefined;
      if (text !== undefined && !known.has(text)) known.set(text, arm.name);
    }
    armsByParameters.set(k, known);
  }
  return known.get(JSON.stringify(offered?.parameters)) ?? "unknown";
}

const ARM_OPTIONS: Record<string, Record<string, unknown>> = {
  tagged: { presence: "tagged" },
  compact: { presence: "compact" },
  minimal: { presence: "tagged", tags: "minimal" },
  factored: { presence: "tagged", factored: true },
  "tagged-described": { presence: "tagged" },
  native: { target: "anthropic" },
};

const codecs = new Map<string, ReturnType<typeof compileCodec>>();

/** The arguments text a perfect model would write for this value in this arm. */
export function argumentsFor(arm: string, workflow: Workflow, value: unknown): string {
  if (arm === "control") return JSON.stringify(value);
  const k = `${arm}|${JSON.stringify(workflow.tool)}`;
  let codec = codecs.get(k);
  if (codec === undefined) {
    codec = compileCodec(workflow.tool.parameters, { name: workflow.tool.name, ...ARM_OPTIONS[arm] });
    codecs.set(k, codec);
  }
  if (!codec.ok) throw new Error(codec.error.message);
  const wire = codec.value.encode(value);
  if (!wire.ok) throw new Error(wire.error.message);
  return JSON.stringify(wire.value);
}
