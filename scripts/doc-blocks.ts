/** The fenced code blocks of the READMEs and docs, with their marks (scripts/test/doc-blocks.test.ts runs them). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./conformance/io.js";

export interface Block {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly marks: readonly string[];
  readonly body: string;
  /** The ```text output block right after it, if any. */
  readonly output?: string;
}

export const CODE = new Set(["ts", "typescript", "js", "javascript", "mjs", "mts"]);
export const SHELL = new Set(["sh", "bash", "shell"]);

/** The documents whose code blocks are held to this: every README and every page of docs/. */
export function documents(): string[] {
  const found = ["README.md", "examples/README.md"];
  for (const pkg of readdirSync(join(REPO_ROOT, "packages"))) {
    if (existsSync(join(REPO_ROOT, "packages", pkg, "README.md"))) found.push(`packages/${pkg}/README.md`);
  }
  for (const page of readdirSync(join(REPO_ROOT, "docs"))) if (page.endsWith(".md")) found.push(`docs/${page}`);
  return found.sort();
}

export function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
  const raw: { line: number; lang: string; marks: string[]; body: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    raw.push({ line: start + 1, lang: open[1]!, marks: open[2]!.split(/\s+/).filter(Boolean), body: body.join("\n") });
  }
  return raw.map((b, k) => {
    const next = raw[k + 1];
    const output = next !== undefined && next.lang === "text" && next.marks.includes("output") ? next.body : undefined;
    return {
      file,
      line: b.line,
      lang: b.lang,
      marks: b.marks,
      body: b.body,
      ...(output !== undefined ? { output } : {}),
    };
  });
}
