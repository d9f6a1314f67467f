/**
 * The report's picture, as plain SVG (no dependency, readable in a browser
 * and on GitHub): exact-intent accuracy per arm with its 95% interval, and a
 * category × arm grid shaded by accuracy. Every number drawn is a string the
 * text table prints too, and each mark carries its figures as data-*
 * attributes, so a test can hold the picture to the table.
 */
import { loopbackWarning, provenanceLine } from "./provenance.js";
import { type ArmSummary, categoryCell, pct, type Report } from "./report.js";

const FONT = "font-family=\"-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\"";
const LABEL_W = 170;
const PLOT_W = 420;
const ROW_H = 30;
const CELL_H = 40;
const MARGIN = 20;

/** Sequential blues (light is low): readable in grey, and for red-green colour blindness. */
const STOPS = ["#f7fbff", "#c6dbef", "#6baed6", "#2171b5", "#08306b"] as const;

export function shade(accuracy: number): string {
  const x = Math.min(1, Math.max(0, accuracy)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const t = x - i;
  const rgb = (hex: string): number[] => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));
  const a = rgb(STOPS[i] as string);
  const b = rgb(STOPS[i + 1] as string);
  return `#${a
    .map((v, k) =>
      Math.round(v + ((b[k] as number) - v) * t)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** Coordinates are rounded to 0.01 px: stable text, exact enough to check. */
const r2 = (x: number): string => `${Math.round(x * 100) / 100}`;

function text(x: number, y: number, s: string, attrs = ""): string {
  return `<text x="${r2(x)}" y="${r2(y)}"${attrs ? ` ${attrs}` : ""}>${esc(s)}</text>`;
}

/** Breaks a "; "-separated line into lines of at most `width` characters (a part longer than that stays whole). */
function wrap(line: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of line.split("; ")) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 2 + part.length <= width) lines[lines.length - 1] = `${last}; ${part}`;
    else lines.push(part);
  }
  return lines;
}

/** Shortens a label that would run into the plot (the full text stays in the <title>). */
const fit = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

export function renderChart(report: Report): string {
  const arms = report.arms;
  const colW = Math.max(96, ...arms.map((a) => Math.min(22, a.arm.length) * 7 + 16));
  const gridW = LABEL_W + colW * arms.length;
  const width = Math.max(LABEL_W + PLOT_W + 150, gridW) + 2 * MARGIN;
  const out: string[] = [];
  let y = MARGIN;

  const warning = loopbackWarning(report.provenance);
  out.push(text(MARGIN, y + 16, "strictwire eval: exact-intent accuracy", 'font-size="18" font-weight="600"'));
  y += 26;
  if (warning !== undefined) {
    out.push(
      text(
        MARGIN,
        y + 14,
        "NOT A MODEL'S RESULT: the endpoint is a loopback host (a scripted or local server)",
        'font-size="13" font-weight="700" fill="#b00020" data-role="loopback-warning"',
      ),
    );
    y += 20;
  }
  for (const line of wrap(provenanceLine(report.provenance, report.answeredModels), 130)) {
    out.push(text(MARGIN, y + 12, line, 'font-size="10" fill="#555" data-role="provenance"'));
    y += 14;
  }
  y += 14;

  // Panel 1: accuracy per arm with its 95% interval.
  out.push(text(MARGIN, y + 12, "Per arm: exact/trials and 95% Wilson interval", 'font-size="13" font-weight="600"'));
  y += 22;
  const x0 = MARGIN + LABEL_W;
  const at = (v: number): number => x0 + v * PLOT_W;
  const top = y;
  const bottom = y + ROW_H * arms.length;
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${r2(at(tick))}" y1="${r2(top)}" x2="${r2(at(tick))}" y2="${r2(bottom)}" stroke="#ddd" stroke-width="1"/>`,
      text(at(tick), bottom + 14, `${tick * 100}%`, 'font-size="10" fill="#555" text-anchor="middle"'),
    );
  }
  arms.forEach((a, i) => {
    const mid = top + ROW_H * i + ROW_H / 2;
    out.push(armRow(a, mid, x0, at));
  });
  y = bottom + 34;

  // Panel 2: category × arm, shaded by accuracy.
  out.push(
    text(
      MARGIN,
      y + 12,
      "By category: exact/trials, accuracy, +gained/-lost against control",
      'font-size="13" font-weight="600"',
    ),
  );
  y += 22;
  arms.forEach((a, j) => {
    out.push(
      text(x0 + colW * j + colW / 2, y + 12, fit(a.arm, 22), 'font-size="11" font-weight="600" text-anchor="middle"'),
    );
  });
  y += 20;
  report.categories.forEach((category, i) => {
    const rowY = y + CELL_H * i;
    out.push(text(MARGIN, rowY + CELL_H / 2 + 4, fit(category, 24), 'font-size="12"'));
    arms.forEach((a, j) => {
      const c = a.byCategory.find((x) => x.category === category);
      const cx = x0 + colW * j;
      if (c === undefined || c.trials === 0) {
        out.push(
          `<rect x="${r2(cx + 1)}" y="${r2(rowY + 1)}" width="${r2(colW - 2)}" height="${CELL_H - 2}" fill="#fff" stroke="#ddd"/>`,
          text(cx + colW / 2, rowY + CELL_H / 2 + 4, "-", 'font-size="11" text-anchor="middle" fill="#999"'),
        );
        return;
      }
      const ink = c.accuracy >= 0.6 ? "#fff" : "#111";
      const [counts, share, vs] = categoryCell(c).split(" ");
      out.push(
        `<g data-role="cell" data-arm="${esc(a.arm)}" data-category="${esc(category)}" data-exact="${c.exact}" data-trials="${c.trials}" data-accuracy="${c.accuracy}"${c.vsControl ? ` data-wins="${c.vsControl.wins}" data-losses="${c.vsControl.losses}"` : ""}>`,
        `<title>${esc(`${a.arm}, ${category}: ${categoryCell(c)}`)}</title>`,
        `<rect x="${r2(cx + 1)}" y="${r2(rowY + 1)}" width="${r2(colW - 2)}" height="${CELL_H - 2}" fill="${shade(c.accuracy)}" stroke="#d0d7de" stroke-width="0.5"/>`,
        text(
          cx + colW / 2,
          vs !== undefined ? rowY + 17 : rowY + CELL_H / 2 + 4,
          `${counts} ${share}`,
          `font-size="11" text-anchor="middle" fill="${ink}"`,
        ),
        ...(vs !== undefined
          ? [
              text(
                cx + colW / 2,
                rowY + 31,
                vs,
                `font-size="10" text-anchor="middle" fill="${ink}"${c.vsControl && c.vsControl.losses > 0 ? ' font-weight="700"' : ""}`,
              ),
            ]
          : []),
        "</g>",
      );
    });
  });
  y += CELL_H * report.categories.length + 16;

  // The legend: the shade scale.
  const legendW = 200;
  out.push(
    '<defs><linearGradient id="scale" x1="0" x2="1" y1="0" y2="0">',
    ...STOPS.map((c, i) => `<stop offset="${r2(i / (STOPS.length - 1))}" stop-color="${c}"/>`),
    "</linearGradient></defs>",
    `<rect x="${r2(x0)}" y="${r2(y)}" width="${legendW}" height="10" fill="url(#scale)" stroke="#ccc"/>`,
    text(x0 - 6, y + 9, "accuracy 0%", 'font-size="10" text-anchor="end" fill="#555"'),
    text(x0 + legendW + 6, y + 9, "100%", 'font-size="10" fill="#555"'),
  );
  y += 10 + MARGIN;

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${r2(width)}" height="${r2(y)}" viewBox="0 0 ${r2(width)} ${r2(y)}" ${FONT} role="img">`,
    `<title>${esc(`strictwire eval: ${report.provenance.model} via ${report.provenance.api}`)}</title>`,
    `<rect x="0" y="0" width="${r2(width)}" height="${r2(y)}" fill="#fff"/>`,
    ...out,
    "</svg>",
    "",
  ].join("\n");
}

