/**
 * A local stand-in for four provider APIs' structured-output answers: an
 * HTTP server on 127.0.0.1 (a free port) that keeps every request body and
 * answers with a scripted answer in the format of the API the path names,
 * whole or streamed as the request asks:
 *
 * - POST /v1/chat/completions        OpenAI Chat Completions (SSE chunks, `data: [DONE]`)
 * - POST /v1/responses               OpenAI Responses (SSE events, `response.completed`)
 * - POST /v1/messages                Anthropic Messages (SSE events, `message_stop`)
 * - POST /v1beta/models/M:generateContent, :streamGenerateContent?alt=sse   Gemini
 *
 * A script says what the model "wrote"; these are scripted replies, not a
 * model's output. `cut-stream` ends the connection after the text, before the
 * provider's own end event: what a dropped connection looks like.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type AnswerApi = "openai-chat" | "openai-responses" | "anthropic" | "gemini";

export type AnswerScript =
  /** The answer's text, sent whole or in these deltas, and ended as the provider ends an answer. */
  | { readonly kind: "answer"; readonly text: string; readonly deltas?: readonly string[] }
  /** The model declines. */
  | { readonly kind: "refusal"; readonly message: string }
  /** The token limit cuts the answer after `text`. */
  | { readonly kind: "cut"; readonly text: string; readonly deltas?: readonly string[] }
  /** A safety filter stops the answer (Gemini SAFETY, OpenAI content_filter). */
  | { readonly kind: "blocked" }
  /** Streamed only: the text's deltas, then the connection ends with no end event. */
  | { readonly kind: "cut-stream"; readonly deltas: readonly string[] };

export interface CapturedRequest {
  readonly api: AnswerApi;
  readonly path: string;
  readonly stream: boolean;
  readonly body: Record<string, unknown>;
}

export interface AnswerServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The next requests' answer (kept until changed). */
  script: AnswerScript;
  readonly requests: CapturedRequest[];
  close(): Promise<void>;
}

export async function startAnswerServer(script: AnswerScript): Promise<AnswerServer> {
  const requests: CapturedRequest[] = [];
  const state = { script };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      const api = apiOf(req, path);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: { message: "body is not JSON" } });
      }
      if (api === undefined) return json(res, 404, { error: { message: `no such path ${path}` } });
      const stream = api === "gemini" ? path.includes(":streamGenerateContent") : body.stream === true;
      requests.push({ api, path, stream, body });
      const s = state.script;
      if (stream) return sse(res, RENDER[api].stream(s, body));
      if (s.kind === "cut-stream") return json(res, 500, { error: { message: "cut-stream is for streams" } });
      json(res, 200, RENDER[api].whole(s, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get script() {
      return state.script;
    },
    set script(s: AnswerScript) {
      state.script = s;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function apiOf(req: IncomingMessage, path: string): AnswerApi | undefined {
  if (req.method !== "POST") return undefined;
  const p = path.split("?")[0] ?? "";
  if (p === "/v1/chat/completions") return "openai-chat";
  if (p === "/v1/responses") return "openai-responses";
  if (p === "/v1/messages") return "anthropic";
  if (/^\/v1beta\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(p)) return "gemini";
  return undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** One SSE frame per entry (`{event?, data}`); `undefined` data ends the connection there, unfinished. */
function sse(res: ServerResponse, frames: readonly Frame[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const f of frames) {
    const data = typeof f.data === "string" ? f.data : JSON.stringify(f.data);
    res.write(`${f.event !== undefined ? `event: ${f.event}\n` : ""}data: ${data}\n\n`);
  }
  res.end();
}

interface Frame {
  readonly event?: string;
  readonly data: unknown;
}

interface Renderer {
  whole(s: Exclude<AnswerScript, { kind: "cut-stream" }>, body: Record<string, unknown>): unknown;
  stream(s: AnswerScript, body: Record<string, unknown>): Frame[];
}

function deltasOf(s: AnswerScript): readonly string[] {
  if (s.kind === "cut-stream") return s.deltas;
  if (s.kind === "answer" || s.kind === "cut") return s.deltas ?? [s.text];
  return [];
}

const model = (body: Record<string, unknown>): string => (typeof body.model === "string" ? body.model : "model");

// ---- OpenAI Chat Completions ------------------------------------------------------

const CHAT_FINISH = { answer: "stop", refusal: "stop", cut: "length", blocked: "content_filter" } as const;

const chat: Renderer = {
  whole: (s, body) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: model(body),
    choices: [
      {
        index: 0,
        finish_reason: CHAT_FINISH[s.kind],
        logprobs: null,
        message: {
          role: "assistant",
          content: s.kind === "answer" || s.kind === "cut" ? s.text : null,
          refusal: s.kind === "refusal" ? s.message : null,
        },
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  }),
  stream: (s, body) => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): Frame => ({
      data: {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        created: 1,
        model: model(body),
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      },
    });
    const frames = [chunk({ role: "assistant", content: "" })];
    if (s.kind === "refusal") frames.push(chunk({ refusal: s.message }));
    for (const d of deltasOf(s)) frames.push(chunk({ content: d }));
    if (s.kind === "cut-stream") return frames;
    frames.push(chunk({}, CHAT_FINISH[s.kind]), { data: "[DONE]" });
    return frames;
  },
};

// ---- OpenAI Responses ---------------------------------------------------------------

function responseBody(s: Exclude<AnswerScript, { kind: "cut-stream" }>, body: Record<string, unknown>) {
  const content =
    s.kind === "refusal"
      ? [{ type: "refusal", refusal: s.message }]
      : s.kind === "blocked"
        ? []
        : [{ type: "output_text", text: s.text, annotations: [] }];
  const complete = s.kind === "answer" || s.kind === "refusal";
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    model: model(body),
    status: complete ? "completed" : "incomplete",
    incomplete_details: complete ? null : { reason: s.kind === "cut" ? "max_output_tokens" : "content_filter" },
    output: [
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: complete ? "completed" : "incomplete",
        content,
      },
    ],
    usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 },
  };
}

