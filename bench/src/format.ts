/** Plain-text output: Markdown tables (readable in a terminal, pasteable into docs) and progress on stderr. */

export type Align = "left" | "right";

/** A Markdown table, columns padded. Numeric-looking columns are right-aligned. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((r) => /^[-+]?[\d.,]/.test(r[i] ?? "")));
  const pad = (s: string, i: number): string => (numeric[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!));
  const line = (r: readonly string[]): string => `| ${r.map((c, i) => pad(c, i)).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(headers), rule, ...cells.map(line)].join("\n");
}

let quiet = false;

/** Silence progress lines (the JSON mode keeps stderr short). */
export function setQuiet(q: boolean): void {
  quiet = q;
}

/** Progress goes to stderr: stdout is for results only. */
export function progress(message: string): void {
  if (!quiet) process.stderr.write(`${message}\n`);
}

export const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;

export const kb = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
