import { describe, expect, it } from "vitest";
import { type RunOutcome, renderChart, renderMarkdown, shade, summarise, type TrialRecord } from "../src/index.js";
import { elements, parseXml } from "./xml.js";

const HOSTILE = `a<b>&"c'</svg>`;

function outcome(arms: readonly string[], categories: readonly string[], host = "api.openai.com"): RunOutcome {
  const records: TrialRecord[] = [];
  for (const arm of arms)
    for (const [i, category] of categories.entries())
      for (let n = 0; n < 4; n++) {
        const correct = n < i + (arm === "control" ? 1 : 2);
        records.push({
          type: "trial",
          key: `${arm}|${category}-${n}|0`,
          arm,
          scenario: `${category}-${n}`,
          workflow: "w",
          category,
          repetition: 0,
          api: "chat",
          model: "m",
          first: {
            accepted: true,
            calls: 1,
            latencyMs: 1,
            httpAttempts: 1,
            answeredModel: HOSTILE,
            judgement: {
              action: "update",
              actionRight: correct,
              argsExact: correct,
              finalStateRight: correct,
              redundantWrites: [],
              correct,
            },
          },
        });
      }
  return {
    provenance: {
      type: "run",
      date: "2026-12-04T00:00:00.000Z",
      strictwire: { version: "0.1.0" },
      endpointHost: host,
      loopback: host.startsWith("127."),
      api: "chat",
      model: HOSTILE,
      suite: { digest: `sha256:${"0".repeat(64)}`, scenarios: 4 * categories.length },
      seed: 1,
      repeat: 1,
      arms,
    },
    categories,
    records,
    planned: records.length,
    resumed: 0,
  };
}

describe("the chart", () => {
  it("is well-formed XML whatever the names: arm, category and model names are escaped", () => {
    const arms = ["control", HOSTILE];
    const categories = ["x&y", "<z>"];
    const report = summarise(outcome(arms, categories), arms);
    const svg = parseXml(renderChart(report));
    expect(svg.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
    const all = elements(svg);
    expect(all.filter((e) => e.attrs["data-role"] === "arm").map((e) => e.attrs["data-arm"])).toEqual(arms);
    const cells = all.filter((e) => e.attrs["data-role"] === "cell");
    expect(cells.map((c) => `${c.attrs["data-arm"]}/${c.attrs["data-category"]}`).sort()).toEqual(
      arms.flatMap((a) => categories.map((c) => `${a}/${c}`)).sort(),
    );
    expect(all.find((e) => e.name === "title")?.text).toContain(HOSTILE);
  });

  it("shades a cell by its accuracy, light for low and dark for high", () => {
    const arms = ["control", "tagged"];
    const report = summarise(outcome(arms, ["a", "b", "c"]), arms);
    const cells = elements(parseXml(renderChart(report))).filter((e) => e.attrs["data-role"] === "cell");
    for (const c of cells) {
      const rect = c.children.find((x) => x.name === "rect");
      expect(rect?.attrs.fill).toBe(shade(Number(c.attrs["data-accuracy"])));
    }
    expect(shade(0)).toBe("#f7fbff");
    expect(shade(1)).toBe("#08306b");
    expect(shade(0.5)).toBe("#6baed6");
  });

  it("says first, in the picture too, that a loopback endpoint is not a model's result", () => {
    const arms = ["control"];
    const local = parseXml(renderChart(summarise(outcome(arms, ["a"], "127.0.0.1:8080"), arms)));
    const warning = elements(local).find((e) => e.attrs["data-role"] === "loopback-warning");
    expect(warning?.text).toMatch(/^NOT A MODEL'S RESULT/);
    const remote = parseXml(renderChart(summarise(outcome(arms, ["a"]), arms)));
    expect(elements(remote).some((e) => e.attrs["data-role"] === "loopback-warning")).toBe(false);
  });

  it("the reader used here refuses what is not well-formed", () => {
    for (const bad of [
      "<svg><g></svg></g>",
      "<svg><text>a < b</text></svg>",
      "<svg><text>a & b</text></svg>",
      '<svg a="1" a="2"/>',
      "<svg a=1/>",
      '<svg a="x<y"/>',
      "<svg/><svg/>",
      "<svg><g>",
    ])
      expect(() => parseXml(bad), bad).toThrow();
  });
});

describe("the Markdown report", () => {
  it("keeps server-given names inside their code spans and out of the table's columns", () => {
    const arms = ["control", "tagged"];
    const o = outcome(arms, ["a"]);
    const markdown = renderMarkdown(summarise(o, arms), o.records, "t", "t.svg");
    const model = markdown.split("\n").find((l) => l.startsWith("- Model:"));
    expect(model).toBe(`- Model: \`${HOSTILE}\` as sent; answered as \`${HOSTILE}\``);
    const tick = "a`b";
    const ticked = renderMarkdown(
      summarise({ ...o, provenance: { ...o.provenance, model: tick } }, arms),
      o.records,
      "t",
    );
    expect(ticked).toContain("- Model: `` a`b `` as sent");
  });

  it("a call with no arguments text shows its name alone, not an empty code span (literal backticks)", () => {
    const arms = ["control", "tagged"];
    const o = outcome(arms, ["a"]);
    const records = o.records.map((r, i) => ({
      ...r,
      first: { ...r.first!, toolName: i % 2 === 0 ? "ask_clarification" : "refuse_request", argumentsText: "" },
    }));
    const markdown = renderMarkdown(summarise({ ...o, records }, arms), records, "t");
    const rows = markdown.split("\n").filter((l) => l.startsWith("| a-"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).not.toContain("`");
      expect(row).toMatch(/\| (ask_clarification|refuse_request) \| (ask_clarification|refuse_request) \|$/);
    }
    const withArgs = records.map((r) => ({ ...r, first: { ...r.first, argumentsText: '{"question":"?"}' } }));
    const shown = renderMarkdown(summarise({ ...o, records: withArgs }, arms), withArgs, "t");
    expect(shown).toMatch(/\| (ask_clarification|refuse_request) `\{"question":"\?"\}` \|/);
  });
});
