/**
 * Model Context Protocol tools: every tool input schema compiles for openai.
 * github-mcp-server/toolsnaps/*.json hold one tool each; mcp-proxy-snapshots
 * hold captured tools/list responses ({ tools: [...] }). Output schemas, where
 * a tool has one, are compiled too and reported apart.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type DepthSummary, emptyDepth, recordDepth } from "./depth.js";
import { bump, type Crash, Examples, excerpt, type Tally, toolName, tryCompile } from "./harness.js";
import { type CaseLog, listFiles, type ProgressSink } from "./io.js";
import { emptyWireRules, recordWireRules, type WireRulesSummary } from "./wire-rules.js";

export interface SourceCounts {
  schemas: number;
  compiled: number;
  refusedBy: Tally;
  withAnyFallback: number;
}

export interface McpSummary extends SourceCounts {
  crashed: number;
  /** Input schemas by source: the toolsnaps, and each captured server. */
  sources: Record<string, SourceCounts>;
  outputSchemas: SourceCounts;
  toolsWithoutInputSchema: number;
  refusalExamples: Record<string, unknown[]>;
  crashes: unknown[];
  /** Wire depth against source depth, input and output schemas. */
  depth: DepthSummary;
  /** OpenAI rules beyond the limits (the first-key rule), on every compiled wire. */
  wireRules: WireRulesSummary;
}

interface Tool {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

function emptyCounts(): SourceCounts {
  return { schemas: 0, compiled: 0, refusedBy: {}, withAnyFallback: 0 };
}

export function runMcp(corpora: string, log: CaseLog, progress: ProgressSink): McpSummary {
  const dir = join(corpora, "mcp");
  const s: McpSummary = {
    ...emptyCounts(),
    crashed: 0,
    sources: {},
    outputSchemas: emptyCounts(),
    toolsWithoutInputSchema: 0,
    refusalExamples: {},
    crashes: [],
    depth: emptyDepth(),
    wireRules: emptyWireRules(),
  };
  const refusals = new Examples<unknown>(5);

  const tools: { source: string; file: string; tool: Tool }[] = [];
  for (const file of listFiles(join(dir, "github-mcp-server/toolsnaps"), ".json")) {
    const tool = JSON.parse(readFileSync(join(dir, "github-mcp-server/toolsnaps", file), "utf8")) as Tool;
    tools.push({ source: "github-mcp-server", file, tool });
  }
  for (const file of listFiles(join(dir, "mcp-proxy-snapshots"), ".json")) {
    const snapshot = JSON.parse(readFileSync(join(dir, "mcp-proxy-snapshots", file), "utf8")) as { tools?: unknown };
    if (!Array.isArray(snapshot.tools)) throw new Error(`mcp: mcp-proxy-snapshots/${file} has no tools list`);
    for (const tool of snapshot.tools as Tool[])
      tools.push({ source: `mcp-proxy/${file.replace(/\.json$/, "")}`, file, tool });
  }

  const compileInto = (counts: SourceCounts, schema: unknown, tool: Tool, where: Record<string, unknown>): void => {
    counts.schemas++;
    const options = {
      name: toolName(tool.name),
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
    };
    const c = tryCompile(schema, options);
    recordDepth(s.depth, `${where.source ?? ""}/${String(tool.name)}`, schema, c);
    recordWireRules(s.wireRules, `${where.source ?? ""}/${String(tool.name)}`, c);
    if (c.kind === "compiled") {
      counts.compiled++;
      if (c.anyFallbacks.length > 0) counts.withAnyFallback++;
      log.write({ corpus: "mcp", ...where, outcome: "compiled", anyFallbacks: c.anyFallbacks.length });
    } else if (c.kind === "refused") {
      bump(counts.refusedBy, c.code);
      refusals.add(c.code, { ...where, path: c.path, message: excerpt(c.message, 300) });
      log.write({ corpus: "mcp", ...where, outcome: "refused", code: c.code, path: c.path, message: c.message });
    } else {
      crash(where, c.crash);
      log.write({ corpus: "mcp", ...where, outcome: "crashed", crash: c.crash });
    }
  };
  const crash = (where: Record<string, unknown>, c: Crash): void => {
    s.crashed++;
    s.crashes.push({ ...where, ...c });
    process.stderr.write(`conformance: CRASH in ${c.stage} at ${JSON.stringify(where)}: ${c.message}\n`);
  };

  tools.forEach(({ source, file, tool }, i) => {
    progress.update("MCP tools", i, tools.length);
    const where = { source, file, tool: tool.name };
    if (tool.inputSchema === undefined) {
      s.toolsWithoutInputSchema++;
      return;
    }
    s.sources[source] ??= emptyCounts();
    compileInto(s.sources[source], tool.inputSchema, tool, { ...where, schema: "input" });
    if (tool.outputSchema !== undefined)
      compileInto(s.outputSchemas, tool.outputSchema, tool, { ...where, schema: "output" });
  });
  progress.clear();
  for (const counts of Object.values(s.sources)) {
    s.schemas += counts.schemas;
    s.compiled += counts.compiled;
    s.withAnyFallback += counts.withAnyFallback;
    for (const [code, n] of Object.entries(counts.refusedBy)) bump(s.refusedBy, code, n);
  }
  s.refusalExamples = refusals.toJSON();
  return s;
}
