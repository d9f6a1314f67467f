/**
 * What a fuzz run found. A property never fails the run: it records a finding
 * under a signature (what went wrong, not the input) and carries on, so one
 * run reports every kind of problem it met, each with its smallest input.
 */

export interface Finding {
  readonly target: string;
  /** What went wrong, stable across inputs: findings group by it. */
  readonly signature: string;
  readonly detail: string;
  /** Enough to reproduce: the codec's id and the input, as JSON text. */
  readonly repro: string;
  /** Set when the signature matches an issue already reported (see KNOWN_ISSUES). */
  readonly known?: string;
}

export interface FindingGroup {
  readonly first: Finding;
  /** The smallest reproduction seen for this signature. */
  smallest: Finding;
  count: number;
}

/**
 * Issues already reported to the lead, matched by signature, so that a run
 * keeps telling them apart from new ones. Remove an entry once its fix lands:
 * the short fuzz test then guards against the issue coming back.
 */
export const KNOWN_ISSUES: readonly { readonly id: string; readonly target: string; readonly pattern: RegExp }[] = [];

export class Findings {
  private readonly groups = new Map<string, FindingGroup>();

  record(finding: Omit<Finding, "known">): void {
    const known = KNOWN_ISSUES.find((k) => k.target === finding.target && k.pattern.test(finding.signature))?.id;
    const full: Finding = known === undefined ? finding : { ...finding, known };
    const key = `${full.target}\u0000${full.signature}`;
    const group = this.groups.get(key);
    if (group === undefined) {
      this.groups.set(key, { first: full, smallest: full, count: 1 });
      return;
    }
    group.count++;
    if (full.repro.length < group.smallest.repro.length) group.smallest = full;
  }

  all(): FindingGroup[] {
    return [...this.groups.values()];
  }

  /** Findings that match no known issue. */
  unknown(): FindingGroup[] {
    return this.all().filter((g) => g.first.known === undefined);
  }

  count(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.count;
    return n;
  }
}

/** A thrown value as a short, input-independent signature. */
export function thrownSignature(operation: string, error: unknown): string {
  if (error instanceof Error) return `${operation} threw ${error.name}: ${error.message.split("\n")[0]!.slice(0, 120)}`;
  return `${operation} threw a non-Error: ${String(error).slice(0, 120)}`;
}

/** Shorten an input for a report, keeping it valid JSON text. */
export function repro(value: Record<string, unknown>, max = 4000): string {
  const text = JSON.stringify(value);
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
