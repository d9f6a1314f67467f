/**
 * The whole bundled suite against an endpoint on 127.0.0.1 that answers as
 * the oracle says (each strict arm's patch in that arm's wire form), in all
 * three API shapes; then the same endpoint making one kind of mistake. The
 * scores must be exact: a scorer that is right only on average would pass
 * neither.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  type Arm,
  BUILTIN_ARMS,
  BUNDLED_SUITE,
  loadOracle,
  loadSuite,
  type Oracle,
  type Report,
  renderChart,
  renderMarkdown,
  renderTable,
  runEval,
  type Suite,
  summarise,
  type Workflow,
} from "../src/index.js";
import type { Json } from "../src/suite.js";
import { type Answer, argumentsFor, armOf, type Loopback, type Seen, startLoopback, userMessage } from "./loopback.js";
import { elements, parseXml, type XmlElement } from "./xml.js";

const KEY = "sk-oracle-0c7e11";
let suite: Suite;
let oracle: Oracle;
let dir: string | undefined;
const servers: Loopback[] = [];

beforeAll(async () => {
  const s = await loadSuite(BUNDLED_SUITE);
  if (!s.ok) throw new Error(s.error.message);
  suite = s.value;
  const o = await loadOracle(BUNDLED_SUITE, suite);
  if (!o.ok) throw new Error(o.error.message);
  oracle = o.value;
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

type Behaviour = "oracle" | "clear-as-omission" | "clarify-always";

/** Every clear (a null member, at any depth) left out instead: the seed report's null-04 failure. */
function clearsOmitted(value: Json): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = clearsOmitted(v);
  return out;
}

const scenarioOf = (seen: Seen) =>
  suite.scenarios.find((s) => userMessage(seen).endsWith(`Request: ${s.instruction}`)) ??
  expect.unreachable(userMessage(seen));

/** The oracle's answer; with a mistake, the strict arms make it and control stays right. */
function answer(behaviour: Behaviour, seen: Seen): Answer {
  const s = scenarioOf(seen);
  const arm = armOf(seen, suite.workflows.values());
  const expected = oracle.expected.get(s.id) ?? expect.unreachable(s.id);
  const model = `oracle-${seen.api}`;
  const call = (name: string, args: string): Answer => ({ kind: "calls", model, calls: [{ name, arguments: args }] });
  if (behaviour === "clarify-always") return call("ask_clarification", '{"question":"Which value do you mean?"}');
  if (expected.action === "clarify") return call("ask_clarification", '{"question":"Which value do you mean?"}');
  if (expected.action === "reject") return call("refuse_request", '{"reason":"The policy does not allow it."}');
  const w = suite.workflows.get(s.workflow) as Workflow;
  const value = (expected.arguments ?? {}) as Json;
  const written = behaviour === "clear-as-omission" && arm !== "control" ? clearsOmitted(value) : value;
  return call(w.tool.name, argumentsFor(arm, w, written));
}

async function run(api: Api, behaviour: Behaviour) {
  const server = await startLoopback((seen) => answer(behaviour, seen));
  servers.push(server);
  dir = await mkdtemp(join(tmpdir(), "strictwire-oracle-"));
  const arms: Arm[] = BUILTIN_ARMS.filter((a) => a.unavailable(api) === undefined);
  const outcome = await runEval({
    suite,
    oracle,
    arms,
    api,
    endpoint: server.url,
    key: KEY,
    settings: { model: "oracle", maxTokens: 256, temperature: 0 },
    repeat: 1,
    seed: 3,
    concurrency: 4,
    repair: 0,
    timeoutMs: 10_000,
    retries: 0,
    backoffMs: 1,
    resultsFile: join(dir, "results.jsonl"),
    resume: false,
    countTokens: (t) => Math.ceil(t.length / 4),
  });
  if (!outcome.ok) expect.unreachable(outcome.error.message);
  const names = arms.map((a) => a.name);
  const results = await readFile(join(dir, "results.jsonl"), "utf8");
  return { outcome: outcome.value, report: summarise(outcome.value, names), names, server, results };
}

/** The 13 oracle patches that clear something, by category. */
const CLEARS: Readonly<Record<string, readonly string[]>> = {
  null: ["null-01", "null-02", "null-03", "null-04", "null-05", "null-06", "null-07", "null-08"],
  nested: ["nested-04", "nested-08"],
  map: ["map-04", "map-07"],
  union: ["union-06"],
};
const CATEGORIES = ["omission", "null", "update", "nested", "map", "union", "ambiguous", "invalid"];

