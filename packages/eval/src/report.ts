/** The per-arm and per-category summary, and the report as a table, JSON and Markdown. */
import { loopbackWarning, type Provenance, provenanceLine } from "./provenance.js";
import type { RunOutcome, TrialRecord } from "./run.js";
import { quantile, wilson } from "./stats.js";

/** One (scenario, repetition) pair. */
export interface PairId {
  readonly scenario: string;
  readonly repetition: number;
}

/** Paired against control on the same scenario and repetition: what this arm won and lost. */
export interface VsControl {
  readonly pairs: number;
  readonly wins: number;
  readonly losses: number;
  readonly gained: readonly PairId[];
  readonly lost: readonly PairId[];
}

export interface CategorySummary {
  readonly category: string;
  readonly trials: number;
  readonly exact: number;
  readonly accuracy: number;
  readonly interval95: { readonly low: number; readonly high: number };
  readonly vsControl?: VsControl;
}

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
  readonly vsControl?: VsControl;
  readonly byCategory: readonly CategorySummary[];
  readonly latencyMs: { readonly median?: number; readonly p90?: number };
  readonly argumentTokensPerCall?: number;
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost?: number;
  readonly costPerCorrect?: number;
  readonly repair?: { readonly attempted: number; readonly exact: number };
}

export interface Report {
  readonly provenance: Provenance;
  /** Every model name the responses gave. */
  readonly answeredModels: readonly string[];
  readonly categories: readonly string[];
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
  // The suite's order, then any category only earlier results name (a resumed file).
  const categories = [...new Set([...outcome.categories, ...outcome.records.map((r) => r.category)])];
  const answeredModels = [
    ...new Set(outcome.records.flatMap((r) => [r.first?.answeredModel, r.repair?.answeredModel].filter(isString))),
  ].sort();
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
    const paired = (trials: readonly TrialRecord[]): VsControl | undefined =>
      arm !== "control" && control.size > 0 ? pairedWithControl(trials, control) : undefined;
    const vsControl = paired(all);
    const byCategory = categories.map((category): CategorySummary => {
      const inCategory = all.filter((r) => r.category === category);
      const k = inCategory.filter(correct).length;
      const vs = paired(inCategory);
      return {
        category,
        trials: inCategory.length,
        exact: k,
        accuracy: inCategory.length === 0 ? 0 : k / inCategory.length,
        interval95: wilson(k, inCategory.length),
        ...(vs !== undefined ? { vsControl: vs } : {}),
      };
    });
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
      byCategory,
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
    provenance: outcome.provenance,
    answeredModels,
    categories,
    planned: outcome.planned,
    finished: outcome.records.length,
    ...(outcome.stopped !== undefined ? { stopped: outcome.stopped } : {}),
    arms,
  };
}

const isString = (x: unknown): x is string => typeof x === "string";

function pairedWithControl(trials: readonly TrialRecord[], control: ReadonlyMap<string, TrialRecord>): VsControl {
  let pairs = 0;
  const gained: PairId[] = [];
  const lost: PairId[] = [];
  for (const r of trials) {
    const c = control.get(pairKey(r));
    if (c === undefined) continue;
    pairs += 1;
    if (correct(r) && !correct(c)) gained.push({ scenario: r.scenario, repetition: r.repetition });
    if (!correct(r) && correct(c)) lost.push({ scenario: r.scenario, repetition: r.repetition });
  }
  const order = (a: PairId, b: PairId): number =>
    a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : a.repetition - b.repetition;
  return { pairs, wins: gained.length, losses: lost.length, gained: gained.sort(order), lost: lost.sort(order) };
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
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

/** "null-04", or "null-04#2" (the second repetition) when the run repeats. */
export const pairLabel = (report: Report, p: PairId): string =>
  report.provenance.repeat > 1 ? `${p.scenario}#${p.repetition + 1}` : p.scenario;

/** What a category cell says: exact/trials, accuracy, and against control +gained/-lost. */
export function categoryCell(c: CategorySummary): string {
  const vs = c.vsControl !== undefined ? ` +${c.vsControl.wins}/-${c.vsControl.losses}` : "";
  return c.trials === 0 ? "-" : `${c.exact}/${c.trials} ${pct(c.accuracy)}${vs}`;
}

const CATEGORY_HEADER = (report: Report): string[] => ["category", ...report.arms.map((a) => a.arm)];

function categoryRows(report: Report): string[][] {
  return report.categories.map((category) => [
    category,
    ...report.arms.map((a) => {
      const c = a.byCategory.find((x) => x.category === category);
      return c === undefined ? "-" : categoryCell(c);
    }),
  ]);
}

/** The first lines of every report: whether this is a model's result at all, and where it came from. */
function provenanceLines(report: Report): string[] {
  const warning = loopbackWarning(report.provenance);
  return [...(warning !== undefined ? [warning] : []), provenanceLine(report.provenance, report.answeredModels)];
}

function aligned(table: readonly (readonly string[])[]): string[] {
  const widths = (table[0] ?? []).map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length)));
  return table.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

