/**
 * A local stand-in for a provider's API: an HTTP server on 127.0.0.1 (a free
 * port) that answers each request with the next recorded response. It checks
 * what a real API would refuse (tools that are not strict, a tool call left
 * without its result) and answers those with the provider's own error shape,
 * so the SDK throws as it would against the real service.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedProvider = "openai-responses" | "openai-chat" | "anthropic" | "gemini";

export interface Recording {
  readonly provider: RecordedProvider;
  /** The one path the provider's SDK posts to, e.g. /v1/responses. */
  readonly path: string;
  readonly turns: readonly {
    /** Call ids whose results this request must carry. */
    readonly expectToolResults?: readonly string[];
    readonly response: unknown;
  }[];
}

export interface ReplayServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** Request bodies received, in order. */
  readonly requests: unknown[];
  close(): Promise<void>;
}

export function readRecording(name: string): Recording {
  return JSON.parse(readFileSync(new URL(`../recordings/${name}.json`, import.meta.url), "utf8")) as Recording;
}

export async function startReplay(recording: Recording): Promise<ReplayServer> {
  const requests: unknown[] = [];
  let turn = 0;
  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        const problem = check(req, text);
        if (problem !== undefined) return sendError(res, recording.provider, problem);
        const body = JSON.parse(text) as unknown;
        requests.push(body);
        const recorded = recording.turns[turn++];
        if (recorded === undefined) return sendError(res, recording.provider, "no more recorded turns");
        const missing = (recorded.expectToolResults ?? []).filter((id) => !carriesResult(recording.provider, body, id));
        if (missing.length > 0) {
          return sendError(res, recording.provider, `No tool output found for call ${missing.join(", ")}.`);
        }
        send(res, 200, recorded.response);
      },
      (error: unknown) => sendError(res, recording.provider, String(error)),
    );
  });

  const check = (req: IncomingMessage, text: string): string | undefined => {
    if (req.method !== "POST" || req.url?.split("?")[0] !== recording.path) {
      return `unexpected ${req.method} ${req.url}: this server answers POST ${recording.path}`;
    }
    // Anthropic's SDK sends the key as x-api-key or as a bearer token, depending on its version.
    const key =
      req.headers.authorization ??
      (recording.provider === "anthropic"
        ? req.headers["x-api-key"]
        : recording.provider === "gemini"
          ? req.headers["x-goog-api-key"]
          : undefined);
    if (typeof key !== "string" || key.length === 0) return "missing API key";
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return "the request body is not JSON";
    }
    // Gemini's strict mode is the request's: without VALIDATED its declarations promise nothing.
    if (recording.provider === "gemini" && !validated(body)) {
      return "toolConfig.functionCallingConfig.mode is not VALIDATED: function calls are not held to the schemas";
    }
    const notStrict = toolSchemas(recording.provider, body).filter((t) => !t.strict || !isClosedObject(t.schema));
    if (notStrict.length > 0)
      return `tools not in strictwire's strict form: ${notStrict.map((t) => t.name).join(", ")}`;
    return undefined;
  };

  // Port 0: the system picks a free port, so examples and tests never collide.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, provider: RecordedProvider, message: string): void {
  const body =
    provider === "anthropic"
      ? { type: "error", error: { type: "invalid_request_error", message } }
      : provider === "gemini"
        ? { error: { code: 400, message, status: "INVALID_ARGUMENT" } }
        : { error: { message, type: "invalid_request_error", param: null, code: null } };
  send(res, 400, body);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function toolSchemas(provider: RecordedProvider, body: unknown): { name: unknown; strict: boolean; schema: unknown }[] {
  if (!isObject(body)) return [];
  if (provider === "gemini") {
    // Strict is the request's toolConfig (checked apart); a declaration holds the schema.
    return list(body.tools)
      .filter(isObject)
      .flatMap((t) => list(t.functionDeclarations).filter(isObject))
      .map((d) => ({ name: d.name, strict: !("parameters" in d), schema: d.parametersJsonSchema }));
  }
  return list(body.tools)
    .filter(isObject)
    .map((t) => {
      if (provider === "anthropic") return { name: t.name, strict: t.strict === true, schema: t.input_schema };
      if (provider === "openai-responses") return { name: t.name, strict: t.strict === true, schema: t.parameters };
      const fn = isObject(t.function) ? t.function : {};
      return { name: fn.name, strict: fn.strict === true, schema: fn.parameters };
    });
}

function validated(body: unknown): boolean {
  const config = isObject(body) && isObject(body.toolConfig) ? body.toolConfig.functionCallingConfig : undefined;
  return isObject(config) && config.mode === "VALIDATED";
}

/** strictwire's wire schemas are closed objects at the top (an object root is the wire root itself). */
function isClosedObject(schema: unknown): boolean {
  return isObject(schema) && schema.type === "object" && schema.additionalProperties === false;
}

function carriesResult(provider: RecordedProvider, body: unknown, id: string): boolean {
  if (!isObject(body)) return false;
  switch (provider) {
    case "openai-responses":
      return list(body.input).some((i) => isObject(i) && i.type === "function_call_output" && i.call_id === id);
    case "openai-chat":
      return list(body.messages).some((m) => isObject(m) && m.role === "tool" && m.tool_call_id === id);
    case "gemini": {
      // Gemini wants the responses in the user turn right after the model's.
      const last = list(body.contents).at(-1);
      return (
        isObject(last) &&
        last.role === "user" &&
        list(last.parts).some((p) => isObject(p) && isObject(p.functionResponse) && p.functionResponse.id === id)
      );
    }
    case "anthropic": {
      // Anthropic wants every result in the user message right after the tool_use turn.
      const last = list(body.messages).at(-1);
      return (
        isObject(last) &&
        last.role === "user" &&
        list(last.content).some((b) => isObject(b) && b.type === "tool_result" && b.tool_use_id === id)
      );
    }
  }
}