describe.each<Api>(["chat", "responses", "anthropic"])("the whole bundled suite over %s", (api) => {
  it("the oracle's answers score exactly 100% in every arm, with no redundant write", async () => {
    const { outcome, report, names, server, results } = await run(api, "oracle");
    expect(names).toEqual(
      api === "anthropic"
        ? ["control", "tagged", "compact", "minimal", "factored", "tagged-described", "native"]
        : ["control", "tagged", "compact", "minimal", "factored", "tagged-described"],
    );
    expect(server.seen).toHaveLength(64 * names.length);
    expect(report.categories).toEqual(CATEGORIES);
    for (const a of report.arms) {
      expect(a, a.arm).toMatchObject({
        trials: 64,
        exact: 64,
        accuracy: 1,
        actionRight: 64,
        finalStateRight: 64,
        redundantWriteTrials: 0,
        decodeFailures: {},
      });
      if (a.arm !== "control") expect(a.vsControl).toEqual({ pairs: 64, wins: 0, losses: 0, gained: [], lost: [] });
      for (const c of a.byCategory) expect(c, `${a.arm} ${c.category}`).toMatchObject({ trials: 8, exact: 8 });
    }
    for (const r of outcome.records) expect(r.first?.judgement.redundantWrites, `${r.arm} ${r.scenario}`).toEqual([]);
    // Provenance: a loopback host is said to be no model's result, first.
    expect(report.provenance).toMatchObject({ api, model: "oracle", loopback: true, seed: 3, arms: names });
    expect(report.answeredModels).toEqual([`oracle-${api}`]);
    expect(renderTable(report).split("\n")[0]).toMatch(/^NOT A MODEL'S RESULT: the endpoint 127\.0\.0\.1:\d+/);
    expect(results).not.toContain(KEY);
  });

  it("every clear written as an omission loses exactly the 13 clearing scenarios, in their categories", async () => {
    const { outcome, report } = await run(api, "clear-as-omission");
    const all = Object.values(CLEARS).flat().sort();
    expect(all).toHaveLength(13);
    const [control, ...strict] = report.arms;
    expect(control).toMatchObject({ arm: "control", exact: 64 });
    for (const a of strict) {
      expect(a, a.arm).toMatchObject({ exact: 51, actionRight: 64, finalStateRight: 51, redundantWriteTrials: 0 });
      expect(a.vsControl?.lost.map((p) => p.scenario)).toEqual(all);
      expect(a.vsControl?.gained).toEqual([]);
      for (const c of a.byCategory) {
        const lost = CLEARS[c.category] ?? [];
        expect(c, `${a.arm} ${c.category}`).toMatchObject({ trials: 8, exact: 8 - lost.length });
        expect(c.vsControl?.lost.map((p) => p.scenario)).toEqual(lost);
      }
    }
    const wrong = outcome.records.filter((r) => r.first?.judgement.correct !== true);
    expect(wrong.every((r) => r.arm !== "control" && all.includes(r.scenario))).toBe(true);
    expect(wrong).toHaveLength(13 * strict.length);

    // What the report prints and draws is the same.
    const table = renderTable(report);
    expect(table).toMatch(/\nnull +8\/8 100\.0% +0\/8 0\.0% \+0\/-8 /);
    expect(table).toContain(`\ntagged: lost 13 (${all.join(" ")}); gained 0 (none)\n`);
    chartMatchesTable(report, table);
    const markdown = renderMarkdown(report, outcome.records, "t", "t.svg");
    expect(markdown).toContain(`Lost: 13 (${all.join(", ")})`);
  });

  it("asking for clarification every time scores exactly the 8 ambiguous scenarios", async () => {
    const { report } = await run(api, "clarify-always");
    for (const a of report.arms) {
      expect(a.exact, a.arm).toBe(8);
      for (const c of a.byCategory) expect(c.exact, `${a.arm} ${c.category}`).toBe(c.category === "ambiguous" ? 8 : 0);
    }
  });
});

/** The chart, read as XML: each arm's bar, interval and figures, and each category cell, are the table's numbers. */
function chartMatchesTable(report: Report, table: string): void {
  const svg = parseXml(renderChart(report));
  expect(svg.name).toBe("svg");
  const all = elements(svg);
  const byRole = (role: string): XmlElement[] => all.filter((e) => e.attrs["data-role"] === role);
  const lines = table.split("\n");
  const header = lines.findIndex((l) => l.startsWith("arm "));
  const armRows = new Map(
    lines.slice(header + 1, header + 1 + report.arms.length).map((l) => {
      const cells = l.split(/ {2,}/);
      return [cells[0] as string, cells];
    }),
  );
  const bars = byRole("arm");
  expect(bars.map((b) => b.attrs["data-arm"])).toEqual(report.arms.map((a) => a.arm));
  const plot = byRole("bar").map((b) => Number(b.attrs.x));
  const x0 = plot[0] as number;
  for (const [i, a] of report.arms.entries()) {
    const g = bars[i] as XmlElement;
    const [, exact, accuracy] = armRows.get(a.arm) ?? expect.unreachable(a.arm);
    const figures = g.children.find((c) => c.attrs["data-role"] === "figures");
    expect(figures?.text).toBe(`${exact} ${accuracy}`);
    expect(`${g.attrs["data-exact"]}/${g.attrs["data-trials"]}`).toBe(exact);
    const bar = g.children.find((c) => c.attrs["data-role"] === "bar") as XmlElement;
    const interval = g.children.find((c) => c.attrs["data-role"] === "interval") as XmlElement;
    // 420 px is 100%: the bar's length is the accuracy, the whisker the interval.
    expect(Number(bar.attrs.width)).toBeCloseTo(a.accuracy * 420, 1);
    expect(Number(bar.attrs.x)).toBe(x0);
    expect(Number(interval.attrs.x1) - x0).toBeCloseTo(a.interval95.low * 420, 1);
    expect(Number(interval.attrs.x2) - x0).toBeCloseTo(a.interval95.high * 420, 1);
  }
  const gridHeader = lines.findIndex((l) => l.startsWith("category "));
  const arms = (lines[gridHeader] as string).split(/ {2,}/).slice(1);
  const cells = byRole("cell");
  expect(cells).toHaveLength(report.categories.length * arms.length);
  for (const l of lines.slice(gridHeader + 1, gridHeader + 1 + report.categories.length)) {
    const [category, ...values] = l.split(/ {2,}/);
    for (const [j, arm] of arms.entries()) {
      const cell =
        cells.find((c) => c.attrs["data-arm"] === arm && c.attrs["data-category"] === category) ??
        expect.unreachable(`${arm} ${category}`);
      const drawn = cell.children
        .filter((c) => c.name === "text")
        .map((c) => c.text)
        .join(" ");
      expect(drawn, `${arm} ${category}`).toBe(values[j]);
    }
  }
}
