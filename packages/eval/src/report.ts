/** The per-arm summary, and the report as a table, JSON and Markdown. */
import type { RunOutcome, TrialRecord } from "./run.js";
import { quantile, wilson } from "./stats.js";

export interface ArmSummary {
  readonly arm: string;
  readonly trials: number;
  readonly unsupported: number;
  readonly accepted: number;
  readonly oneToolCall: number;
  readonly decodeFailures: Readonly<Record<string, number>>;
  readonly actionRight: number;
  readonly exact: number;
  readonly accuracy: number;
  readonly interval95: { readonly low: number; readonly high: number };
  readonly finalStateRight: number;
  readonly redundantWriteTrials: number;
  readonly vsControl?: { readonly pairs: number; readonly wins: number; readonly losses: number };
  readonly latencyMs: { readonly median?: number; readonly p90?: number };
  readonly argumentTokensPerCall?: number;
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost?: number;
  readonly costPerCorrect?: number;
  readonly repair?: { readonly attempted: number; readonly exact: number };
}

export interface Report {
  readonly planned: number;
  readonly finished: number;
  readonly stopped?: string;
  readonly arms: readonly ArmSummary[];
}

const pairKey = (r: TrialRecord): string => `${r.scenario}|${r.repetition}`;
const correct = (r: TrialRecord): boolean => r.first?.judgement.correct === true;

export function summarise(
  outcome: RunOutcome,
  armOrder: readonly string[],
  price?: { readonly input: number; readonly output: number },
): Report {
  const control = new Map(outcome.records.filter((r) => r.arm === "control").map((r) => [pairKey(r), r]));
  const arms = armOrder.map((arm): ArmSummary => {
    const all = outcome.records.filter((r) => r.arm === arm);
    const ran = all.filter((r) => r.first !== undefined);
    const attempts = ran.map((r) => r.first as NonNullable<TrialRecord["first"]>);
    const decodeFailures: Record<string, number> = {};
    for (const a of attempts)
      if (a.decodeError) decodeFailures[a.decodeError.code] = (decodeFailures[a.decodeError.code] ?? 0) + 1;
    const exact = ran.filter(correct).length;
    // Unsupported trials count as not correct: coverage must not vanish from the rate.
    const trials = all.length;
    const withTokens = attempts.filter((a) => a.argumentTokens !== undefined);
    const repairs = ran.flatMap((r) => (r.repair ? [r.repair] : []));
    const usage = [...attempts, ...repairs].reduce(
      (t, a) => ({ input: t.input + (a.usage?.input ?? 0), output: t.output + (a.usage?.output ?? 0) }),
      { input: 0, output: 0 },
    );
    const cost = price === undefined ? undefined : (usage.input * price.input + usage.output * price.output) / 1e6;
    let vsControl: ArmSummary["vsControl"];
    if (arm !== "control" && control.size > 0) {
      let pairs = 0;
      let wins = 0;
      let losses = 0;
      for (const r of all) {
        const c = control.get(pairKey(r));
        if (c === undefined) continue;
        pairs += 1;
        if (correct(r) && !correct(c)) wins += 1;
        if (!correct(r) && correct(c)) losses += 1;
      }
      vsControl = { pairs, wins, losses };
    }
    const latencies = attempts.filter((a) => a.accepted).map((a) => a.latencyMs);
    const median = quantile(latencies, 0.5);
    const p90 = quantile(latencies, 0.9);
    return {
      arm,
      trials,
      unsupported: all.length - ran.length,
      accepted: attempts.filter((a) => a.accepted).length,
      oneToolCall: attempts.filter((a) => a.calls === 1).length,
      decodeFailures,
      actionRight: attempts.filter((a) => a.judgement.actionRight).length,
      exact,
      accuracy: trials === 0 ? 0 : exact / trials,
      interval95: wilson(exact, trials),
      finalStateRight: attempts.filter((a) => a.judgement.finalStateRight).length,
      redundantWriteTrials: attempts.filter((a) => a.judgement.redundantWrites.length > 0).length,
      ...(vsControl !== undefined ? { vsControl } : {}),
      latencyMs: { ...(median !== undefined ? { median } : {}), ...(p90 !== undefined ? { p90 } : {}) },
      ...(withTokens.length > 0
        ? { argumentTokensPerCall: withTokens.reduce((s, a) => s + (a.argumentTokens ?? 0), 0) / withTokens.length }
        : {}),
      tokens: usage,
      ...(cost !== undefined ? { cost, ...(exact > 0 ? { costPerCorrect: cost / exact } : {}) } : {}),
      ...(repairs.length > 0
        ? { repair: { attempted: repairs.length, exact: repairs.filter((a) => a.judgement.correct).length } }
        : {}),
    };
  });
  return {
    planned: outcome.planned,
    finished: outcome.records.length,
    ...(outcome.stopped !== undefined ? { stopped: outcome.stopped } : {}),
    arms,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const ms = (x: number | undefined): string => (x === undefined ? "-" : `${Math.round(x)}`);
const money = (x: number | undefined): string => (x === undefined ? "-" : `$${x.toFixed(6)}`);

const HEADER = [
  "arm",
  "exact",
  "accuracy (95% CI)",
  "vs control +/-",
  "accepted",
  "1 call",
  "decode fails",
  "final state",
  "redundant",
  "p50/p90 ms",
  "arg tok/call",
  "tokens in/out",
  "cost/correct",
  "repair",
];

function rows(report: Report): string[][] {
  return report.arms.map((a) => [
    a.arm,
    `${a.exact}/${a.trials}`,
    `${pct(a.accuracy)} (${pct(a.interval95.low)}–${pct(a.interval95.high)})`,
    a.vsControl ? `+${a.vsControl.wins}/-${a.vsControl.losses}` : "-",
    `${a.accepted}`,
    `${a.oneToolCall}`,
    Object.entries(a.decodeFailures)
      .map(([c, n]) => `${c}×${n}`)
      .join(" ") || "0",
    `${a.finalStateRight}`,
    `${a.redundantWriteTrials}`,
    `${ms(a.latencyMs.median)}/${ms(a.latencyMs.p90)}`,
    a.argumentTokensPerCall === undefined ? "-" : a.argumentTokensPerCall.toFixed(1),
    `${a.tokens.input}/${a.tokens.output}`,
    money(a.costPerCorrect),
    a.repair ? `${a.repair.exact}/${a.repair.attempted}` : "-",
  ]);
}

export function renderTable(report: Report): string {
  const table = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length)));
  const lines = table.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  const head = `${report.finished}/${report.planned} trials${report.stopped ? ` — stopped early: ${report.stopped}` : ""}`;
  return `${head}\n${lines.join("\n")}\n`;
}

