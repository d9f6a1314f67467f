/**
 * Gemini `generateContent`: everything strictwire knows of it. Declarations
 * carry the wire under `parametersJsonSchema` (never `parameters`: the two are
 * mutually exclusive); calls are candidate 0's `functionCall` parts (args as
 * an object), answered by one user turn of `functionResponse` parts; a cut is
 * `finishReason` "MAX_TOKENS". A part of Vertex AI's streamed arguments
 * (`partialArgs`, `willContinue`) read as a whole response is cut: its
 * arguments are not in it (`args` absent would otherwise read as `{}`).
 *
 * Streams (`streamGenerateContent`, the SDK's `generateContentStream`): each
 * chunk is a response whose `functionCall` parts are whole calls (args as an
 * object), each opened, given its text and ended at once; the call a
 * MAX_TOKENS chunk ends in is cut instead. Vertex AI's streamed arguments
 * (`streamFunctionCallArguments`: `partialArgs` as JSON-path deltas with
 * `willContinue`) are not read: such a call is refused (`stream-violation`)
 * with what to turn off, never assembled by guesswork.
 *
 * Structured outputs: `generationConfig.responseJsonSchema` with
 * `responseMimeType` "application/json"; the answer is candidate 0's text
 * parts, its end a chunk whose `finishReason` is "STOP".
 *
 * Gemini's strict mode lives in the request, not in the declaration: function
 * calls are held to the declared schema by constrained decoding only when
 * `toolConfig.functionCallingConfig.mode` is "VALIDATED" (googleapis
 * `google/ai/generativelanguage/v1beta/content.proto`,
 * `FunctionCallingConfig.Mode.VALIDATED`: "will validate function calls with
 * constrained decoding"); the default, AUTO, promises nothing. So the
 * declarations never travel without it: `geminiTools` gives both, ready to
 * spread into a `generateContent` request. The Live API takes neither
 * `parametersJsonSchema` nor `additionalProperties` nor `$schema`: these
 * definitions are for `generateContent` / `streamGenerateContent` only.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { isPlainObject, type JsonObject } from "../json.js";
import type { CompiledTool } from "../targets/profile.js";
import type {
  AnsweredCall,
  AnswerRead,
  AnswerSignal,
  AnswerSlot,
  CallStreams,
  DeltaSink,
  Exchange,
  ExtractedCalls,
  ProviderApiModule,
  RawCall,
  ReplyCall,
  RequestSettings,
  RequestTool,
} from "./api.js";
import {
  answerNotText,
  type Call,
  Calls,
  checkedTool,
  indexZero,
  inputText,
  listOf,
  NO_CALLS,
  named,
  streams,
  streamViolation,
  stringOr,
  TEXT_LOST,
  TOOLS_TURN,
  wholeCalls,
} from "./shared.js";

// ---- shapes -------------------------------------------------------------------

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parametersJsonSchema: JsonObject;
}

/** A Gemini `generateContent` response; candidate 0 is read (the one whose `index` is 0, or the first with none). */
export interface GeminiResponseLike {
  readonly candidates?: readonly {
    readonly index?: unknown;
    readonly finishReason?: unknown;
    readonly content?: unknown;
  }[];
}

/**
 * A Gemini part answering one function call. `response` is an object (a
 * Struct): `output` for a result, `error` for a refusal, the keys Gemini's
 * API reference names. `id` is the call's own, when it had one.
 */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string } | { error: string } };
}

/** The one user turn carrying every function response of a turn, in call order. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: GeminiFunctionResponsePart[];
}

export interface GeminiToolConfig {
  readonly functionCallingConfig: {
    /** "AUTO" only when a tool of the set was compiled to go non-strict (`strict: "auto"` over a limit). */
    readonly mode: "VALIDATED" | "AUTO";
    /** The model may call only these (all of them when absent). */
    readonly allowedFunctionNames?: string[];
  };
}

