/**
 * The probe: does the provider take these tools in strict mode? One minimal
 * request per tool (the tool alone, strict, its call forced, a tiny output
 * cap), then, for a set, one with every tool together (the caps Anthropic
 * counts over a whole request). Each answer is the provider's own: accepted
 * (it ran the request), refused (it said no, in its words), or failed (no
 * verdict: a key, model or endpoint problem, a timeout, the budget). The
 * profiles' rules are read from documentation, SDK code and public error
 * texts; a probe is the one fact about this key, this model, today.
 */
import type { RequestTool } from "@strictwire/codec/providers";
import { postJson } from "./http.js";
import { type ExchangeApiName, exchangeOf } from "./providers.js";
import { redact } from "./redact.js";
import type { JsonObject } from "./suite.js";

export interface ProbeOptions {
  readonly api: ExchangeApiName;
  readonly endpoint: string;
  readonly key: string;
  readonly model: string;
  /** The tools as sent: the wire schema as `parameters`, strict on. */
  readonly tools: readonly RequestTool[];
  /**
   * Answer formats (structured outputs) to probe besides the tools: one
   * request each, as the codec's `outputProbeRequest` wrote it.
   */
  readonly answers?: readonly ProbeAnswer[];
  /** Output tokens per request: the probe needs the request accepted, not an answer. */
  readonly maxTokens?: number;
  /** Stop before sending more requests than this, retries included. */
  readonly maxRequests?: number;
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly backoffMs?: number;
  /** Bytes of one response body read at most (DEFAULT_MAX_RESPONSE_BYTES of @strictwire/codec/http). */
  readonly maxResponseBytes?: number;
}

/** An answer format to probe: its name and the whole request asking for an answer in it. */
export interface ProbeAnswer {
  readonly name: string;
  readonly request: JsonObject;
}

/** Error texts of rules the providers enforce, as quoted in public threads (docs/targets.md has the sources). */
const RULES: readonly { readonly rule: string; readonly test: RegExp }[] = [
  { rule: "openai-any-of-first-key", test: /must not share identical first keys/i },
  { rule: "anthropic-optional-parameters", test: /too many optional parameters/i },
  { rule: "anthropic-union-parameters", test: /parameters with union types/i },
  { rule: "anthropic-strict-tools", test: /too many strict tools/i },
  { rule: "anthropic-grammar-size", test: /compiled grammar is too large|too complex for (grammar )?compilation/i },
  // The Live API's refusal of what generateContent takes (strictwire's declarations are not for it).
  { rule: "gemini-live-api", test: /Unknown name "(parametersJsonSchema|additionalProperties|\$schema)"/ },
];

export type ProbeResult = {
  /** The tool's name, or "*" for the request with every tool. */
  readonly tool: string;
  /** The tools the request carried. */
  readonly tools: readonly string[];
} & (
  | { readonly verdict: "accepted"; readonly status: number }
  | {
      readonly verdict: "refused";
      readonly status: number;
      /** The provider's own error text, the key redacted. */
      readonly message: string;
      /** A known rule the text names, when it names one. */
      readonly rule?: string;
    }
  | {
      readonly verdict: "failed";
      /** "auth" (401/403), "not-found" (404: model or endpoint), "http", "timeout", "network", "not-json", "redirect", "too-large" (a body over the cap), "not-sent" (a request that cannot be written as JSON), "budget". */
      readonly reason: string;
      readonly message: string;
      readonly status?: number;
    }
);

export interface ProbeReport {
  readonly api: ExchangeApiName;
  readonly model: string;
  readonly results: readonly ProbeResult[];
  /** Requests sent, retries included. */
  readonly requests: number;
}

/** The request for `tools`, the call forced to `only` when given (to any of them otherwise). */
export function probeRequest(
  api: ExchangeApiName,
  model: string,
  maxTokens: number,
  tools: readonly RequestTool[],
  only?: string,
): JsonObject {
  return exchangeOf(api).probe(model, maxTokens, tools, only) as JsonObject;
}

/** The provider's error text: `error.message` in every API's error body (Gemini adds `error.status`). */
export function errorText(body: unknown, key: string): string {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  let text: string;
  if (typeof error === "object" && error !== null) {
    const { message, status } = error as { message?: unknown; status?: unknown };
    text = typeof message === "string" ? message : JSON.stringify(error);
    if (typeof status === "string") text = `${status}: ${text}`;
  } else {
    text = JSON.stringify(body) ?? "";
  }
  return redact(text, key).slice(0, 4000);
}

/** Gemini answers a bad key with 400 INVALID_ARGUMENT too; its details say API_KEY_INVALID. */
function keyRefused(body: unknown): boolean {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  const details = typeof error === "object" && error !== null ? (error as { details?: unknown }).details : undefined;
  return (
    Array.isArray(details) &&
    details.some((d) => typeof d === "object" && d !== null && (d as { reason?: unknown }).reason === "API_KEY_INVALID")
  );
}

export async function probeTools(o: ProbeOptions): Promise<ProbeReport> {
  const maxTokens = o.maxTokens ?? 16;
  let requests = 0;
  const mayAttempt = (): boolean => {
    if (o.maxRequests !== undefined && requests >= o.maxRequests) return false;
    requests += 1;
    return true;
  };
  const plan: { tool: string; tools: readonly RequestTool[]; only?: string; request?: JsonObject }[] = o.tools.map(
    (t) => ({
      tool: t.name,
      tools: [t],
      only: t.name,
    }),
  );
  if (o.tools.length > 1) plan.push({ tool: "*", tools: o.tools });

  for (const a of o.answers ?? []) plan.push({ tool: a.name, tools: [], request: a.request });

  const results: ProbeResult[] = [];
  for (const p of plan) {
    const body = p.request ?? probeRequest(o.api, o.model, maxTokens, p.tools, p.only);
    const exchange = exchangeOf(o.api);
    const out = await postJson(exchange.url(o.endpoint, o.model), exchange.headers(o.key), body, {
      timeoutMs: o.timeoutMs ?? 60_000,
      retries: o.retries ?? 2,
      backoffMs: o.backoffMs ?? 1000,
      mayAttempt,
      ...(o.maxResponseBytes !== undefined ? { maxResponseBytes: o.maxResponseBytes } : {}),
    });
    const names = p.tools.map((t) => t.name);
    const head = { tool: p.tool, tools: names };
    if (out.kind === "stopped") {
      results.push({ ...head, verdict: "failed", reason: "budget", message: "not sent: --max-requests reached" });
    } else if (out.kind === "failed") {
      const status = out.status !== undefined ? { status: out.status } : {};
      const hint =
        out.reason === "too-large" ? "; raise the cap with --max-response-bytes if the endpoint is trusted" : "";
      results.push({
        ...head,
        verdict: "failed",
        reason: out.reason,
        message: redact(out.message, o.key) + hint,
        ...status,
      });
    } else if (out.status >= 200 && out.status < 300) {
      results.push({ ...head, verdict: "accepted", status: out.status });
    } else if ((out.status === 400 || out.status === 422) && !keyRefused(out.body)) {
      const message = errorText(out.body, o.key);
      const rule = RULES.find((r) => r.test.test(message))?.rule;
      results.push({ ...head, verdict: "refused", status: out.status, message, ...(rule ? { rule } : {}) });
    } else {
      const auth = out.status === 401 || out.status === 403 || keyRefused(out.body);
      const reason = auth ? "auth" : out.status === 404 ? "not-found" : "http";
      results.push({ ...head, verdict: "failed", reason, status: out.status, message: errorText(out.body, o.key) });
    }
  }
  return { api: o.api, model: o.model, results, requests };
}
