/**
 * Anthropic compiles every strict tool of a request into one grammar and
 * refuses the request when that grammar is "too large"; no figure is
 * published. This is an advisory estimate, a heuristic and never a refusal:
 * the size of the set's wire schemas as sent (UTF-8 JSON bytes, descriptions
 * included), the one measure the public failure reports give. Calibration:
 * a single 7,354-byte schema was refused (pome-sh/digital-twins#527), and a
 * 13-tool set (alphaXiv/agents#49). A set at or past 7,354 bytes is as large
 * as one refused alone; past 6,000 it is within a fifth of it.
 */
import type { JsonObject } from "../json.js";
import { utf8Length } from "../parse/utf8.js";

/** Bytes of the smallest schema publicly reported refused alone. */
export const GRAMMAR_REFUSED_BYTES = 7_354;
/** Where the advisory starts: within a fifth of that. */
export const GRAMMAR_ADVISORY_BYTES = 6_000;

export interface GrammarEstimate {
  /** Bytes of every tool's wire schema as JSON, summed. */
  readonly bytes: number;
  readonly perTool: readonly { readonly tool: string; readonly bytes: number }[];
  /** "near": past the advisory line; "over": at least the size of a schema refused alone. */
  readonly level: "fine" | "near" | "over";
}

export function estimateGrammar(
  tools: readonly { readonly name: string; readonly wire: JsonObject }[],
): GrammarEstimate {
  const perTool = tools.map((t) => ({ tool: t.name, bytes: utf8Length(JSON.stringify(t.wire)) }));
  const bytes = perTool.reduce((n, t) => n + t.bytes, 0);
  const level = bytes >= GRAMMAR_REFUSED_BYTES ? "over" : bytes >= GRAMMAR_ADVISORY_BYTES ? "near" : "fine";
  return { bytes, perTool, level };
}

export function describeGrammar(e: GrammarEstimate): string {
  const tools = e.perTool.length > 1 ? ` (${e.perTool.map((t) => `${t.tool} ${t.bytes}`).join(", ")})` : "";
  const where =
    e.level === "over"
      ? `at least the size of a schema Anthropic refused alone (${GRAMMAR_REFUSED_BYTES} bytes)`
      : `within a fifth of the smallest schema Anthropic refused alone (${GRAMMAR_REFUSED_BYTES} bytes)`;
  return `advisory: the strict schemas of this request come to ${e.bytes} bytes${tools}, ${where}; Anthropic may refuse it as "The compiled grammar is too large". No limit is published: this is an estimate, not a refusal. If it is refused, send fewer strict tools per request`;
}
