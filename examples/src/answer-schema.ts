/**
 * The structured-output examples' contract: a support ticket triaged by the
 * model, with every member kind strict mode loses meaning on. An optional
 * member (absent is not null), a nullable one, an optional nullable one, a
 * map, a discriminated union and a tuple.
 */
import { z } from "zod";

export const Triage = z.object({
  summary: z.string(),
  /** Absent: the model saw no due date. */
  due: z.string().optional(),
  /** null: no one is assigned; it is always given. */
  assignee: z.string().nullable(),
  /** Absent: keep the current team; null: take it off every team. */
  team: z.string().nullable().optional(),
  /** Labels to set, by name. */
  labels: z.record(z.string(), z.string()),
  action: z.discriminatedUnion("type", [
    z.object({ type: z.literal("reply"), text: z.string() }),
    z.object({ type: z.literal("escalate"), level: z.number().int() }),
  ]),
  /** [first response hours, resolution hours] */
  sla: z.tuple([z.number(), z.number()]),
});

export type Triage = z.infer<typeof Triage>;

/** A recursive value: a ticket's thread of replies. */
export interface Reply {
  readonly text: string;
  readonly replies: readonly Reply[];
}
export const Thread: z.ZodType<Reply> = z.lazy(() => z.object({ text: z.string(), replies: z.array(Thread) }));
