/** Printing what happened to each call, the same way in every example. */
import type { CallReport } from "@strictwire/codec";

export function printCalls(calls: readonly CallReport[]): void {
  for (const c of calls) console.log(`  ${c.kind.padEnd(13)} ${c.name.padEnd(15)} ${c.id}\n      -> ${c.output}`);
}