const responses: Renderer = {
  whole: responseBody,
  stream: (s, body) => {
    let seq = 0;
    const event = (type: string, rest: Record<string, unknown>): Frame => ({
      event: type,
      data: { type, sequence_number: seq++, ...rest },
    });
    const started = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      model: model(body),
      status: "in_progress",
      output: [],
    };
    const frames = [
      event("response.created", { response: started }),
      event("response.output_item.added", {
        output_index: 0,
        item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] },
      }),
    ];
    const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
    if (s.kind === "refusal") {
      frames.push(event("response.refusal.delta", { ...at, delta: s.message }));
      frames.push(event("response.refusal.done", { ...at, refusal: s.message }));
    }
    const deltas = deltasOf(s);
    for (const d of deltas) frames.push(event("response.output_text.delta", { ...at, delta: d, logprobs: [] }));
    if (s.kind === "cut-stream") return frames;
    if (s.kind === "answer" || s.kind === "cut") {
      frames.push(event("response.output_text.done", { ...at, text: deltas.join(""), logprobs: [] }));
    }
    const whole = responseBody(s, body);
    frames.push(
      event(whole.status === "completed" ? "response.completed" : "response.incomplete", { response: whole }),
    );
    return frames;
  },
};

// ---- Anthropic Messages ----------------------------------------------------------------

const ANTHROPIC_STOP = { answer: "end_turn", refusal: "refusal", cut: "max_tokens", blocked: "refusal" } as const;

const anthropic: Renderer = {
  whole: (s, body) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: model(body),
    content: s.kind === "answer" || s.kind === "cut" ? [{ type: "text", text: s.text }] : [],
    stop_reason: ANTHROPIC_STOP[s.kind],
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 5 },
  }),
  stream: (s, body) => {
    const event = (type: string, rest: Record<string, unknown>): Frame => ({ event: type, data: { type, ...rest } });
    const frames = [
      event("message_start", {
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: model(body),
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
    ];
    const deltas = deltasOf(s);
    if (deltas.length > 0 || s.kind === "cut-stream") {
      frames.push(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
      for (const d of deltas) {
        frames.push(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: d } }));
      }
      if (s.kind === "cut-stream") return frames;
      frames.push(event("content_block_stop", { index: 0 }));
    }
    frames.push(
      event("message_delta", {
        delta: { stop_reason: ANTHROPIC_STOP[s.kind], stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      event("message_stop", {}),
    );
    return frames;
  },
};

// ---- Gemini generateContent ---------------------------------------------------------------

const GEMINI_FINISH = { answer: "STOP", refusal: "STOP", cut: "MAX_TOKENS", blocked: "SAFETY" } as const;

function geminiChunk(text: string | undefined, finish: string | undefined, body: Record<string, unknown>) {
  return {
    candidates: [
      {
        index: 0,
        content: { role: "model", parts: text === undefined ? [] : [{ text }] },
        ...(finish !== undefined ? { finishReason: finish } : {}),
      },
    ],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
    modelVersion: model(body),
  };
}

const gemini: Renderer = {
  // Gemini has no refusal field: a model that declines writes text, which the wire then refuses.
  whole: (s, body) =>
    geminiChunk(
      s.kind === "answer" || s.kind === "cut" ? s.text : s.kind === "refusal" ? s.message : undefined,
      GEMINI_FINISH[s.kind],
      body,
    ),
  stream: (s, body) => {
    const deltas = s.kind === "refusal" ? [s.message] : deltasOf(s);
    const frames: Frame[] = deltas.map((d, i) => ({
      data: geminiChunk(
        d,
        s.kind !== "cut-stream" && i === deltas.length - 1 ? GEMINI_FINISH[s.kind] : undefined,
        body,
      ),
    }));
    if (deltas.length === 0 && s.kind !== "cut-stream")
      frames.push({ data: geminiChunk(undefined, GEMINI_FINISH[s.kind], body) });
    return frames;
  },
};

const RENDER: Readonly<Record<AnswerApi, Renderer>> = {
  "openai-chat": chat,
  "openai-responses": responses,
  anthropic,
  gemini,
};