/** `{ tools, toolConfig }`: spread it into a `generateContent` request body or `config`. */
// Mutable arrays: the SDKs' request types (e.g. @google/genai's `config.tools`) take no readonly ones.
export interface GeminiTools {
  readonly tools: [{ readonly functionDeclarations: GeminiFunctionDeclaration[] }];
  readonly toolConfig: GeminiToolConfig;
  /** The tools compiled to go non-strict; when any is, the whole request is (Gemini's mode is per request). */
  readonly nonStrict: string[];
}

export interface GeminiToolsOptions {
  /** Limit the calls the model may make to these tools (each must be in the set). */
  readonly allowedFunctionNames?: readonly string[];
}

// ---- request fragments --------------------------------------------------------

/** The strict request configuration on its own, for a request whose declarations are built elsewhere. */
export function geminiToolConfig(allowedFunctionNames?: readonly string[]): GeminiToolConfig {
  return {
    functionCallingConfig:
      allowedFunctionNames === undefined
        ? { mode: "VALIDATED" }
        : { mode: "VALIDATED", allowedFunctionNames: [...allowedFunctionNames] },
  };
}

/**
 * Every bundle as a function declaration, in order, with the toolConfig that
 * turns strict mode on. Refuses (`invalid-options`) a bundle compiled for
 * another target, two tools of one name, and an allowed name the set lacks.
 */
export function geminiTools(bundles: readonly CompiledTool[], options: GeminiToolsOptions = {}): Result<GeminiTools> {
  const functionDeclarations: GeminiFunctionDeclaration[] = [];
  const names = new Set<string>();
  const nonStrict: string[] = [];
  for (const bundle of bundles) {
    const declaration = checkedTool(gemini, bundle);
    if (!declaration.ok) return declaration;
    if (names.has(bundle.name)) return fail("invalid-options", "", `two tools are named ${bundle.name}`);
    names.add(bundle.name);
    if (bundle.nonStrict !== undefined) nonStrict.push(bundle.name);
    functionDeclarations.push(declaration.value);
  }
  const allowed = options.allowedFunctionNames;
  const missing = allowed?.find((name) => !names.has(name));
  if (missing !== undefined) {
    return fail("invalid-options", "", `allowedFunctionNames names ${missing}, which is not in the tool set`);
  }
  const toolConfig = geminiToolConfig(allowed);
  // VALIDATED would hold every tool of the request to a schema one of them is known to break Gemini's
  // limits with; the way out chosen at compile (and reported there) turns the request's strict mode off.
  if (nonStrict.length > 0) {
    return ok({
      tools: [{ functionDeclarations }],
      toolConfig: { functionCallingConfig: { ...toolConfig.functionCallingConfig, mode: "AUTO" } },
      nonStrict,
    });
  }
  return ok({ tools: [{ functionDeclarations }], toolConfig, nonStrict });
}

/**
 * `generationConfig` of a generateContent request (REST): the answer held to
 * `responseJsonSchema`. With `@google/genai`, spread its members into `config`.
 */
export interface GeminiOutputFormat {
  readonly generationConfig: { readonly responseMimeType: "application/json"; readonly responseJsonSchema: JsonObject };
}

// ---- reading ------------------------------------------------------------------

/**
 * Candidate 0 only, as with Chat's choices. A call without an id (older
 * models give none) is answered by name and position: its id is "". Gemini
 * gives `args` as an object, so, as with Anthropic, a cut (MAX_TOKENS) leaves
 * the last call untrustworthy.
 */
export function geminiCalls(response: GeminiResponseLike): ExtractedCalls {
  return wholeCalls(readGeminiCalls, response);
}

