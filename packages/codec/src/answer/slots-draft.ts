// DRAFT (not committed): each slot moves into its provider module once providers/ exists.
import { ok } from "../errors.js";
import { isPlainObject, type JsonObject } from "../json.js";
import type { AnswerRead, AnswerSignal, AnswerSlot } from "./answer.js";

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `response_format` of a Chat Completions request. */
export interface ChatOutputFormat {
  readonly response_format: {
    readonly type: "json_schema";
    readonly json_schema: {
      readonly name: string;
      readonly description?: string;
      readonly schema: JsonObject;
      readonly strict: boolean;
    };
  };
}

/** `text.format` of a Responses request. */
export interface ResponsesOutputFormat {
  readonly text: {
    readonly format: {
      readonly type: "json_schema";
      readonly name: string;
      readonly description?: string;
      readonly schema: JsonObject;
      readonly strict: boolean;
    };
  };
}

/** `output_config.format` of a Messages request. */
export interface AnthropicOutputFormat {
  readonly output_config: { readonly format: { readonly type: "json_schema"; readonly schema: JsonObject } };
}

/**
 * `generationConfig` of a generateContent request (REST); with `@google/genai`,
 * spread `generationConfig`'s members into `config`.
 */
export interface GeminiOutputFormat {
  readonly generationConfig: { readonly responseMimeType: "application/json"; readonly responseJsonSchema: JsonObject };
}

// ---- OpenAI Chat Completions ------------------------------------------------

/**
 * Choice 0 only (as for tool calls). `message.refusal` is the model's refusal
 * (developers.openai.com/api/docs/guides/structured-outputs, "Refusals").
 */
function chatRead(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a chat completion" };
  const choice = listOf(response.choices)[0];
  if (!isPlainObject(choice)) return { kind: "none", reason: "no choice" };
  const message = isPlainObject(choice.message) ? choice.message : {};
  const finish = choice.finish_reason;
  if (typeof message.refusal === "string" && message.refusal !== "")
    return { kind: "refused", message: message.refusal };
  if (finish === "length") return { kind: "cut", reason: "length" };
  if (finish === "content_filter") return { kind: "blocked", reason: "content_filter" };
  if (typeof message.content === "string" && message.content !== "") return { kind: "text", text: message.content };
  return { kind: "none", reason: typeof finish === "string" ? `finish_reason ${finish}` : "no content" };
}

