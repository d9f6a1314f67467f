/**
 * Provider rules the limits do not cover, checked on every wire a corpus
 * compiles (default target, OpenAI) by the testkit's checker, written apart
 * from the codec's own code: OpenAI's first-key rule ("Objects provided via
 * 'anyOf' must not share identical first keys"). Held at 0 by the floors.
 */
import { firstKeyProblems } from "../../packages/codec/testkit/strict-rules.js";
import type { Compiled } from "./harness.js";

export interface WireRulesSummary {
  /** Compiled wires checked. */
  checked: number;
  /** Wires with an anyOf whose object branches share their first member (OpenAI refuses them). */
  firstKey: number;
  examples: { id: string; problem: string }[];
}

export function emptyWireRules(): WireRulesSummary {
  return { checked: 0, firstKey: 0, examples: [] };
}

export function recordWireRules(w: WireRulesSummary, id: string, compiled: Compiled): void {
  if (compiled.kind !== "compiled") return;
  w.checked++;
  const problems = firstKeyProblems(compiled.codec.bundle.wire as Record<string, unknown>);
  if (problems.length === 0) return;
  w.firstKey++;
  if (w.examples.length < 5) w.examples.push({ id, problem: problems[0]! });
}

export function mergeWireRules(into: WireRulesSummary, part: WireRulesSummary): void {
  into.checked += part.checked;
  into.firstKey += part.firstKey;
  for (const e of part.examples) if (into.examples.length < 5) into.examples.push(e);
}