function armRow(a: ArmSummary, mid: number, x0: number, at: (v: number) => number): string {
  const fill = a.arm === "control" ? "#8c8c8c" : "#2171b5";
  const { low, high } = a.interval95;
  return [
    `<g data-role="arm" data-arm="${esc(a.arm)}" data-exact="${a.exact}" data-trials="${a.trials}" data-accuracy="${a.accuracy}" data-low="${low}" data-high="${high}">`,
    `<title>${esc(`${a.arm}: ${a.exact}/${a.trials}, ${pct(a.accuracy)} (95% ${pct(low)}–${pct(high)})`)}</title>`,
    text(x0 - 10, mid + 4, fit(a.arm, 22), 'font-size="12" text-anchor="end"'),
    `<rect data-role="bar" x="${r2(x0)}" y="${r2(mid - 7)}" width="${r2(at(a.accuracy) - x0)}" height="14" fill="${fill}"/>`,
    `<line data-role="interval" x1="${r2(at(low))}" y1="${r2(mid)}" x2="${r2(at(high))}" y2="${r2(mid)}" stroke="#111" stroke-width="1.5"/>`,
    `<line x1="${r2(at(low))}" y1="${r2(mid - 5)}" x2="${r2(at(low))}" y2="${r2(mid + 5)}" stroke="#111" stroke-width="1.5"/>`,
    `<line x1="${r2(at(high))}" y1="${r2(mid - 5)}" x2="${r2(at(high))}" y2="${r2(mid + 5)}" stroke="#111" stroke-width="1.5"/>`,
    text(
      at(1) + 10,
      mid + 4,
      `${a.exact}/${a.trials} ${pct(a.accuracy)} (${pct(low)}–${pct(high)})`,
      'font-size="11" data-role="figures"',
    ),
    "</g>",
  ].join("\n");
}