function chatEvents(): (event: unknown) => readonly AnswerSignal[] {
  return (chunk) => {
    if (!isPlainObject(chunk)) return [];
    const out: AnswerSignal[] = [];
    for (const choice of listOf(chunk.choices)) {
      if (!isPlainObject(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
      const delta = isPlainObject(choice.delta) ? choice.delta : {};
      if (typeof delta.content === "string") out.push({ kind: "text", delta: delta.content });
      if (typeof delta.refusal === "string") out.push({ kind: "refusal", delta: delta.refusal });
      const finish = choice.finish_reason;
      if (finish === "stop") out.push({ kind: "end" });
      else if (finish === "length") out.push({ kind: "ended", read: { kind: "cut", reason: "length" } });
      else if (finish === "content_filter") {
        out.push({ kind: "ended", read: { kind: "blocked", reason: "content_filter" } });
      } else if (typeof finish === "string") {
        out.push({ kind: "ended", read: { kind: "none", reason: `finish_reason ${finish}` } });
      }
    }
    return out;
  };
}

export const chatAnswer: AnswerSlot = {
  target: "openai",
  format: (schema, { name, description }, strict) =>
    ok({
      response_format: {
        type: "json_schema",
        json_schema: { name, ...(description !== undefined ? { description } : {}), schema, strict },
      },
    }),
  read: chatRead,
  events: chatEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
};

// ---- OpenAI Responses ----------------------------------------------------------

function responsesRead(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a response" };
  let text = "";
  for (const item of listOf(response.output)) {
    if (!isPlainObject(item) || item.type !== "message") continue;
    for (const part of listOf(item.content)) {
      if (!isPlainObject(part)) continue;
      if (part.type === "refusal" && typeof part.refusal === "string")
        return { kind: "refused", message: part.refusal };
      if (part.type === "output_text" && typeof part.text === "string") text += part.text;
    }
  }
  if (response.status === "incomplete") {
    const reason = isPlainObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    return reason === "content_filter"
      ? { kind: "blocked", reason }
      : { kind: "cut", reason: typeof reason === "string" ? reason : "incomplete" };
  }
  if (response.status === "failed") return { kind: "none", reason: "status failed" };
  return text === "" ? { kind: "none", reason: "no output_text" } : { kind: "text", text };
}

/**
 * The answer ends at `response.completed`, the response's own end:
 * `response.output_text.done` closes a text part even when the response then
 * ends incomplete, so it only stands in for deltas that never came.
 */
function responsesEvents(): (event: unknown) => readonly AnswerSignal[] {
  let deltas = false;
  return (e) => {
    if (!isPlainObject(e)) return [];
    switch (e.type) {
      case "response.output_text.delta":
        if (typeof e.delta !== "string") return [];
        deltas = true;
        return [{ kind: "text", delta: e.delta }];
      case "response.output_text.done":
        if (deltas || typeof e.text !== "string") return [];
        deltas = true;
        return [{ kind: "text", delta: e.text }];
      case "response.refusal.delta":
        return typeof e.delta === "string" ? [{ kind: "refusal", delta: e.delta }] : [];
      case "response.completed":
        return [{ kind: "end" }];
      case "response.incomplete": {
        const read = responsesRead(e.response);
        return [{ kind: "ended", read: read.kind === "text" ? { kind: "cut", reason: "incomplete" } : read }];
      }
      case "response.failed":
        return [{ kind: "ended", read: { kind: "none", reason: "response.failed" } }];
      default:
        return [];
    }
  };
}

export const responsesAnswer: AnswerSlot = {
  target: "openai",
  format: (schema, { name, description }, strict) =>
    ok({
      text: {
        format: { type: "json_schema", name, ...(description !== undefined ? { description } : {}), schema, strict },
      },
    }),
  read: responsesRead,
  events: responsesEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
};

// ---- Anthropic Messages --------------------------------------------------------

const ANTHROPIC_CUT = new Set(["max_tokens", "model_context_window_exceeded"]);

function anthropicRead(message: unknown): AnswerRead {
  if (!isPlainObject(message)) return { kind: "none", reason: "not a message" };
  const stop = message.stop_reason;
  let text = "";
  for (const block of listOf(message.content)) {
    if (isPlainObject(block) && block.type === "text" && typeof block.text === "string") text += block.text;
  }
  if (stop === "refusal") return { kind: "refused", message: text === "" ? "stop_reason refusal" : text };
  if (typeof stop === "string" && ANTHROPIC_CUT.has(stop)) return { kind: "cut", reason: stop };
  if (text === "") return { kind: "none", reason: typeof stop === "string" ? `stop_reason ${stop}` : "no text" };
  return { kind: "text", text };
}

/** The answer ends at `message_stop`, under the stop reason the last `message_delta` gave. */
function anthropicEvents(): (event: unknown) => readonly AnswerSignal[] {
  let stop: unknown;
  const texts = new Set<number>();
  return (e) => {
    if (!isPlainObject(e)) return [];
    switch (e.type) {
      case "content_block_start":
        if (typeof e.index === "number" && isPlainObject(e.content_block) && e.content_block.type === "text") {
          texts.add(e.index);
          const text = e.content_block.text;
          return typeof text === "string" && text !== "" ? [{ kind: "text", delta: text }] : [];
        }
        return [];
      case "content_block_delta": {
        const delta = e.delta;
        if (typeof e.index !== "number" || !texts.has(e.index) || !isPlainObject(delta)) return [];
        return delta.type === "text_delta" && typeof delta.text === "string"
          ? [{ kind: "text", delta: delta.text }]
          : [];
      }
      case "message_delta":
        if (isPlainObject(e.delta) && typeof e.delta.stop_reason === "string") stop = e.delta.stop_reason;
        return [];
      case "message_stop":
        if (stop === "refusal") return [{ kind: "ended", read: { kind: "refused", message: "" } }];
        if (typeof stop === "string" && ANTHROPIC_CUT.has(stop))
          return [{ kind: "ended", read: { kind: "cut", reason: stop } }];
        if (stop === "end_turn" || stop === "stop_sequence") return [{ kind: "end" }];
        return [
          {
            kind: "ended",
            read: { kind: "none", reason: typeof stop === "string" ? `stop_reason ${stop}` : "no stop_reason" },
          },
        ];
      default:
        return [];
    }
  };
}

export const anthropicAnswer: AnswerSlot = {
  target: "anthropic",
  // No strict switch: an output format is always held to (platform.claude.com, structured outputs).
  format: (schema, _naming, strict) =>
    strict ? ok({ output_config: { format: { type: "json_schema", schema } } }) : failNonStrict("anthropic"),
  read: anthropicRead,
  events: anthropicEvents,
  answerMessage: (text) => ({ role: "assistant", content: text }),
  repairMessage: (feedback) => ({ role: "user", content: feedback }),
};

// ---- Gemini generateContent -------------------------------------------------------

/** Finish reasons that say a filter stopped the answer (`FinishReason` in @google/genai 3.3.0's types). */
const GEMINI_BLOCKED = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "LANGUAGE",
]);