/** The Markdown report: the table, then every scenario an arm lost or gained against control, with the raw arguments. */
export function renderMarkdown(report: Report, records: readonly TrialRecord[], title: string): string {
  const esc = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const out = [
    `# ${title}`,
    "",
    `${report.finished} of ${report.planned} planned trials.${report.stopped ? ` Stopped early: ${report.stopped}.` : ""}`,
    "",
  ];
  out.push(`| ${HEADER.join(" | ")} |`, `| ${HEADER.map(() => "---").join(" | ")} |`);
  for (const r of rows(report)) out.push(`| ${r.map(esc).join(" | ")} |`);
  const control = new Map(records.filter((r) => r.arm === "control").map((r) => [pairKey(r), r]));
  const raw = (r: TrialRecord): string => {
    const a = r.first;
    if (a === undefined) return `unsupported: ${r.unsupported ?? ""}`;
    if (!a.accepted) return `not accepted: ${a.error ?? ""}`;
    return `${a.toolName ?? "(no call)"} \`${esc(a.argumentsText ?? "")}\`${a.decodeError ? ` → ${a.decodeError.code}` : ""}`;
  };
  for (const a of report.arms) {
    if (a.arm === "control") continue;
    const lost: string[] = [];
    const gained: string[] = [];
    for (const r of records.filter((x) => x.arm === a.arm)) {
      const c = control.get(pairKey(r));
      if (c === undefined || correct(r) === correct(c)) continue;
      const line = `| ${r.scenario} | ${r.repetition} | ${esc(raw(r))} | ${esc(raw(c))} |`;
      (correct(c) ? lost : gained).push(line);
    }
    out.push("", `## ${a.arm} against control`, "");
    for (const [name, list] of [
      ["Lost", lost],
      ["Gained", gained],
    ] as const) {
      out.push(`${name}: ${list.length}`, "");
      if (list.length > 0)
        out.push(`| scenario | rep | ${a.arm} | control |`, "| --- | --- | --- | --- |", ...list.sort(), "");
    }
  }
  return `${out.join("\n")}\n`;
}
