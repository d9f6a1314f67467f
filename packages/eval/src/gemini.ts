/**
 * Gemini's generateContent as a fourth wire format, beside the three in
 * providers.ts: the request, the reply's calls and usage, the repair turn.
 * A strict tool sets `toolConfig.functionCallingConfig.mode` to "VALIDATED",
 * the only mode whose calls Gemini documents as held to the declared schema
 * by constrained decoding; `allowedFunctionNames` limits the call to the
 * offered tools. (VALIDATED lets the model answer in text instead: a reply
 * without a call is read as such, as for the other APIs.) The model is part
 * of the URL; the key travels in `x-goog-api-key`.
 */
import type { SentTool } from "./arms.js";
import type { JsonObject } from "./suite.js";

export const GEMINI_ENDPOINT = "https://generativelanguage.googleapis.com/v1beta";

export const geminiUrl = (endpoint: string, model: string): string =>
  `${endpoint.replace(/\/+$/, "")}/models/${encodeURIComponent(model)}:generateContent`;

export const geminiHeaders = (key: string): Record<string, string> => ({ "x-goog-api-key": key });

/** A declaration: the schema under `parametersJsonSchema`, never `parameters` (the two are exclusive). */
export function geminiDeclaration(t: SentTool): JsonObject {
  const named: JsonObject =
    t.description !== undefined ? { name: t.name, description: t.description } : { name: t.name };
  return { ...named, parametersJsonSchema: t.parameters };
}

export interface GeminiSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly temperature: number;
}

/** One request offering `tools`; calls are limited to `allowed` (all of them when absent). */
export function geminiRequest(
  s: GeminiSettings,
  system: string | undefined,
  user: string,
  tools: readonly SentTool[],
  allowed?: readonly string[],
): JsonObject {
  const strict = tools.some((t) => t.strict);
  const names = allowed ?? tools.map((t) => t.name);
  return {
    ...(system !== undefined ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    contents: [{ role: "user", parts: [{ text: user }] }],
    tools: [{ functionDeclarations: tools.map(geminiDeclaration) }],
    // Without a strict tool the control asks for a call (ANY) with no schema promise.
    toolConfig: { functionCallingConfig: { mode: strict ? "VALIDATED" : "ANY", allowedFunctionNames: [...names] } },
    generationConfig: { temperature: s.temperature, maxOutputTokens: s.maxTokens },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export interface GeminiCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Candidate 0's function calls (arguments serialised: Gemini gives an object) and usage; undefined when not the shape. */
export function readGeminiReply(
  body: unknown,
): { calls: GeminiCall[]; usage: { input: number; output: number } | undefined } | undefined {
  if (!isObject(body) || !Array.isArray(body.candidates)) return undefined;
  const candidate = body.candidates[0];
  const parts = isObject(candidate) && isObject(candidate.content) ? candidate.content.parts : undefined;
  const calls = (Array.isArray(parts) ? parts : []).flatMap((p): GeminiCall[] =>
    isObject(p) && isObject(p.functionCall) && typeof p.functionCall.name === "string"
      ? [
          {
            id: typeof p.functionCall.id === "string" ? p.functionCall.id : "",
            name: p.functionCall.name,
            arguments: JSON.stringify(p.functionCall.args ?? {}),
          },
        ]
      : [],
  );
  const u = body.usageMetadata;
  const input = isObject(u) ? num(u.promptTokenCount) : undefined;
  const output = isObject(u) ? num(u.candidatesTokenCount) : undefined;
  return { calls, usage: input !== undefined && output !== undefined ? { input, output } : undefined };
}

/** The request that returns strictwire's feedback as the failed call's functionResponse. */
export function geminiRepairRequest(first: JsonObject, reply: unknown, call: GeminiCall, feedback: string): JsonObject {
  const candidate = isObject(reply) && Array.isArray(reply.candidates) ? reply.candidates[0] : undefined;
  const content = isObject(candidate) ? candidate.content : undefined;
  const response = {
    ...(call.id !== "" ? { id: call.id } : {}),
    name: call.name,
    response: { error: feedback },
  };
  const contents = [
    ...(first.contents as unknown[]),
    content ?? { role: "model", parts: [] },
    { role: "user", parts: [{ functionResponse: response }] },
  ];
  return { ...first, contents } as JsonObject;
}