function readGeminiCalls(response: GeminiResponseLike): ExtractedCalls {
  // Typed as an object, but a stored response is whatever the JSON held (`null`).
  if (!isPlainObject(response)) return NO_CALLS;
  const candidate = indexZero(response.candidates);
  if (candidate === undefined) return NO_CALLS;
  const truncation = candidate.finishReason === "MAX_TOKENS" ? "MAX_TOKENS" : undefined;
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  const parts = listOf(content.parts);
  const calls: RawCall[] = [];
  parts.forEach((part, i) => {
    if (!isPlainObject(part) || !isPlainObject(part.functionCall)) return;
    const call = part.functionCall;
    // A piece of Vertex AI's streamed arguments: never a whole call.
    const piece = call.partialArgs !== undefined || call.willContinue !== undefined;
    calls.push({
      id: call.id === undefined ? "" : stringOr(call.id),
      name: stringOr(call.name),
      kind: "function",
      // Absent args is a call with no arguments: Gemini leaves out an empty Struct.
      arguments: call.args === undefined ? {} : call.args,
      cutOff: piece || (truncation !== undefined && i === parts.length - 1),
    });
  });
  return { calls, truncation };
}

// ---- streams --------------------------------------------------------------------

export function geminiCallStreams<S extends DeltaSink>(
  open: (call: { id: string; name: string }) => S,
): CallStreams<S> {
  const calls = new Calls(open);
  let chunk = 0;
  // A Vertex call streamed in partialArgs: its later parts carry no name and belong to it.
  let partial: Call<S> | undefined;
  return streams(calls, (response) => {
    const candidate = indexZero(response.candidates);
    if (!isPlainObject(candidate)) return undefined;
    const at = chunk++;
    const content = isPlainObject(candidate.content) ? candidate.content : {};
    const parts = listOf(content.parts);
    const cutAt = candidate.finishReason === "MAX_TOKENS" ? parts.length - 1 : -1;
    let last: Call<S> | undefined;
    parts.forEach((part, i) => {
      if (!isPlainObject(part) || !isPlainObject(part.functionCall)) return;
      const fc = part.functionCall;
      const streamed = fc.partialArgs !== undefined || fc.willContinue !== undefined;
      if (streamed && typeof fc.name !== "string") {
        // A continuation of the Vertex call already refused: it ends when the stream says so.
        if (fc.willContinue === false) last = calls.end(partial) ?? last;
        return;
      }
      if (typeof fc.name !== "string") return;
      const call = calls.start(`${at}:${i}`, typeof fc.id === "string" ? fc.id : "", fc.name);
      if (call === undefined) return;
      last = call;
      if (streamed) {
        calls.refuse(
          call,
          streamViolation(
            "Vertex AI streamed this call's arguments as partialArgs, which strictwire does not assemble: turn streamFunctionCallArguments off (whole calls per chunk are read)",
          ),
        );
        partial = call;
        if (fc.willContinue !== true) calls.end(call);
        return;
      }
      calls.push(call, inputText(fc.args));
      if (i === cutAt) calls.cut(call);
      else calls.end(call);
    });
    return last;
  });
}

/** One user turn of `functionResponse` parts (none when there were no calls); a failed call answers under `error`. */
export function geminiResults(calls: readonly AnsweredCall[]): GeminiFunctionResponseContent[] {
  if (calls.length === 0) return [];
  const parts = calls.map(
    (c): GeminiFunctionResponsePart => ({
      functionResponse: {
        // A call Gemini gave no id is matched by name and order; an invented id would be refused.
        ...(c.id !== "" ? { id: c.id } : {}),
        name: c.name,
        response: c.ok ? { output: c.output } : { error: c.output },
      },
    }),
  );
  return [{ role: "user", parts }];
}

// ---- structured outputs ---------------------------------------------------------

/** Finish reasons that say a filter stopped the answer (`FinishReason` in `@google/genai` 3.3.0's types). */
const ANSWER_BLOCKED = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "LANGUAGE",
]);

function answerText(candidate: Record<string, unknown>): string {
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  let text = "";
  for (const part of listOf(content.parts)) {
    // A thought summary is not the answer.
    if (isPlainObject(part) && typeof part.text === "string" && part.thought !== true) text += part.text;
  }
  return text;
}

/** A part of the answer whose `text` is there but is no string: text lost from the answer. */
function textLost(candidate: Record<string, unknown>): boolean {
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  return listOf(content.parts).some(
    (part) => isPlainObject(part) && part.thought !== true && part.text != null && typeof part.text !== "string",
  );
}