export function renderTable(report: Report): string {
  const head = `${report.finished}/${report.planned} trials${report.stopped ? ` — stopped early: ${report.stopped}` : ""}`;
  const out = [...provenanceLines(report), head, ...aligned([HEADER, ...rows(report)])];
  out.push("", "By category: exact/trials, accuracy, and +gained/-lost against control", "");
  out.push(...aligned([CATEGORY_HEADER(report), ...categoryRows(report)]));
  const moved = report.arms.filter((a) => a.vsControl !== undefined && a.vsControl.wins + a.vsControl.losses > 0);
  if (moved.length > 0) {
    out.push("", "Against control, scenario by scenario:", "");
    for (const a of moved) {
      const vs = a.vsControl as VsControl;
      const list = (ids: readonly PairId[]): string => ids.map((p) => pairLabel(report, p)).join(" ") || "none";
      out.push(`${a.arm}: lost ${vs.losses} (${list(vs.lost)}); gained ${vs.wins} (${list(vs.gained)})`);
    }
  }
  return `${out.join("\n")}\n`;
}

/**
 * The Markdown report: where it came from, the chart (an SVG file beside it,
 * when given), the per-arm table, the category × arm grid, then every
 * scenario an arm lost or gained against control, with the raw arguments.
 */
export function renderMarkdown(report: Report, records: readonly TrialRecord[], title: string, chart?: string): string {
  const esc = (s: string): string => s.replace(/\|/g, "\\|").replace(/[\r\n]/g, " ");
  // A code span no backtick in the text can close (server-given text is untrusted).
  const code = (s: string): string => (s.includes("`") ? `\`\` ${s.replace(/`{2,}/g, "`")} \`\`` : `\`${s}\``);
  const p = report.provenance;
  const warning = loopbackWarning(p);
  const answered = report.answeredModels.length > 0 ? report.answeredModels.join(", ") : "(no model name given)";
  const out = [
    `# ${title}`,
    "",
    ...(warning !== undefined ? [`> **${esc(warning)}**`, ""] : []),
    `- Endpoint: \`${p.endpointHost}\`, API \`${p.api}\``,
    `- Model: ${code(esc(p.model))} as sent; answered as ${code(esc(answered))}`,
    `- Date: ${p.date}`,
    `- strictwire ${p.strictwire.version}${p.strictwire.commit !== undefined ? `, commit \`${p.strictwire.commit}\`` : " (commit unknown)"}`,
    `- Suite: \`${p.suite.digest}\` (${p.suite.scenarios} scenarios); seed ${p.seed}, repeat ${p.repeat}`,
    `- Arms: ${p.arms.map((a) => code(esc(a))).join(", ")}`,
    "",
    `${report.finished} of ${report.planned} planned trials.${report.stopped ? ` Stopped early: ${report.stopped}.` : ""}`,
    "",
  ];
  if (chart !== undefined)
    out.push(`![Exact-intent accuracy per arm with its 95% interval, and by category](${encodeURI(chart)})`, "");
  out.push(`| ${HEADER.join(" | ")} |`, `| ${HEADER.map(() => "---").join(" | ")} |`);
  for (const r of rows(report)) out.push(`| ${r.map(esc).join(" | ")} |`);
  out.push(
    "",
    "## By category",
    "",
    "Exact/trials, accuracy, and +gained/-lost against control on the same scenarios.",
    "",
  );
  const grid = CATEGORY_HEADER(report);
  out.push(`| ${grid.map(esc).join(" | ")} |`, `| ${grid.map(() => "---").join(" | ")} |`);
  for (const r of categoryRows(report)) out.push(`| ${r.map(esc).join(" | ")} |`);
  const control = new Map(records.filter((r) => r.arm === "control").map((r) => [pairKey(r), r]));
  const raw = (r: TrialRecord): string => {
    const a = r.first;
    if (a === undefined) return `unsupported: ${r.unsupported ?? ""}`;
    if (!a.accepted) return `not accepted: ${a.error ?? ""}`;
    // No arguments text, no code span: an empty one renders as two literal backticks.
    const args = a.argumentsText ?? "";
    const shown = args.trim() === "" ? "" : ` ${code(esc(args))}`;
    return `${a.toolName ?? "(no call)"}${shown}${a.decodeError ? ` → ${a.decodeError.code}` : ""}`;
  };
  for (const a of report.arms) {
    if (a.arm === "control") continue;
    const lost: string[] = [];
    const gained: string[] = [];
    for (const r of records.filter((x) => x.arm === a.arm)) {
      const c = control.get(pairKey(r));
      if (c === undefined || correct(r) === correct(c)) continue;
      const line = `| ${r.scenario} | ${r.category} | ${r.repetition} | ${esc(raw(r))} | ${esc(raw(c))} |`;
      (correct(c) ? lost : gained).push(line);
    }
    out.push("", `## ${a.arm} against control`, "");
    for (const [name, list, ids] of [
      ["Lost", lost, a.vsControl?.lost ?? []],
      ["Gained", gained, a.vsControl?.gained ?? []],
    ] as const) {
      out.push(
        `${name}: ${list.length}${ids.length > 0 ? ` (${ids.map((x) => pairLabel(report, x)).join(", ")})` : ""}`,
        "",
      );
      if (list.length > 0)
        out.push(
          `| scenario | category | rep | ${esc(a.arm)} | control |`,
          "| --- | --- | --- | --- | --- |",
          ...list.sort(),
          "",
        );
    }
  }
  return `${out.join("\n")}\n`;
}