function geminiText(candidate: Record<string, unknown>): string {
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  let text = "";
  for (const part of listOf(content.parts)) {
    // A thought summary is not the answer.
    if (isPlainObject(part) && typeof part.text === "string" && part.thought !== true) text += part.text;
  }
  return text;
}

function geminiFinish(finish: unknown): AnswerSignal | undefined {
  if (finish === undefined || finish === null || finish === "FINISH_REASON_UNSPECIFIED") return undefined;
  if (finish === "STOP") return { kind: "end" };
  if (finish === "MAX_TOKENS") return { kind: "ended", read: { kind: "cut", reason: "MAX_TOKENS" } };
  const reason = String(finish);
  return GEMINI_BLOCKED.has(reason)
    ? { kind: "ended", read: { kind: "blocked", reason } }
    : { kind: "ended", read: { kind: "none", reason: `finishReason ${reason}` } };
}

function geminiRead(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a response" };
  const feedback = response.promptFeedback;
  if (isPlainObject(feedback) && typeof feedback.blockReason === "string") {
    return { kind: "blocked", reason: feedback.blockReason };
  }
  const candidate = listOf(response.candidates)[0];
  if (!isPlainObject(candidate)) return { kind: "none", reason: "no candidate" };
  const finish = geminiFinish(candidate.finishReason);
  if (finish !== undefined && finish.kind === "ended") return finish.read;
  const text = geminiText(candidate);
  return text === "" ? { kind: "none", reason: "no text" } : { kind: "text", text };
}

/** Each chunk is a response; the answer ends with the chunk whose candidate says STOP. */
function geminiEvents(): (event: unknown) => readonly AnswerSignal[] {
  return (chunk) => {
    if (!isPlainObject(chunk)) return [];
    const feedback = chunk.promptFeedback;
    if (isPlainObject(feedback) && typeof feedback.blockReason === "string") {
      return [{ kind: "ended", read: { kind: "blocked", reason: feedback.blockReason } }];
    }
    const candidate = listOf(chunk.candidates)[0];
    if (!isPlainObject(candidate)) return [];
    const out: AnswerSignal[] = [];
    const text = geminiText(candidate);
    if (text !== "") out.push({ kind: "text", delta: text });
    const finish = geminiFinish(candidate.finishReason);
    if (finish !== undefined) out.push(finish);
    return out;
  };
}

export const geminiAnswer: AnswerSlot = {
  target: "gemini",
  // responseJsonSchema has no strict switch: the answer is always held to it.
  format: (schema, _naming, strict) =>
    strict
      ? ok({ generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema } })
      : failNonStrict("gemini"),
  read: geminiRead,
  events: geminiEvents,
  answerMessage: (text) => ({ role: "model", parts: [{ text }] }),
  repairMessage: (feedback) => ({ role: "user", parts: [{ text: feedback }] }),
};

import { fail } from "../feedback/format.js";

function failNonStrict(api: string) {
  return fail(
    "invalid-options",
    "",
    `${api} has no non-strict answer format: this bundle is over the target's limits (compiled with strict: "auto"); make the schema fit the limits`,
  );
}

export type { JsonObject };