/** A candidate that calls functions: Gemini ends such a turn with STOP too, and text beside the calls is no answer. */
function callsTools(candidate: Record<string, unknown>): boolean {
  const content = isPlainObject(candidate.content) ? candidate.content : {};
  return listOf(content.parts).some((part) => isPlainObject(part) && isPlainObject(part.functionCall));
}

function answerFinish(finish: unknown): AnswerSignal | undefined {
  if (finish === undefined || finish === null || finish === "FINISH_REASON_UNSPECIFIED") return undefined;
  if (finish === "STOP") return { kind: "end" };
  if (finish === "MAX_TOKENS") return { kind: "ended", read: { kind: "cut", reason: "MAX_TOKENS" } };
  const reason = String(finish);
  return ANSWER_BLOCKED.has(reason)
    ? { kind: "ended", read: { kind: "blocked", reason } }
    : { kind: "ended", read: { kind: "none", reason: `finishReason ${reason}` } };
}

function blockReason(response: Record<string, unknown>): string | undefined {
  const feedback = response.promptFeedback;
  return isPlainObject(feedback) && typeof feedback.blockReason === "string" ? feedback.blockReason : undefined;
}

function geminiAnswer(response: unknown): AnswerRead {
  if (!isPlainObject(response)) return { kind: "none", reason: "not a response" };
  const blocked = blockReason(response);
  if (blocked !== undefined) return { kind: "blocked", reason: blocked };
  const candidate = indexZero(response.candidates);
  if (!isPlainObject(candidate)) return { kind: "none", reason: "no candidate" };
  const finish = answerFinish(candidate.finishReason);
  // A candidate with no finish reason is one the model has not finished (a stream's chunk): no value, as in a stream.
  if (finish === undefined) return { kind: "none", reason: "no finishReason" };
  if (finish.kind === "ended") return finish.read;
  // A part without text would leave the answer short of a piece: no answer, never a shorter one.
  if (textLost(candidate)) return { kind: "none", reason: TEXT_LOST };
  if (callsTools(candidate)) return TOOLS_TURN;
  const text = answerText(candidate);
  return text === "" ? { kind: "none", reason: "no text" } : { kind: "text", text };
}

/** Each chunk is a response; the answer ends with the chunk whose candidate says STOP. */
function geminiAnswerEvents(): (event: unknown) => readonly AnswerSignal[] {
  let calls = false;
  return (chunk) => {
    if (!isPlainObject(chunk)) return [];
    const blocked = blockReason(chunk);
    if (blocked !== undefined) return [{ kind: "ended", read: { kind: "blocked", reason: blocked } }];
    const candidate = indexZero(chunk.candidates);
    if (!isPlainObject(candidate)) return [];
    const out: AnswerSignal[] = [];
    if (textLost(candidate)) return [answerNotText("part whose text is not text")];
    if (callsTools(candidate)) calls = true;
    const text = answerText(candidate);
    if (text !== "") out.push({ kind: "text", delta: text });
    const finish = answerFinish(candidate.finishReason);
    if (finish !== undefined) out.push(finish.kind === "end" && calls ? { kind: "ended", read: TOOLS_TURN } : finish);
    return out;
  };
}

const answer: AnswerSlot<GeminiOutputFormat> = {
  // responseJsonSchema has no strict switch: the answer is always held to it.
  format: (schema, _naming, strict) =>
    strict
      ? { generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema } }
      : 'gemini has no non-strict answer format: this bundle is over the target\'s limits (compiled with strict: "auto"); make the schema fit the limits',
  read: geminiAnswer,
  events: geminiAnswerEvents,
  answerMessage: (text) => ({ role: "model", parts: [{ text }] }),
  repairMessage: (feedback) => ({ role: "user", parts: [{ text: feedback }] }),
  probe: (_model, maxTokens, format) => ({
    contents: [{ role: "user", parts: [{ text: "Answer in the format given." }] }],
    generationConfig: { ...format.generationConfig, temperature: 0, maxOutputTokens: maxTokens },
  }),
};

