/** The printed tables and the floors check. */
import { readFileSync } from "node:fs";
import type { AnswerCounts, BfclSummary } from "./bfcl.js";
import { type DepthSummary, OPENAI_NESTING, renderDelta } from "./depth.js";
import type { Tally } from "./harness.js";
import type { JsbSummary } from "./jsb.js";
import type { JstsSummary } from "./jsts.js";
import type { McpSummary } from "./mcp.js";
import type { WireRulesSummary } from "./wire-rules.js";

export interface Summary {
  jsonSchemaTestSuite?: JstsSummary;
  jsonSchemaBench?: JsbSummary;
  bfcl?: BfclSummary;
  mcp?: McpSummary;
}

export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  // Counts right-aligned, text (the first column, lists of reasons) left-aligned.
  const numeric = headers.map((_, i) => i > 0 && rows.every((r) => /^[-\d.,/%]*$/.test(String(r[i] ?? ""))));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(cells[0]!), line(widths.map((w) => "-".repeat(w))), ...cells.slice(1).map(line)].join("\n");
}

function tally(t: Tally): string {
  const entries = Object.entries(t).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? "-" : entries.map(([k, n]) => `${k} ${n}`).join(", ");
}

function pct(n: number, d: number): string {
  return d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`;
}

export function renderText(summary: Summary): string {
  const out: string[] = [];
  const j = summary.jsonSchemaTestSuite;
  if (j !== undefined) {
    out.push("JSON-Schema-Test-Suite draft 2020-12 (openObjects: preserve)");
    const files = new Set([...Object.keys(j.excludedByFile)]);
    const rows = [...files].sort().map((f) => [f, tally(j.excludedByFile[f] ?? {})]);
    out.push(
      table(
        ["", "groups", "assertions", "included", "excluded", "passed", "failed", "crashed"],
        [["total", j.groups, j.assertions, j.included, j.excluded, j.passed, j.failed, j.crashed]],
      ),
    );
    out.push(`excluded by reason: ${tally(j.excludedByReason)}`);
    out.push(
      `groups: ${j.groupsCompiled} compiled (${j.groupsWithAnyFallback} with an any-JSON fallback: ${tally(j.anyFallbackCauses)}), ${j.groupsRefused} refused`,
    );
    out.push(
      `validator disagrees: ${j.validatorDisagrees.validRejected} valid assertions rejected, ${j.validatorDisagrees.invalidAccepted} invalid ones accepted`,
    );
    out.push(table(["excluded, by keyword file", "reasons"], rows));
    out.push("");
  }
  const b = summary.jsonSchemaBench;
  if (b !== undefined) {
    out.push("JSONSchemaBench (openai; openObjects close, preserve where a valid instance needs it)");
    const row = (name: string, s: JsbSummary | JsbSummary["subsets"][string]): (string | number)[] => [
      name,
      s.schemas,
      s.compiled,
      pct(s.compiled, s.schemas),
      s.withAnyFallback,
      s.preserveUsed,
      `${s.roundTripped}/${s.validInstances}`,
      `${s.rejected}/${s.invalidInstances}`,
      s.validatorDisagrees.validRejected + s.validatorDisagrees.invalidAccepted,
      s.beyondDecoderLimits,
      s.failed,
      s.crashed,
      tally(s.refusedBy),
    ];
    out.push(
      table(
        [
          "subset",
          "schemas",
          "compiled",
          "%",
          "any-fallback",
          "preserve",
          "valid ok",
          "invalid refused",
          "disagree",
          "limits",
          "failed",
          "crashed",
          "refused by",
        ],
        [...Object.entries(b.subsets).map(([name, s]) => row(name, s)), row("total", b)],
      ),
    );
    out.push(`any-JSON fallbacks, by cause (schemas): ${tally(b.anyFallbackCauses)}`);
    out.push(
      `preserve compile refused (instances not held to either compile): ${tally(b.preserveRefusedBy)}, ${b.instancesOfRefusedPreserve} instances`,
    );
    out.push(
      `validator disagrees: ${b.validatorDisagrees.validRejected} valid instances rejected, ${b.validatorDisagrees.invalidAccepted} invalid instances accepted; ${b.instancesOfRefusedSchemas} instances belong to refused schemas`,
    );
    out.push("");
  }
  const f = summary.bfcl;
  if (f !== undefined) {
    out.push('BFCL (dialect "bfcl", openai)');
    out.push(
      `function schemas: ${f.schemas} unique of ${f.functionsSeen} seen; compiled ${f.compiled} (${pct(f.compiled, f.schemas)}), ${f.withAnyFallback} with an any-JSON fallback; refused: ${tally(f.refusedBy)}; crashed ${f.crashed}`,
    );
    out.push(`the adapter changed: ${tally(f.adapterChanges)}`);
    const headers = [
      "calls",
      "round-tripped",
      "answer invalid",
      "schema refused",
      "schema missing",
      "preserve",
      "preserve refused",
    ];
    const row = (name: string, c: AnswerCounts): (string | number)[] => [
      name,
      c.answers,
      c.roundTripped,
      c.answerInvalid,
      c.schemaRefused,
      c.schemaMissing,
      c.preserveUsed,
      c.preserveRefused,
    ];
    out.push(
      table(
        ["answers file", ...headers, "failed"],
        [
          ...Object.entries(f.answersByFile).map(([file, c]) => [...row(file, c), c.failed]),
          [...row("total", f), f.failed],
        ],
      ),
    );
    const mt = f.multiTurn;
    out.push(
      table(
        ["multi-turn answers file", ...headers, "unparsed", "failed"],
        [
          ...Object.entries(mt.byFile).map(([file, c]) => [...row(file, c), c.unparsed, c.failed]),
          [...row("total", mt), mt.unparsed, mt.failed],
        ],
      ),
    );
    out.push(`answer lines that are not calls: ${tally(f.notCallAnswers)}`);
    out.push("");
  }
  const m = summary.mcp;
  if (m !== undefined) {
    out.push("MCP tool input schemas (openai)");
    out.push(
      table(
        ["source", "schemas", "compiled", "any-fallback", "refused by"],
        [
          ...Object.entries(m.sources).map(([name, c]) => [
            name,
            c.schemas,
            c.compiled,
            c.withAnyFallback,
            tally(c.refusedBy),
          ]),
          ["total", m.schemas, m.compiled, m.withAnyFallback, tally(m.refusedBy)],
          [
            "(output schemas)",
            m.outputSchemas.schemas,
            m.outputSchemas.compiled,
            m.outputSchemas.withAnyFallback,
            tally(m.outputSchemas.refusedBy),
          ],
        ],
      ),
    );
    out.push(`crashed: ${m.crashed}`);
    out.push("");
  }
  out.push(...depthSection(summary));
  out.push(...wireRulesSection(summary));
  return out.join("\n");
}

function wireRulesSection(summary: Summary): string[] {
  const rows: [string, WireRulesSummary][] = [];
  if (summary.jsonSchemaTestSuite !== undefined)
    rows.push(["JSON-Schema-Test-Suite", summary.jsonSchemaTestSuite.wireRules]);
  if (summary.jsonSchemaBench !== undefined) rows.push(["JSONSchemaBench", summary.jsonSchemaBench.wireRules]);
  if (summary.bfcl !== undefined) rows.push(["BFCL", summary.bfcl.wireRules]);
  if (summary.mcp !== undefined) rows.push(["MCP", summary.mcp.wireRules]);
  if (rows.length === 0) return [];
  return [
    "OpenAI's undocumented rules on the compiled wires (openai)",
    table(
      ["corpus", "wires checked", "anyOf object branches sharing the first key", "first example"],
      rows.map(([name, w]) => [
        name,
        w.checked,
        w.firstKey,
        w.examples[0] !== undefined ? `${w.examples[0].id}: ${w.examples[0].problem}` : "-",
      ]),
    ),
    "",
  ];
}

function depthSection(summary: Summary): string[] {
  const rows: [string, DepthSummary][] = [];
  if (summary.jsonSchemaTestSuite !== undefined)
    rows.push(["JSON-Schema-Test-Suite", summary.jsonSchemaTestSuite.depth]);
  if (summary.jsonSchemaBench !== undefined) rows.push(["JSONSchemaBench", summary.jsonSchemaBench.depth]);
  if (summary.bfcl !== undefined) rows.push(["BFCL", summary.bfcl.depth]);
  if (summary.mcp !== undefined) rows.push(["MCP", summary.mcp.depth]);
  if (rows.length === 0) return [];
  return [
    "Wire depth against source depth (levels of object nesting, openai, compiled schemas)",
    table(
      [
        "corpus",
        "compiled",
        "wire - source: schemas",
        "max source",
        "max wire",
        `sources beyond ${OPENAI_NESTING}`,
        `within ${OPENAI_NESTING}, refused for nesting`,
      ],
      rows.map(([name, d]) => [
        name,
        d.compiled,
        renderDelta(d.wireMinusSource),
        d.maxSource,
        d.maxWire,
        d.sourcesBeyondLimit,
        d.withinLimitRefusedForNesting,
      ]),
    ),
    "",
  ];
}

export interface Floors {
  /** "corpus.member" -> the least value allowed. */
  readonly min: Readonly<Record<string, number>>;
  /** "corpus.member" -> the most value allowed. */
  readonly max: Readonly<Record<string, number>>;
}

export function readFloors(path: string): Floors {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Partial<Floors>;
  return { min: raw.min ?? {}, max: raw.max ?? {} };
}

/** Floors crossed, for the corpora that ran; a floor naming a member that does not exist is itself a violation. */
export function checkFloors(summary: Summary, floors: Floors): string[] {
  const violations: string[] = [];
  const check = (kind: "min" | "max", key: string, bound: number): void => {
    const [corpus, ...rest] = key.split(".");
    const section = (summary as Record<string, unknown>)[corpus ?? ""];
    if (section === undefined) return; // that corpus did not run (--only)
    let value: unknown = section;
    for (const part of rest) value = (value as Record<string, unknown> | undefined)?.[part];
    if (typeof value !== "number") {
      violations.push(`${key}: no such number in the results`);
      return;
    }
    if (kind === "min" && value < bound) violations.push(`${key} = ${value}, below its floor ${bound}`);
    if (kind === "max" && value > bound) violations.push(`${key} = ${value}, above its ceiling ${bound}`);
  };
  for (const [key, bound] of Object.entries(floors.min)) check("min", key, bound);
  for (const [key, bound] of Object.entries(floors.max)) check("max", key, bound);
  return violations;
}
