/**
 * What the structured-output examples share: the ticket the model is asked
 * to triage, the local stand-in answering for the provider (../answer-server.ts)
 * with a scripted answer written in the wire form a strict model writes, and
 * how the examples print what they got. These are scripted replies, not a
 * model's output.
 */
import type { Codec } from "@strictwire/codec";
import type { Triage } from "../answer-schema.js";
import { type AnswerServer, startAnswerServer } from "../answer-server.js";

export const TICKET = "Ticket #4411: the printer on floor 2 jams on every second page since Monday. Bob is off.";

/** What the scripted model answers: no due date (absent), no assignee (null), the team cleared (null). */
export const SCRIPTED: Triage = {
  summary: "printer on floor 2 jams every second page",
  assignee: null,
  team: null,
  labels: { area: "hardware", floor: "2" },
  action: { type: "escalate", level: 2 },
  sla: [4, 48],
};

/** A stand-in answering with `value` written in `codec`'s wire, sent whole or in small deltas. */
export async function standIn(codec: Codec<Triage>): Promise<AnswerServer> {
  const wire = codec.encode(SCRIPTED);
  if (!wire.ok) throw new Error(wire.error.message);
  const text = JSON.stringify(wire.value);
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += 12) deltas.push(text.slice(i, i + 12));
  return startAnswerServer({ kind: "answer", text, deltas });
}

export function show(label: string, value: unknown): void {
  console.log(`${label} ${JSON.stringify(value)}`);
}
