/**
 * The codec's import graph, read from its sources for the house tests: every
 * relative import of every kind (`import`, `import type`, `export … from`,
 * a side-effect import, a dynamic `import()`), or only the ones that load a
 * module when the file loads. Imports are read by TypeScript's own parser, not a
 * regex. Paths are relative to src/, with "/" separators.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/** From a file to the files it imports. */
export type Graph = ReadonlyMap<string, readonly string[]>;

/** Whether an import or re-export names only types (erased: it loads nothing). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return false; // import "./x.js": loads it
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings)
      ? bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
      : false;
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause)
    ? clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
    : false;
}

/**
 * The module specifiers a source text names: all of them, or with `loading`
 * only those loaded when the file loads (type-only imports and a dynamic
 * `import()`, loaded on first use, left out).
 */
export function specifiersOf(text: string, loading = false): string[] {
  if (!loading) return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!typeOnly(node)) out.push(node.moduleSpecifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A file's relative imports as paths under src/ (".js" specifiers name the ".ts" sources). */
export function importsOf(file: string, text: string, loading = false): string[] {
  return specifiersOf(text, loading)
    .filter((s) => s.startsWith("."))
    .map((s) => posix.normalize(posix.join(posix.dirname(file), s.replace(/\.js$/, ".ts"))));
}

/** The import graph of every .ts file under `root` (src/ by default), every import or only loading ones. */
export function sourceGraph(options: { loading?: boolean; root?: string } = {}): Graph {
  const root = options.root ?? SRC;
  const graph = new Map<string, string[]>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".ts")) {
        const file = relative(root, path).replaceAll("\\", "/");
        graph.set(file, importsOf(file, readFileSync(path, "utf8"), options.loading === true));
      }
    }
  };
  visit(root);
  return graph;
}

/** Every file `root` reaches through the graph, each with the chain of imports that first reaches it. */
export function reach(graph: Graph, root: string): Map<string, readonly string[]> {
  const chains = new Map<string, readonly string[]>([[root, [root]]]);
  const queue = [root];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(file)!, next]);
      queue.push(next);
    }
  }
  return chains;
}