// ---- the HTTP exchange --------------------------------------------------------

/** A declaration of a request tool: the schema under `parametersJsonSchema`. */
function declaration(t: RequestTool): JsonObject {
  return { ...named(t), parametersJsonSchema: t.parameters };
}

/**
 * One request offering `tools`; calls are limited to `allowed` (all of them
 * when absent). A strict tool sets the mode to "VALIDATED", the only mode
 * whose calls Gemini documents as held to the declared schema; without one
 * the request asks for a call (ANY) with no schema promise. (VALIDATED lets
 * the model answer in text instead: a reply without a call reads as such.)
 */
export function geminiRequest(
  s: RequestSettings,
  system: string | undefined,
  user: string,
  tools: readonly RequestTool[],
  allowed?: readonly string[],
): JsonObject {
  const strict = tools.some((t) => t.strict);
  const names = allowed ?? tools.map((t) => t.name);
  return {
    ...(system !== undefined ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    contents: [{ role: "user", parts: [{ text: user }] }],
    tools: [{ functionDeclarations: tools.map(declaration) }],
    toolConfig: { functionCallingConfig: { mode: strict ? "VALIDATED" : "ANY", allowedFunctionNames: [...names] } },
    generationConfig: { temperature: s.temperature, maxOutputTokens: s.maxTokens },
  };
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

const exchange: Exchange = {
  endpoint: "https://generativelanguage.googleapis.com/v1beta",
  keyVariable: "GEMINI_API_KEY",
  // The model is part of the URL; the key travels in `x-goog-api-key`.
  url: (endpoint, model) => `${endpoint.replace(/\/+$/, "")}/models/${encodeURIComponent(model)}:generateContent`,
  headers: (key) => ({ "x-goog-api-key": key }),
  request: (s, system, user, tools) => geminiRequest(s, system, user, tools),
  repair(first, reply, call, feedback) {
    const candidate = isPlainObject(reply) ? indexZero(reply.candidates) : undefined;
    const content = isPlainObject(candidate) ? candidate.content : undefined;
    const contents = [
      ...(first.contents as unknown[]),
      content ?? { role: "model", parts: [] },
      ...geminiResults([{ id: call.id, name: call.name, ok: false, output: feedback }]),
    ];
    return { ...first, contents } as JsonObject;
  },
  probe(model, maxTokens, tools, only) {
    const user = only === undefined ? "Call one of the tools." : `Call ${only}.`;
    const strict = tools.map((t) => ({ ...t, strict: true }));
    return geminiRequest({ model, maxTokens, temperature: 0 }, undefined, user, strict, only ? [only] : undefined);
  },
  reply(body) {
    if (!isPlainObject(body) || !Array.isArray(body.candidates)) return undefined;
    // The args are an object: serialised ("" where JSON cannot write it, nested past the stack), the text scored.
    const calls = geminiCalls(body as GeminiResponseLike).calls.flatMap((c): ReplyCall[] =>
      c.name !== undefined ? [{ id: c.id ?? "", name: c.name, arguments: inputText(c.arguments) }] : [],
    );
    const u = body.usageMetadata;
    const input = isPlainObject(u) ? num(u.promptTokenCount) : undefined;
    const output = isPlainObject(u) ? num(u.candidatesTokenCount) : undefined;
    return { calls, usage: input !== undefined && output !== undefined ? { input, output } : undefined };
  },
};

export const gemini = {
  name: "gemini",
  spellings: [],
  target: "gemini",
  tool: (b): GeminiFunctionDeclaration => ({ ...named(b), parametersJsonSchema: b.wire }),
  calls: geminiCalls,
  holds: (response) => Array.isArray(response.candidates),
  results: geminiResults,
  callStreams: geminiCallStreams,
  exchange,
  answer,
} as const satisfies ProviderApiModule<
  "gemini",
  GeminiFunctionDeclaration,
  GeminiResponseLike,
  GeminiFunctionResponseContent
>;
